import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Finding } from './checks';

/** A run of a once-per-period task, as its process logged it (platform bus/periodic-task.ts). */
interface PeriodicRun {
  process: string;
  schema: string;
  task: string;
  period: number;
}

/** What the processes' own logs say after the run. */
export interface LogFacts {
  periodicRuns: PeriodicRun[];
  /** Deliveries a consumer recognised as already handled (processed_events) and skipped. */
  duplicatesSkipped: number;
}

/**
 * Reads every process's log of the run (`<name>.log` or `<name>-<replica>.log` in the run's
 * folder; a killed replica's log goes on in the same file). Lines that are not JSON (a stack
 * trace on stderr) are skipped.
 */
export function readProcessLogs(dir: string): LogFacts {
  const facts: LogFacts = { periodicRuns: [], duplicatesSkipped: 0 };
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.log') && f !== 'setup.log')) {
    const process = file.slice(0, -'.log'.length);
    for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      if (!line.startsWith('{')) continue;
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      if (entry.msg === 'periodic task ran') {
        facts.periodicRuns.push({ process, schema: String(entry.schema), task: String(entry.task), period: Number(entry.period) });
      } else if (entry.msg === 'duplicate delivery ignored') {
        facts.duplicatesSkipped += 1;
      }
    }
  }
  return facts;
}

/** Periods in which a task ran more than once in one schema, whichever replicas ran it. */
export function periodicRunsTwice(runs: PeriodicRun[]): Finding {
  const byPeriod = new Map<string, PeriodicRun[]>();
  for (const run of runs) {
    const key = `${run.schema}/${run.task}/${run.period}`;
    byPeriod.set(key, [...(byPeriod.get(key) ?? []), run]);
  }
  const twice = [...byPeriod].filter(([, of]) => of.length > 1);
  return {
    what: 'periodic tasks run twice in one period (schema, task, period in the processes\' logs)',
    count: twice.reduce((n, [, of]) => n + of.length - 1, 0),
    examples: twice.slice(0, 5).map(([key, of]) => `${key} by ${of.map((r) => r.process).join(' and ')}`),
  };
}
