import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, type Logger } from '@warmline/platform/log';
import { createHttpApp, serve } from '@warmline/platform/http/app';
import { identityCheck, serviceSigner } from '@warmline/platform/http/identity';
import { keepVendorKeys } from '@warmline/platform/db/vendor-key-cache';
import { openDatabaseAndBus, startConsumers } from '@warmline/platform/bus/index';
import { ShutdownStack } from '@warmline/platform/lifecycle';
import type { TransfersConfig } from './config';
import type { TransfersContext } from './domain/context';
import { httpGatewayClient, type GatewayClient } from './clients/gateway-client';
import { httpOrdersClient, type OrdersClient } from './clients/orders-client';
import { httpCatalogClient } from './clients/catalog-client';
import { consumers } from './events/consumers';
import { VENDOR_KEY_REVOKED_CHANNEL } from './db/mirrors';
import { vendorRoutes } from './http/vendor-routes';
import { myTransfersRoutes } from './http/my-transfers-routes';
import { adminTransferRoutes } from './http/admin-routes';
import { transferEvidenceRoutes } from './http/evidence-routes';

export const TRANSFERS_SCHEMA = 'transfers';
/** @public infra/scripts/migrations.ts reads it by name from a dynamic import knip cannot follow. */
export const TRANSFERS_MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');

/** For tests: a clock to move, stand-ins for the gateway and orders. */
export interface TransfersOptions {
  clock?: () => Date;
  gateway?: GatewayClient;
  orders?: OrdersClient;
}

export interface RunningTransfers {
  url: string;
  stop(): Promise<void>;
}

/**
 * The transfers service (issue 23, docs/adr/0031): live transfers delivered and billed. The
 * vendor asks it where to send each prospect and reports how the call went; it keeps each
 * agent's ledger of prepaid transfers (credited from paid orders, charged per transfer past the
 * 120-second buffer), their delivery settings and disputes. Migrates its schema, relays its
 * outbox (transfer.routed, transfer.completed, transfer_dispute.decided, e-mail and audit
 * commands), consumes payments and its mirrors, and serves on TRANSFERS_PORT (0 picks a port).
 */
export async function startTransfers(
  config: TransfersConfig,
  log: Logger = createLogger('transfers', config.LOG_LEVEL),
  options: TransfersOptions = {},
): Promise<RunningTransfers> {
  const stops = new ShutdownStack(log, 'transfers');
  try {
    const { pool, bus, readiness } = await openDatabaseAndBus({
      config,
      log,
      stops,
      schema: TRANSFERS_SCHEMA,
      migrationsDir: TRANSFERS_MIGRATIONS_DIR,
      connectionName: 'transfers',
    });
    // Its own key for the calls it makes; the gateway's public key for the calls it answers (docs/adr/0042).
    const signer = serviceSigner('transfers', config.TRANSFERS_SERVICE_KEY);
    const identity = identityCheck(config, 'transfers');
    // A key's revoked copy, written by any replica, is forgotten here as it commits (docs/adr/0051).
    const kept = keepVendorKeys<{ id: string }>({ databaseUrl: config.DATABASE_URL, channel: VENDOR_KEY_REVOKED_CHANNEL, ttlMs: config.VENDOR_KEY_CACHE_SECONDS * 1000, log });
    stops.push('vendor key revocations', kept.stop);
    const ctx: TransfersContext = {
      pool,
      log,
      clock: options.clock ?? (() => new Date()),
      businessTimeZone: config.BUSINESS_TIMEZONE,
      gateway: options.gateway ?? httpGatewayClient({ baseUrl: config.GATEWAY_INTERNAL_URL, signer }),
      orders: options.orders ?? httpOrdersClient({ baseUrl: config.ORDERS_URL, signer }),
      catalog: httpCatalogClient({ baseUrl: config.CATALOG_URL, signer }),
      vendorKeys: kept.cache,
    };

    // No waiting for the broker: the consumers attach once it connects, HTTP serves meanwhile.
    await startConsumers(consumers(ctx), { bus, pool, log }, stops);

    const app = createHttpApp({
      service: 'transfers',
      log,
      identity,
      readiness,
      metrics: bus.metrics.registry,
      // The vendor's calls read their own bodies and answer in the webhook's shape (issue 23).
      mountBeforeBodyParsing: (a) => a.use(vendorRoutes(ctx, identity)),
      mount: (a) => {
        a.use(myTransfersRoutes(ctx));
        a.use(adminTransferRoutes(ctx));
        a.use(transferEvidenceRoutes(ctx));
      },
    });
    const url = await serve(app, config.TRANSFERS_PORT, stops, config.INTERNAL_HOST);
    log.info({ url }, 'transfers service started');
    return { url, stop: stops.stop };
  } catch (err) {
    await stops.stop();
    throw err;
  }
}
