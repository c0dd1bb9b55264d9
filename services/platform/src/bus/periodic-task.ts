import type { Pool, Queryable } from '../db/index';
import { unavailableDependency } from '../faults';
import type { Logger } from '../log';

/**
 * Claims this period of `task` for the caller: the period's number for the first replica to
 * ask in it (periods are `everyMs` long on the database's clock, so replicas' clocks do not
 * matter), undefined for every other ask in the same period (docs/adr/0040).
 */
async function claimPeriod(db: Queryable, task: string, everyMs: number): Promise<number | undefined> {
  const { rows } = await db.query<{ period: string }>(
    `INSERT INTO periodic_runs (task, period) VALUES ($1, floor(extract(epoch FROM clock_timestamp()) * 1000 / $2)::bigint)
     ON CONFLICT (task) DO UPDATE SET period = EXCLUDED.period, claimed_at = now()
       WHERE periodic_runs.period < EXCLUDED.period
     RETURNING period`,
    [task, everyMs],
  );
  return rows[0] === undefined ? undefined : Number(rows[0].period);
}

export interface PeriodicTaskOptions {
  pool: Pool;
  log: Logger;
  /** The schema whose `periodic_runs` holds the claim (and whose tables the task works on). */
  schema: string;
  /** Its name in `periodic_runs` and in the log line. */
  task: string;
  everyMs: number;
  /** The work; what it returns (counts) goes into the log line. */
  run(): Promise<Record<string, number>>;
}

/**
 * Runs `run` at start and then every `everyMs`, once per period across the replicas of a
 * schema: every replica ticks, the first to claim the period runs it, and each run logs one
 * `periodic task ran` line with its task, schema and period (which `make chaos REPLICAS=2`
 * counts). PostgreSQL away for a moment only delays it; stop() waits for a running task.
 */
export function startPeriodicTask(options: PeriodicTaskOptions): { stop(): Promise<void> } {
  const { task, schema } = options;
  const log = options.log.child({ component: task, schema });
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = claimPeriod(options.pool, task, options.everyMs)
      .then(async (period) => {
        if (period === undefined) return log.debug('another replica ran this period');
        const counts = await options.run();
        log.info({ ...counts, task, period }, 'periodic task ran');
      })
      .catch((err: unknown) =>
        unavailableDependency(err) === 'postgres' ? log.warn({ err }, `${task} waits for PostgreSQL`) : log.error({ err }, `${task} failed`),
      );
  };
  tick();
  const timer = setInterval(tick, options.everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
