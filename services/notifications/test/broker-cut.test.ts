import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandData, Envelope } from '@warmline/contracts';
import { emlFiles } from '@warmline/platform/testing/mail';
import { TEST_AMQP_URL, waitFor } from '@warmline/platform/testing/index';
import { proxyFor, readyz, type ProxiedDependency } from '@warmline/platform/testing/outage';
import { notificationsTestBed } from './worker-fixture';

/**
 * Issue 10: RabbitMQ cut while 500 e-mail requests are on their way through the worker (typed
 * command → rendered email.send in the worker's outbox → relay → send). After it returns, every
 * e-mail goes out, and none twice.
 */

const bed = notificationsTestBed();
let broker: ProxiedDependency;

beforeAll(async () => {
  broker = await proxyFor(TEST_AMQP_URL);
});

afterAll(async () => {
  await broker?.proxy.close();
});

function welcome(to: string): Envelope<CommandData<'email.welcome'>> {
  return {
    id: randomUUID(),
    type: 'email.welcome',
    version: 1,
    occurredAt: new Date().toISOString(),
    source: 'gateway',
    correlationId: randomUUID(),
    data: { to, firstName: 'Sam', username: 'sam_r', loginUrl: 'http://localhost:3000/login' },
  };
}

/** E-mails of this batch in email_log, and how many distinct recipients they went to. */
async function sentCount(batch: string): Promise<{ rows: number; recipients: number }> {
  const c = new pg.Client({ connectionString: bed.db.url });
  await c.connect();
  try {
    const { rows } = await c.query<{ rows: number; recipients: number }>(
      `SELECT count(*)::int AS rows, count(DISTINCT recipient)::int AS recipients
         FROM notifications.email_log WHERE recipient LIKE $1 AND sent_at IS NOT NULL`,
      [`%-${batch}@example.com`],
    );
    return rows[0]!;
  } finally {
    await c.end();
  }
}

describe('the notifications worker through a broker cut', () => {
  it('when RabbitMQ is cut while 500 e-mail requests are in flight, then all 500 e-mails go out after it returns, none twice', async () => {
    const worker = await bed.startWorker({ AMQP_URL: broker.url });
    await waitFor('the worker to reach RabbitMQ', async () => (await readyz(worker.url)).body.degraded?.length === 0);
    const batch = randomUUID().slice(0, 8);
    const requests = Array.from({ length: 500 }, (_, i) => welcome(`agent${i}-${batch}@example.com`));

    for (const [i, request] of requests.entries()) {
      await worker.send(request);
      if (i === 150) {
        await waitFor('some e-mails to go out before the cut', async () => (await sentCount(batch)).rows > 0, { timeoutMs: 30_000 });
        broker.proxy.cut();
      }
    }
    await waitFor('the worker to see the broker gone', async () => (await readyz(worker.url)).body.degraded?.includes('rabbitmq'));
    expect((await sentCount(batch)).rows).toBeLessThan(500);
    await broker.proxy.restore();

    await waitFor('all 500 e-mails to be sent', async () => (await sentCount(batch)).rows === 500, { timeoutMs: 120_000, intervalMs: 250 });
    expect(await sentCount(batch)).toEqual({ rows: 500, recipients: 500 });
    expect((await emlFiles(worker.mailDir)).length).toBe(500);
  }, 180_000);
});
