import { createLogger, type Logger } from '@warmline/platform/log';
import { createHttpApp, serve } from '@warmline/platform/http/app';
import { identityCheck } from '@warmline/platform/http/identity';
import { openDatabaseAndBus, startConsumers } from '@warmline/platform/bus/index';
import { createBlobStore, type BlobStore } from '@warmline/platform/blob-store/index';
import { unavailableDependency } from '@warmline/platform/faults';
import { ShutdownStack } from '@warmline/platform/lifecycle';
import { LEAD_IMPORT_FILE_RETENTION_DAYS } from '@warmline/contracts';
import type { Pool } from '@warmline/platform/db/index';
import type { ImporterConfig } from './config';
import { CATALOG_MIGRATIONS_DIR, CATALOG_SCHEMA } from './service';
import { importerConsumers } from './events/consumers';
import { importFilesToDelete, markImportFileDeleted, unfinishedLeadImportIds } from './imports/db/lead-imports';
import { runLeadImport, type ImportRunDeps } from './imports/domain/lead-import-run';
import { DAY_MS } from './market/domain/lead-age';
import { registryRunner } from './suppressions/domain/dnc-registry-run';
import { SerialRunner } from '@warmline/platform/work/serial-runner';

export interface ImporterOptions {
  clock?: () => Date;
  /** Another store than the configured one (tests). */
  blobs?: BlobStore;
}

export interface RunningImporter {
  url: string;
  /** Runs every unfinished import now; resolves when none is left (tests). */
  drain(): Promise<void>;
  /** Deletes files of imports that ended more than 30 days ago; returns how many. */
  deleteExpiredFiles(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The importer worker: the catalog's second entry point (docs/adr/0016). It owns no schema of
 * its own: import jobs, their row errors and the leads are the catalog's. `import.run` wakes it;
 * the jobs table is what it works from, so an import whose command was lost, or whose worker
 * died mid-file, is picked up by the next scan and resumed after its last committed batch.
 * Imports run one at a time per worker. Health and metrics on IMPORTER_PORT.
 */
export async function startImporter(
  config: ImporterConfig,
  log: Logger = createLogger('importer', config.LOG_LEVEL),
  options: ImporterOptions = {},
): Promise<RunningImporter> {
  const stops = new ShutdownStack(log, 'importer');
  try {
    const { pool, bus, readiness } = await openDatabaseAndBus({
      config,
      log,
      stops,
      schema: CATALOG_SCHEMA,
      migrationsDir: CATALOG_MIGRATIONS_DIR,
      connectionName: 'importer',
      poolSize: 4,
    });
    const blobs = options.blobs ?? createBlobStore(config);
    const clock = options.clock ?? (() => new Date());
    let stopping = false;
    const deps: ImportRunDeps = {
      pool,
      blobs,
      log,
      clock,
      timeZone: config.BUSINESS_TIMEZONE,
      batchRows: config.LEAD_IMPORT_BATCH_ROWS,
      stopping: () => stopping,
    };
    const runner = importRunner(deps, pool);
    stops.push('imports', async () => {
      stopping = true;
      await runner.stop();
    });


    const registry = registryRunner({ pool, blobs, log, clock, stopping: () => stopping });
    stops.push('registry loads', async () => {
      stopping = true;
      await registry.stop();
    });
    await startConsumers(importerConsumers({ imports: runner, registry }), { bus, pool, log }, stops);
    registry.wake();

    const recovery = setInterval(() => {
      runner.wake();
      registry.wake();
    }, config.LEAD_IMPORT_RECOVERY_SECONDS * 1000);
    recovery.unref();
    stops.push('recovery scan', async () => clearInterval(recovery));
    runner.wake();

    const deleteExpiredFiles = async (): Promise<number> => {
      const cutoff = new Date(clock().getTime() - LEAD_IMPORT_FILE_RETENTION_DAYS * DAY_MS);
      let deleted = 0;
      for (;;) {
        const due = await importFilesToDelete(pool, cutoff, 100);
        for (const file of due) {
          await blobs.delete(file.file_key);
          await markImportFileDeleted(pool, file.id, clock());
          deleted += 1;
        }
        if (due.length < 100) return deleted;
      }
    };
    const retention = setInterval(() => {
      deleteExpiredFiles()
        .then((n) => (n ? log.info({ deleted: n }, 'expired import files deleted') : undefined))
        .catch((err: unknown) => log.warn({ err }, 'deleting expired import files waits for the next hour'));
    }, 3_600_000);
    retention.unref();
    stops.push('file retention', async () => clearInterval(retention));

    const app = createHttpApp({
      service: 'importer',
      log,
      identity: identityCheck(config, 'importer'),
      readiness: [...readiness, ['blob store', () => blobs.check()]],
      metrics: bus.metrics.registry,
      mount: () => {},
    });
    const url = await serve(app, config.IMPORTER_PORT, stops, config.INTERNAL_HOST);
    log.info({ url }, 'importer worker started');
    return { url, drain: async () => Promise.all([runner.drain(), registry.drain()]).then(() => undefined), deleteExpiredFiles, stop: stops.stop };
  } catch (err) {
    await stops.stop();
    throw err;
  }
}

/** Runs unfinished imports one after another whenever woken; never two at once in this process. */
function importRunner(deps: ImportRunDeps, pool: Pool): SerialRunner {
  return new SerialRunner({
    unfinished: () => unfinishedLeadImportIds(pool),
    run: (id) => runLeadImport(deps, id, id),
    // The import stays as it is; the recovery scan tries again.
    failed: (err) => {
      if (unavailableDependency(err)) deps.log.warn({ err }, 'imports wait for PostgreSQL');
      else deps.log.error({ err }, 'running imports failed; the next scan tries again');
    },
  });
}
