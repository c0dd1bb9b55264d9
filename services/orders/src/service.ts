import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, type Logger } from '@warmline/platform/log';
import { createHttpApp, serve } from '@warmline/platform/http/app';
import { identityCheck, serviceSigner } from '@warmline/platform/http/identity';
import { openDatabaseAndBus, startConsumers } from '@warmline/platform/bus/index';
import { ShutdownStack } from '@warmline/platform/lifecycle';
import type { OrdersConfig } from './config';
import type { OrdersContext } from './domain/context';
import { createPaymentProvider, type PaymentProvider } from './domain/payment-provider';
import { ordersRoutes } from './http/routes';
import { stripeWebhookRoutes } from './http/stripe-webhook';
import { internalLeadOrderRoutes } from './http/internal-lead-orders';
import { internalAdminRoutes } from './http/internal-admin-routes';
import { internalSearchRoutes } from './http/internal-search-routes';
import { adminOrderRoutes } from './http/admin-order-routes';
import { myOrdersRoutes } from './http/my-orders-routes';
import { cancelStaleTransferOrders } from './domain/transfer-status';
import { unavailableDependency } from '@warmline/platform/faults';
import { transferOrderRoutes } from './http/transfer-order-routes';
import { httpUsersClient } from './clients/users-client';
import { fillMissingBuyerDetails } from './domain/order-buyers';
import { consumers } from './events/consumers';

/** How often unpaid transfer orders are looked at (they are cancelled 24 hours after they were placed). */
const TRANSFER_SWEEP_MS = 5 * 60 * 1000;

export const ORDERS_SCHEMA = 'orders';
/** @public infra/scripts/migrations.ts reads it by name from a dynamic import knip cannot follow. */
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

  const stops = new ShutdownStack(log, 'orders');
  try {
    // No waiting for the broker: the relay sends the outbox once it is there, orders are taken meanwhile.
    const { pool, bus, readiness } = await openDatabaseAndBus({
      config,
      log,
      stops,
      schema: ORDERS_SCHEMA,
      migrationsDir: ORDERS_MIGRATIONS_DIR,
      connectionName: 'orders',
    });

    const ctx: OrdersContext = { pool, provider, log };
    const users = httpUsersClient({ baseUrl: config.GATEWAY_URL, signer: serviceSigner('orders', config.ORDERS_SERVICE_KEY) });
    const identity = identityCheck(config, 'orders');

    // Lead orders the catalog settled: refunds of leads sold elsewhere, receipts (issue 12).
    // No waiting for the broker: the consumer attaches once it connects.
    await startConsumers(consumers(ctx, { users }), { bus, pool, log }, stops);

    // Unpaid transfer orders are cancelled after 24 hours (issue 12); checked every few minutes.
    let sweeping: Promise<unknown> = Promise.resolve();
    const sweeper = setInterval(() => {
      sweeping = cancelStaleTransferOrders(ctx).catch((err: unknown) =>
        unavailableDependency(err)
          ? log.warn({ err }, 'cancelling stale transfer orders waits for PostgreSQL')
          : log.error({ err }, 'cancelling stale transfer orders failed'),
      );
    }, TRANSFER_SWEEP_MS);
    sweeper.unref();
    stops.push('transfer order sweeper', async () => {
      clearInterval(sweeper);
      await sweeping;
    });

    // Orders bought from an account without its details (older aged-lead orders, or the gateway
    // away at purchase) get their buyer's name and e-mail: at start, then every few minutes.
    const goneBuyers = new Set<string>();
    const fillBuyers = () =>
      fillMissingBuyerDetails(pool, users, { log, gone: goneBuyers }).catch((err: unknown) =>
        log.warn({ err }, 'filling in the buyers of orders waits for the gateway or PostgreSQL'),
      );
    let fillingBuyers: Promise<unknown> = fillBuyers();
    const buyerFiller = setInterval(() => {
      fillingBuyers = fillBuyers();
    }, TRANSFER_SWEEP_MS);
    buyerFiller.unref();
    stops.push('buyer details filler', async () => {
      clearInterval(buyerFiller);
      await fillingBuyers;
    });
    const app = createHttpApp({
      service: 'orders',
      log,
      identity,
      readiness,
      metrics: bus.metrics.registry,
      mountBeforeBodyParsing: (a) => {
        a.use(stripeWebhookRoutes(ctx, { identity, webhookSecret: config.STRIPE_WEBHOOK_SECRET }));
      },
      mount: (a) => {
        a.use(ordersRoutes({ ...ctx, gatewayKey: identity.gatewayKey, claimSecret: config.ORDERS_SERVICE_KEY }));
        a.use(myOrdersRoutes(ctx));
        a.use(internalLeadOrderRoutes({ ...ctx, users }));
        a.use(internalAdminRoutes({ ...ctx, timeZone: config.BUSINESS_TIMEZONE, identity }));
        a.use(internalSearchRoutes({ ...ctx, identity }));
        a.use(adminOrderRoutes({ ...ctx, timeZone: config.BUSINESS_TIMEZONE }));
        a.use(transferOrderRoutes({ ...ctx, users }));
      },
    });
    const url = await serve(app, config.ORDERS_PORT, stops, config.INTERNAL_HOST);
    log.info({ url, provider: provider.name }, 'orders service started');
    return { url, provider: provider.name, stop: stops.stop };
  } catch (err) {
    await stops.stop();
    throw err;
  }
}
