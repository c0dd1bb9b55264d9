import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@warmline/platform/testing/index';
import { NOTIFICATIONS_SCHEMA } from '../src/service';
import { notificationsTestBed } from './worker-fixture';

/**
 * email_log (one row per e-mail sent, who and what subject) is kept only for its retention
 * (EMAIL_LOG_RETENTION_DAYS), pruned once per period however many workers run (issue 25): the
 * first worker to claim the period in periodic_runs prunes, the others skip it (the claim itself
 * is platform/test/bus-retention.test.ts's).
 */

const bed = notificationsTestBed();
let pool: pg.Pool;

beforeAll(async () => {
  // A worker migrates the schema; this file then works on the tables themselves.
  const worker = await bed.startWorker();
  await worker.stop();
  pool = new pg.Pool({ connectionString: bed.db.url, options: `-c search_path=${NOTIFICATIONS_SCHEMA}`, max: 4 });
});

afterAll(async () => {
  await pool?.end();
});

async function logEmail(daysAgo: number): Promise<string> {
  const id = randomUUID();
  await pool.query(
    `INSERT INTO email_log (command_id, recipient, subject, template, transport, sent_at)
     VALUES ($1, 'agent@example.com', 'Your receipt', 'receipt', 'file', now() - $2::int * interval '1 day')`,
    [id, daysAgo],
  );
  return id;
}

async function stillLogged(ids: string[]): Promise<string[]> {
  const { rows } = await pool.query<{ command_id: string }>('SELECT command_id FROM email_log WHERE command_id = ANY($1::uuid[])', [ids]);
  return rows.map((r) => r.command_id).sort();
}

/** As if the last prune was long ago: the next one is due. */
async function pruneIsDue(): Promise<void> {
  await pool.query("DELETE FROM periodic_runs WHERE task = 'email-log-retention'");
}

describe('email_log retention', () => {
  it('when two workers start at once, then what is past the retention is pruned, the rest is kept, and the period is claimed for both', async () => {
    await pruneIsDue();
    const old = [await logEmail(120), await logEmail(31)];
    const recent = [await logEmail(29), await logEmail(0)];

    const workers = await Promise.all([bed.startWorker({ EMAIL_LOG_RETENTION_DAYS: '30' }), bed.startWorker({ EMAIL_LOG_RETENTION_DAYS: '30' })]);
    await waitFor('the old e-mails to be pruned', async () => (await stillLogged(old)).length === 0);
    expect(await stillLogged(recent)).toEqual([...recent].sort());
    const { rows } = await pool.query<{ current: boolean }>(
      `SELECT period = floor(extract(epoch FROM clock_timestamp()) * 1000 / 3600000)::bigint AS current
         FROM periodic_runs WHERE task = 'email-log-retention'`,
    );
    expect(rows).toEqual([{ current: true }]);
    await Promise.all(workers.map((w) => w.stop()));
  });

  it('when a worker starts with EMAIL_LOG_RETENTION_DAYS, then it prunes the log past that many days', async () => {
    await pruneIsDue();
    const old = await logEmail(8);
    const kept = await logEmail(6);
    const worker = await bed.startWorker({ EMAIL_LOG_RETENTION_DAYS: '7' });
    await waitFor('the old e-mail to be pruned', async () => (await stillLogged([old])).length === 0);
    expect(await stillLogged([kept])).toEqual([kept]);
    await worker.stop();
  });
});
