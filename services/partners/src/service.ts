import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, type Logger } from '@warmline/platform/log';
import { createHttpApp, serve } from '@warmline/platform/http/app';
import { identityCheck } from '@warmline/platform/http/identity';
import { openDatabaseAndBus } from '@warmline/platform/bus/index';
import { ShutdownStack } from '@warmline/platform/lifecycle';
import { createBlobStore, type BlobStore } from '@warmline/platform/blob-store/index';
import type { PartnersConfig } from './config';
import type { PartnersContext } from './domain/context';
import { partnersRoutes } from './http/routes';
import { internalSearchRoutes } from './http/internal-search-routes';

export const PARTNERS_SCHEMA = 'partners';
/** @public infra/scripts/migrations.ts reads it by name from a dynamic import knip cannot follow. */
export const PARTNERS_MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');

/** For tests: a fixed or moving clock, another store than the configured one. */
export interface PartnersOptions {
  clock?: () => Date;
  blobs?: BlobStore;
}

export interface RunningPartners {
  url: string;
  stop(): Promise<void>;
}

/**
 * The partners service: partner applications and their documents (ARCHITECTURE §1, issue 14,
 * docs/adr/0018). Migrates its schema, relays its outbox (partner.applied,
 * partner.status_changed, the e-mail and audit commands) and serves its API on PARTNERS_PORT
 * (0 picks a free port). It consumes nothing.
 */
export async function startPartners(
  config: PartnersConfig,
  log: Logger = createLogger('partners', config.LOG_LEVEL),
  options: PartnersOptions = {},
): Promise<RunningPartners> {
  const stops = new ShutdownStack(log, 'partners');
  try {
    const { pool, bus, readiness } = await openDatabaseAndBus({
      config,
      log,
      stops,
      schema: PARTNERS_SCHEMA,
      migrationsDir: PARTNERS_MIGRATIONS_DIR,
      connectionName: 'partners',
    });
    const blobs = options.blobs ?? createBlobStore(config);
    const ctx: PartnersContext = { pool, log, clock: options.clock ?? (() => new Date()), blobs };

    const app = createHttpApp({
      service: 'partners',
      log,
      identity: identityCheck(config, 'partners'),
      // Without the store no application can be taken and no document served.
      readiness: [...readiness, ['blob store', () => blobs.check()]],
      metrics: bus.metrics.registry,
      mount: (a) => {
        a.use(partnersRoutes(ctx));
        a.use(internalSearchRoutes({ ...ctx, identity: identityCheck(config, 'partners') }));
      },
    });
    const url = await serve(app, config.PARTNERS_PORT, stops, config.INTERNAL_HOST);
    log.info({ url }, 'partners service started');
    return { url, stop: stops.stop };
  } catch (err) {
    await stops.stop();
    throw err;
  }
}
