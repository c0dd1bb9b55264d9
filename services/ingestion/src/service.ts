import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, type Logger } from '@warmline/platform/log';
import { createHttpApp, serve } from '@warmline/platform/http/app';
import { identityCheck } from '@warmline/platform/http/identity';
import { openDatabaseAndBus } from '@warmline/platform/bus/index';
import { ShutdownStack } from '@warmline/platform/lifecycle';
import type { IngestionConfig } from './config';
import type { IngestionContext } from './domain/context';
import { vendorKeyRoutes } from './http/vendor-key-routes';
import { webhookRoutes } from './http/webhook-routes';
import { mirrorEarlierVendorKeys } from './domain/vendor-keys';
import { keepVendorKeys } from '@warmline/platform/db/vendor-key-cache';
import { VENDOR_KEY_REVOKED_CHANNEL, type ActiveVendorKey } from './db/vendor-keys';

export const INGESTION_SCHEMA = 'ingestion';
/** @public infra/scripts/migrations.ts reads it by name from a dynamic import knip cannot follow. */
export const INGESTION_MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');

/** For tests: a fixed or moving clock. */
export interface IngestionOptions {
  clock?: () => Date;
}

export interface RunningIngestion {
  url: string;
  stop(): Promise<void>;
}

/**
 * The ingestion service (ARCHITECTURE §1, issue 15, docs/adr/0019): voice-AI vendors' calls
 * through POST /api/callbacks/brightcall, and the admins' vendor keys. Migrates its schema,
 * relays its outbox (callback.received, callback_opportunity.create, lead_suppression.add,
 * audit.record) and serves on INGESTION_PORT (0 picks a free port). It consumes nothing.
 */
export async function startIngestion(
  config: IngestionConfig,
  log: Logger = createLogger('ingestion', config.LOG_LEVEL),
  options: IngestionOptions = {},
): Promise<RunningIngestion> {
  const stops = new ShutdownStack(log, 'ingestion');
  try {
    const { pool, bus, readiness } = await openDatabaseAndBus({
      config,
      log,
      stops,
      schema: INGESTION_SCHEMA,
      migrationsDir: INGESTION_MIGRATIONS_DIR,
      connectionName: 'ingestion',
      poolSize: config.INGESTION_DB_POOL_SIZE,
    });
    // A key revoked by any replica is forgotten here as that revocation commits (docs/adr/0051).
    const kept = keepVendorKeys<ActiveVendorKey>({ databaseUrl: config.DATABASE_URL, channel: VENDOR_KEY_REVOKED_CHANNEL, ttlMs: config.VENDOR_KEY_CACHE_SECONDS * 1000, log });
    stops.push('vendor key revocations', kept.stop);
    const ctx: IngestionContext = { pool, log, clock: options.clock ?? (() => new Date()), vendorKeys: kept.cache };
    // Keys made before the transfers service (issue 23) get their copy sent once; the relay delivers it.
    const mirrored = await mirrorEarlierVendorKeys(ctx);
    if (mirrored > 0) log.info({ mirrored }, 'sent the transfers service its copies of earlier vendor keys');

    const app = createHttpApp({
      service: 'ingestion',
      log,
      identity: identityCheck(config, 'ingestion'),
      readiness,
      metrics: bus.metrics.registry,
      // The webhook reads its own body and answers in its own shape (spec §8).
      mountBeforeBodyParsing: (a) => a.use(webhookRoutes(ctx, identityCheck(config, 'ingestion'))),
      mount: (a) => a.use(vendorKeyRoutes(ctx)),
    });
    const url = await serve(app, config.INGESTION_PORT, stops, config.INTERNAL_HOST);
    log.info({ url }, 'ingestion service started');
    return { url, stop: stops.stop };
  } catch (err) {
    await stops.stop();
    throw err;
  }
}
