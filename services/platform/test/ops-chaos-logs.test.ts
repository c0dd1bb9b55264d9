import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { periodicRunsTwice, readProcessLogs } from '../../../infra/chaos/logs';

/**
 * make chaos REPLICAS=2 reads every replica's log after the run (infra/chaos/logs.ts): a
 * once-per-period task that ran twice for one schema and period is a duplicate effect, whichever
 * replicas ran it; skipped redeliveries are counted for the report.
 */
function runFolder(logs: Record<string, unknown[]>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'chaos-logs-'));
  for (const [file, lines] of Object.entries(logs)) {
    writeFileSync(path.join(dir, file), lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n'));
  }
  return dir;
}

const ran = (schema: string, task: string, period: number) => ({ level: 30, msg: 'periodic task ran', schema, task, period, outbox: 0 });

describe('the chaos run reading its processes\' logs', () => {
  it('when each schema\'s task ran once per period across two replicas and their restarts, then nothing is doubled', () => {
    const dir = runFolder({
      'catalog-1.log': [ran('catalog', 'bus-retention', 490_001), 'TypeError: a stack trace line', { msg: 'duplicate delivery ignored' }],
      'catalog-2.log': [ran('catalog', 'bus-retention', 490_002), '{not json'],
      'notifications-1.log': [ran('notifications', 'bus-retention', 490_001), ran('notifications', 'email-log-retention', 490_001)],
      'setup.log': [ran('catalog', 'bus-retention', 490_001)],
    });
    const facts = readProcessLogs(dir);
    expect(facts.periodicRuns).toHaveLength(4);
    expect(facts.duplicatesSkipped).toBe(1);
    expect(periodicRunsTwice(facts.periodicRuns)).toMatchObject({ count: 0, examples: [] });
  });

  it('when two replicas ran the same task for the same schema and period, then it counts once more than once, naming both', () => {
    const dir = runFolder({
      'orders-1.log': [ran('orders', 'bus-retention', 490_001)],
      'orders-2.log': [ran('orders', 'bus-retention', 490_001), ran('catalog', 'bus-retention', 490_001)],
    });
    const twice = periodicRunsTwice(readProcessLogs(dir).periodicRuns);
    expect(twice.count).toBe(1);
    expect(twice.examples).toEqual(['orders/bus-retention/490001 by orders-1 and orders-2']);
  });
});
