import { ConfigError } from '../config';
import type { Pool } from '../db/index';
import type { Logger } from '../log';
import { startPeriodicTask } from './periodic-task';
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
 * Prunes at start and then every `everyMs` (hourly by default), once per period across the
 * replicas of a schema; stop() waits for a running prune.
 */
export function startRetention(options: { pool: Pool; settings: RetentionSettings; log: Logger; schema: string; everyMs?: number }): {
  stop(): Promise<void>;
} {
  return startPeriodicTask({
    pool: options.pool,
    log: options.log,
    schema: options.schema,
    task: 'bus-retention',
    everyMs: options.everyMs ?? 3_600_000,
    run: () => pruneBusTables(options.pool, options.settings),
  });
}
