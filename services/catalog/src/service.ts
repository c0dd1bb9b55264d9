import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, type Logger } from '@warmline/platform/log';
import { createHttpApp, serve } from '@warmline/platform/http/app';
import { identityCheck, serviceSigner } from '@warmline/platform/http/identity';
import { openDatabaseAndBus, startConsumers } from '@warmline/platform/bus/index';
import { unavailableDependency } from '@warmline/platform/faults';
import { ShutdownStack } from '@warmline/platform/lifecycle';
import { createBlobStore, type BlobStore } from '@warmline/platform/blob-store/index';
import type { CatalogConfig } from './config';
import { httpOrdersClient, type OrdersClient } from './clients/orders-client';
import type { LeadImportContext } from './domain/context';
import { expireUnpaidReservations } from './market/domain/lead-sales';
import { catalogRoutes } from './market/http/market-routes';
import { importRoutes } from './imports/http/import-routes';
import { suppressionRoutes } from './suppressions/http/suppression-routes';
import { consumers } from './events/consumers';
import { mirrorEarlierSuppressions } from './suppressions/domain/suppressions';
import { httpGatewayClient, type GatewayClient } from './clients/gateway-client';
import { callbackRoutes } from './callbacks/http/callback-routes';
import { evidenceRoutes } from './suppressions/http/evidence-routes';
import { leadReturnRoutes } from './market/http/lead-return-routes';
import { dncRegistryRoutes } from './suppressions/http/dnc-registry-routes';
import { sweepCallbackOpportunities, type CallbackContext } from './callbacks/domain/callbacks';

export const CATALOG_SCHEMA = 'catalog';
/** @public infra/scripts/migrations.ts reads it by name from a dynamic import knip cannot follow. */
export const CATALOG_MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');

/** For tests: a clock to move forward, an orders stand-in, a sweeper that only runs when asked. */
export interface CatalogOptions {
  clock?: () => Date;
  orders?: OrdersClient;
  /** false: no periodic sweeper (call sweepExpiredReservations yourself). */
  sweeper?: boolean;
  /** Another store than the configured one. */
  blobs?: BlobStore;
  /** Another gateway than the configured one (a test's stand-in for a gateway that is down). */
  gateway?: GatewayClient;
}

export interface RunningCatalog {
  url: string;
  /** Releases unpaid reservations whose 15 minutes are up; returns how many. */
  sweepExpiredReservations(): Promise<number>;
  /** Expires callback opportunities past their 72 hours and assigns what is left to assign. */
  sweepCallbackOpportunities(): Promise<{ expired: number; assigned: number }>;
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
  const stops = new ShutdownStack(log, 'catalog');
  try {
    const { pool, bus, readiness } = await openDatabaseAndBus({
      config,
      log,
      stops,
      schema: CATALOG_SCHEMA,
      migrationsDir: CATALOG_MIGRATIONS_DIR,
      connectionName: 'catalog',
      // The purchase race holds a connection per buyer for a moment; 20 keeps them from queueing long.
      poolSize: 20,
    });
    const clock = options.clock ?? (() => new Date());
    // Its own key for its calls to orders and the gateway (docs/adr/0042).
    const signer = serviceSigner('catalog', config.CATALOG_SERVICE_KEY);
    const ctx: LeadImportContext = {
      pool,
      log,
      clock,
      orders: options.orders ?? httpOrdersClient({ baseUrl: config.ORDERS_URL, signer }),
      blobs: options.blobs ?? createBlobStore(config),
      timeZone: config.BUSINESS_TIMEZONE,
      maxImportBytes: config.LEAD_IMPORT_MAX_BYTES,
    };

    // Phones suppressed before the transfers service (issue 23) get their copy sent once; the relay delivers it.
    const mirrored = await mirrorEarlierSuppressions(ctx);
    if (mirrored > 0) log.info({ mirrored }, 'sent the transfers service its copy of the earlier suppression list');

    const gateway = options.gateway ?? httpGatewayClient({ baseUrl: config.GATEWAY_INTERNAL_URL, signer });
    const callbacks: CallbackContext = { ...ctx, gateway };
    // No waiting for the broker: the consumer attaches once it connects, HTTP serves meanwhile.
    await startConsumers(consumers({ clock, gateway, orders: ctx.orders }), { bus, pool, log }, stops);

    const sweep = () => expireUnpaidReservations(ctx);
    const sweepCallbacks = () => sweepCallbackOpportunities(callbacks);
    if (options.sweeper !== false) {
      let sweeping: Promise<unknown> = Promise.resolve();
      const callbackTimer = setInterval(() => {
        sweeping = sweepCallbacks().catch((err: unknown) =>
          unavailableDependency(err)
            ? log.warn({ err }, 'expiring callback opportunities waits for PostgreSQL')
            : log.error({ err }, 'expiring callback opportunities failed'),
        );
      }, config.CALLBACK_SWEEP_SECONDS * 1000);
      callbackTimer.unref();
      stops.push('callback sweeper', async () => {
        clearInterval(callbackTimer);
        await sweeping;
      });

      let running: Promise<unknown> = Promise.resolve();
      const timer = setInterval(() => {
        running = sweep()
          // The debug line marks every sweep's end (the two-replica test waits on it).
          .then((n) => (n ? log.info({ released: n }, 'unpaid reservations released') : log.debug('reservation sweep released nothing')))
          .catch((err: unknown) =>
            unavailableDependency(err)
              ? log.warn({ err }, 'releasing unpaid reservations waits for PostgreSQL')
              : log.error({ err }, 'releasing unpaid reservations failed'),
          );
      }, config.RESERVATION_SWEEP_SECONDS * 1000);
      timer.unref();
      stops.push('reservation sweeper', async () => {
        clearInterval(timer);
        await running;
      });
    }

    const app = createHttpApp({
      service: 'catalog',
      log,
      identity: identityCheck(config, 'catalog'),
      readiness,
      metrics: bus.metrics.registry,
      mount: (a) => {
        a.use(catalogRoutes(ctx));
        a.use(importRoutes(ctx));
        a.use(suppressionRoutes(ctx));
        a.use(callbackRoutes(callbacks));
        a.use(evidenceRoutes(callbacks));
        a.use(leadReturnRoutes(ctx));
        a.use(dncRegistryRoutes(ctx));
      },
    });
    const url = await serve(app, config.CATALOG_PORT, stops, config.INTERNAL_HOST);
    log.info({ url }, 'catalog service started');
    return { url, sweepExpiredReservations: sweep, sweepCallbackOpportunities: sweepCallbacks, stop: stops.stop };
  } catch (err) {
    await stops.stop();
    throw err;
  }
}
