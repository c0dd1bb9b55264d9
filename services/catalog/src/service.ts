import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { createLogger, type Logger } from '@warmline/platform/log';
import { createPool, pingDatabase, runMigrations } from '@warmline/platform/db/index';
import { closeServer, createHttpApp, listen } from '@warmline/platform/http/app';
import { createBus, startConsumer, startOutboxRelay } from '@warmline/platform/bus/index';
import type { CatalogConfig } from './config';
import { httpOrdersClient, type OrdersClient } from './clients/orders-client';
import type { CatalogContext } from './domain/context';
import { expireUnpaidReservations } from './domain/lead-sales';
import { catalogRoutes } from './http/routes';
import { LEAD_PAYMENTS_QUEUE, subscriptions } from './events/subscriptions';

export const CATALOG_SCHEMA = 'catalog';
export const CATALOG_MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');

/** For tests: a clock to move forward, an orders stand-in, a sweeper that only runs when asked. */
export interface CatalogOptions {
  clock?: () => Date;
  orders?: OrdersClient;
  /** false: no periodic sweeper (call sweepExpiredReservations yourself). */
  sweeper?: boolean;
}

export interface RunningCatalog {
  url: string;
  /** Releases unpaid reservations whose 15 minutes are up; returns how many. */
  sweepExpiredReservations(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The catalog service: the aged-lead inventory, the market, reservations and sales (ARCHITECTURE
 * §1). Migrates its schema, relays its outbox, consumes payment outcomes of lead orders,
 * releases unpaid reservations periodically, and serves its API on CATALOG_PORT (0 picks a free
 * port).
 */
export async function startCatalog(
  config: CatalogConfig,
  log: Logger = createLogger('catalog', config.LOG_LEVEL),
  options: CatalogOptions = {},
): Promise<RunningCatalog> {
  await runMigrations({ databaseUrl: config.DATABASE_URL, schema: CATALOG_SCHEMA, dir: CATALOG_MIGRATIONS_DIR, log });
  // The purchase race holds a connection per buyer for a moment; 20 keeps them from queueing long.
  const pool = createPool(config.DATABASE_URL, CATALOG_SCHEMA, 20);
  const bus = createBus({
    url: config.AMQP_URL,
    log,
    connectionName: 'catalog',
    ...(config.BUS_NAMESPACE ? { namespace: config.BUS_NAMESPACE } : {}),
  });
  const clock = options.clock ?? (() => new Date());
  const ctx: CatalogContext = {
    pool,
    log,
    clock,
    orders: options.orders ?? httpOrdersClient({ baseUrl: config.ORDERS_URL, identitySecret: config.IDENTITY_SECRET }),
  };

  const stops: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    // Reverse order: HTTP first so no new work arrives, then the sweeper, consumer and relay, then connections.
    for (const close of [...stops].reverse()) {
      try {
        await close();
      } catch (err) {
        log.warn({ err }, 'error while stopping catalog');
      }
    }
    stops.length = 0;
  };
  try {
    stops.push(() => pool.end());
    stops.push(() => bus.close());
    const relay = startOutboxRelay({ pool, databaseUrl: config.DATABASE_URL, schema: CATALOG_SCHEMA, bus, log });
    stops.push(() => relay.stop());
    await bus.ready();
    const consumer = await startConsumer({ bus, pool, queue: LEAD_PAYMENTS_QUEUE, subscriptions: subscriptions({ clock }), log });
    stops.push(() => consumer.stop());

    const sweep = () => expireUnpaidReservations(ctx);
    if (options.sweeper !== false) {
      let running: Promise<unknown> = Promise.resolve();
      const timer = setInterval(() => {
        running = sweep()
          .then((n) => (n ? log.info({ released: n }, 'unpaid reservations released') : undefined))
          .catch((err: unknown) => log.error({ err }, 'releasing unpaid reservations failed'));
      }, config.RESERVATION_SWEEP_SECONDS * 1000);
      timer.unref();
      stops.push(async () => {
        clearInterval(timer);
        await running;
      });
    }

    const app = createHttpApp({
      service: 'catalog',
      log,
      identitySecret: config.IDENTITY_SECRET,
      readiness: [
        ['postgres', () => pingDatabase(pool)],
        ['rabbitmq', () => bus.ping()],
      ],
      mount: (a) => {
        a.use(catalogRoutes(ctx));
      },
    });
    const server = await listen(app, config.CATALOG_PORT);
    stops.push(() => closeServer(server));
    const { port } = server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}`;
    log.info({ url }, 'catalog service started');
    return { url, sweepExpiredReservations: sweep, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
