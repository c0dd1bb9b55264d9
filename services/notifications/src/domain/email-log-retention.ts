import type { Pool } from '@warmline/platform/db/index';
import { unavailableDependency } from '@warmline/platform/faults';
import type { Logger } from '@warmline/platform/log';
import { pruneEmailLog } from '../db/email-log';

/** How often a worker asks whether the log is due for pruning; the prune itself runs once per period across replicas. */
const PRUNE_PERIOD_MS = 3_600_000;

/**
 * Prunes email_log past its retention at start and then once per period (issue 25). PostgreSQL
 * away for a moment only delays it; stop() waits for a running prune.
 */
export function startEmailLogRetention(options: { pool: Pool; retentionDays: number; log: Logger }): { stop(): Promise<void> } {
  const log = options.log.child({ component: 'email-log-retention' });
  let running: Promise<void> = Promise.resolve();
  const prune = () => {
    running = pruneEmailLog(options.pool, { retentionDays: options.retentionDays, periodMs: PRUNE_PERIOD_MS })
      .then((deleted) => {
        if (deleted) log.info({ deleted, retentionDays: options.retentionDays }, 'pruned the e-mail log');
      })
      .catch((err: unknown) =>
        unavailableDependency(err) === 'postgres' ? log.warn({ err }, 'pruning the e-mail log waits for PostgreSQL') : log.error({ err }, 'pruning the e-mail log failed'),
      );
  };
  prune();
  const timer = setInterval(prune, PRUNE_PERIOD_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
