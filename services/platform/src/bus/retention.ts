import { ConfigError } from '../config';
import type { Pool, Queryable } from '../db/index';
import { unavailableDependency } from '../faults';
import type { Logger } from '../log';
import { DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_DELIVERIES, DEFAULT_RETRY_DELAYS_MS } from './consumer';

export interface RetentionSettings {
  /** Sent outbox rows are deleted this many hours after the broker confirmed them. */
  OUTBOX_SENT_RETENTION_HOURS: number;
  /** processed_events rows (and unfinished-delivery counts) are deleted after this many days. */
  PROCESSED_EVENTS_RETENTION_DAYS: number;
}

/**
 * The shortest processed_events retention that is still safe: a message can come back to a
 * consumer for as long as it is being retried or redelivered, and a consumer that no longer
 * remembers having processed it would do it again.
 */
function minimumProcessedRetentionSeconds(): number {
  const longestBackoffSeconds = Math.max(...DEFAULT_RETRY_DELAYS_MS) / 1000;
  return Math.max(DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_DELIVERIES) * longestBackoffSeconds;
}

/** Refuses (ConfigError, so the service stops with one line) a retention that is not safe. */
export function assertRetention(settings: RetentionSettings): void {
  const minimum = minimumProcessedRetentionSeconds();
  if (settings.PROCESSED_EVENTS_RETENTION_DAYS * 86_400 < minimum) {
    throw new ConfigError(
      `Invalid configuration: PROCESSED_EVENTS_RETENTION_DAYS must cover the delivery limit × the longest retry backoff (at least ${minimum} s = ${(minimum / 86_400).toFixed(4)} days), got ${settings.PROCESSED_EVENTS_RETENTION_DAYS}`,
    );
  }
}

const BATCH = 5_000;

/**
 * Deletes what the bus no longer needs from one schema: sent outbox rows past their retention,
 * processed_events and delivery_attempts past theirs. In batches, so a large backlog never
 * holds a long lock. Returns how many rows of each went.
 */
export async function pruneBusTables(pool: Pool, settings: RetentionSettings): Promise<{ outbox: number; processed: number; deliveryAttempts: number }> {
  const sentBefore = `${settings.OUTBOX_SENT_RETENTION_HOURS} hours`;
  const processedBefore = `${settings.PROCESSED_EVENTS_RETENTION_DAYS * 86_400} seconds`;
  const outbox = await deleteInBatches(
    pool,
    `DELETE FROM outbox WHERE id IN (
       SELECT id FROM outbox WHERE published_at < now() - $1::interval LIMIT ${BATCH})`,
    sentBefore,
  );
  const processed = await deleteInBatches(
    pool,
    `DELETE FROM processed_events WHERE (consumer, event_id) IN (
       SELECT consumer, event_id FROM processed_events WHERE processed_at < now() - $1::interval LIMIT ${BATCH})`,
    processedBefore,
  );
  const deliveryAttempts = await deleteInBatches(
    pool,
    `DELETE FROM delivery_attempts WHERE (consumer, event_id) IN (
       SELECT consumer, event_id FROM delivery_attempts WHERE last_started_at < now() - $1::interval LIMIT ${BATCH})`,
    processedBefore,
  );
  return { outbox, processed, deliveryAttempts };
}

async function deleteInBatches(pool: Pool, sql: string, interval: string): Promise<number> {
  let total = 0;
  for (;;) {
    const { rowCount } = await pool.query(sql, [interval]);
    total += rowCount ?? 0;
    if ((rowCount ?? 0) < BATCH) return total;
  }
}

/**
 * Claims this period of `task` for the caller: the period's number for the first replica to
 * ask in it (periods are `everyMs` long on the database's clock, so replicas' clocks do not
 * matter), undefined for every other ask in the same period (docs/adr/0040).
 */
async function claimPeriod(db: Queryable, task: string, everyMs: number): Promise<number | undefined> {
  const { rows } = await db.query<{ period: number }>(
    `INSERT INTO periodic_runs (task, period) VALUES ($1, floor(extract(epoch FROM clock_timestamp()) * 1000 / $2)::bigint)
     ON CONFLICT (task) DO UPDATE SET period = EXCLUDED.period, claimed_at = now()
       WHERE periodic_runs.period < EXCLUDED.period
     RETURNING period`,
    [task, everyMs],
  );
  return rows[0]?.period;
}

/**
 * Prunes at start and then every `everyMs` (hourly by default), once per period across the
 * replicas of a schema; stop() waits for a running prune.
 */
export function startRetention(options: { pool: Pool; settings: RetentionSettings; log: Logger; schema: string; everyMs?: number }): {
  stop(): Promise<void>;
} {
  const log = options.log.child({ component: 'bus-retention', schema: options.schema });
  const everyMs = options.everyMs ?? 3_600_000;
  let running: Promise<void> = Promise.resolve();
  const prune = () => {
    running = claimPeriod(options.pool, 'bus-retention', everyMs)
      .then(async (period) => {
        if (period === undefined) return log.debug('another replica prunes this period');
        const n = await pruneBusTables(options.pool, options.settings);
        log.info({ ...n, period }, 'pruned bus tables');
      })
      .catch((err: unknown) =>
        unavailableDependency(err) === 'postgres' ? log.warn({ err }, 'pruning waits for PostgreSQL') : log.error({ err }, 'pruning failed'),
      );
  };
  prune();
  const timer = setInterval(prune, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
