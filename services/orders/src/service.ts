import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { createLogger, type Logger } from '@warmline/platform/log';
import { createPool, pingDatabase, runMigrations } from '@warmline/platform/db/index';
import { closeServer, createHttpApp, listen } from '@warmline/platform/http/app';
import { createBus, startOutboxRelay } from '@warmline/platform/bus/index';
import type { OrdersConfig } from './config';
import type { OrdersContext } from './domain/context';
import { createPaymentProvider, type PaymentProvider } from './domain/payment-provider';
import { ordersRoutes } from './http/routes';
import { stripeWebhookRoutes } from './http/stripe-webhook';
import { internalLeadOrderRoutes } from './http/internal-lead-orders';
import { transferOrderRoutes } from './http/transfer-order-routes';
import { httpUsersClient } from './clients/users-client';

export const ORDERS_SCHEMA = 'orders';
export const ORDERS_MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');

export interface RunningOrders {
  url: string;
  provider: PaymentProvider['name'];
  stop(): Promise<void>;
}

/**
 * The orders service: package orders and their payments (ARCHITECTURE §4). Migrates its
 * schema, relays its outbox to RabbitMQ and serves the orders API on ORDERS_PORT (0 picks a
 * free port). Refuses to start when the payment configuration cannot work.
 */
export async function startOrders(
  config: OrdersConfig,
  log: Logger = createLogger('orders', config.LOG_LEVEL),
): Promise<RunningOrders> {
  // First, so a bad payment configuration stops the service before it touches anything.
  const provider = createPaymentProvider(config);
  log.info({ provider: provider.name }, 'payment provider chosen');
  if (provider.name === 'stripe' && !config.STRIPE_WEBHOOK_SECRET) {
    log.warn('STRIPE_WEBHOOK_SECRET is not set: Stripe payments will never mark orders paid');
  }

  await runMigrations({ databaseUrl: config.DATABASE_URL, schema: ORDERS_SCHEMA, dir: ORDERS_MIGRATIONS_DIR, log });
  const pool = createPool(config.DATABASE_URL, ORDERS_SCHEMA);
  const bus = createBus({
    url: config.AMQP_URL,
    log,
    connectionName: 'orders',
    ...(config.BUS_NAMESPACE ? { namespace: config.BUS_NAMESPACE } : {}),
  });

  const stops: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    // Reverse order: HTTP first so no new work arrives, then the relay, then connections.
    for (const close of [...stops].reverse()) {
      try {
        await close();
      } catch (err) {
        log.warn({ err }, 'error while stopping orders');
      }
    }
  };
  try {
    stops.push(() => pool.end());
    stops.push(() => bus.close());
    // The relay waits for the broker itself; orders are taken even while it is away.
    const relay = startOutboxRelay({ pool, databaseUrl: config.DATABASE_URL, schema: ORDERS_SCHEMA, bus, log });
    stops.push(() => relay.stop());

    const ctx: OrdersContext = { pool, provider, log };
    const app = createHttpApp({
      service: 'orders',
      log,
      identitySecret: config.IDENTITY_SECRET,
      readiness: [
        ['postgres', () => pingDatabase(pool)],
        ['rabbitmq', () => bus.ping()],
      ],
      mountBeforeBodyParsing: (a) => {
        a.use(stripeWebhookRoutes(ctx, { identitySecret: config.IDENTITY_SECRET, webhookSecret: config.STRIPE_WEBHOOK_SECRET }));
      },
      mount: (a) => {
        a.use(ordersRoutes(ctx));
        a.use(internalLeadOrderRoutes(ctx));
        a.use(transferOrderRoutes({ ...ctx, users: httpUsersClient({ baseUrl: config.GATEWAY_URL, identitySecret: config.IDENTITY_SECRET }) }));
      },
    });
    const server = await listen(app, config.ORDERS_PORT);
    stops.push(() => closeServer(server));
    const { port } = server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}`;
    log.info({ url, provider: provider.name }, 'orders service started');
    return { url, provider: provider.name, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
