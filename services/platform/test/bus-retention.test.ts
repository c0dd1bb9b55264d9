import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config';
import { assertRetention, createBus, enqueue, listDeadLetters, pruneBusTables, startConsumer, startOutboxRelay, subscribe, type Bus } from '../src/bus/index';
import { withTransaction } from '../src/db/index';
import { claimStatement } from '../src/bus/relay';
import { startRetention } from '../src/bus/retention';
import { TEST_AMQP_URL, waitFor } from '../src/testing/index';
import { startBusFixture, type BusFixture } from './bus-fixture';

let f: BusFixture;
let bus: Bus;
const closers: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  f = await startBusFixture();
  bus = createBus({ developmentBroker: true, url: TEST_AMQP_URL, log: f.log, connectionName: 'bus-retention-test', namespace: f.namespace, allowQueuesOutsideTopology: true });
  await bus.ready();
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await bus?.close();
  await f?.cleanup();
});

const RESET_LINK = 'https://warmline.example/reset-password?token=very-secret-token-0123456789';

function resetEmail(secret: boolean) {
  return {
    to: 'agent@example.com',
    subject: 'Reset your WarmLine password',
    text: `Choose a new password: ${RESET_LINK}`,
    template: 'password-reset',
    ...(secret ? { secret: true } : {}),
  };
}

async function outboxRow(id: string) {
  const { rows } = await f.pool.query<{ envelope: { data: Record<string, unknown> }; published_at: Date | null }>(
    'SELECT envelope, published_at FROM outbox WHERE id = $1',
    [id],
  );
  return rows[0];
}

describe('retention', () => {
  it('when the bus tables are pruned, then sent rows past their retention go and everything still needed stays', async () => {
    const ids = { oldSent: randomUUID(), newSent: randomUUID(), oldUnsent: randomUUID() };
    for (const [id, created, published] of [
      [ids.oldSent, '30 hours', '25 hours'],
      [ids.newSent, '2 hours', '1 hour'],
      [ids.oldUnsent, '30 hours', null],
    ] as const) {
      await f.pool.query(
        `INSERT INTO outbox (id, exchange, routing_key, envelope, created_at, published_at)
         VALUES ($1, 'warmline.events', 'user.deleted', '{}', now() - $2::interval, now() - $3::interval)`,
        [id, created, published],
      );
    }
    const events = { old: randomUUID(), recent: randomUUID() };
    await f.pool.query(
      `INSERT INTO processed_events (consumer, event_id, processed_at) VALUES
         ('retention', $1, now() - interval '8 days'), ('retention', $2, now() - interval '1 day')`,
      [events.old, events.recent],
    );
    await f.pool.query(
      `INSERT INTO delivery_attempts (consumer, event_id, last_started_at) VALUES ('retention', $1, now() - interval '8 days')`,
      [events.old],
    );

    const pruned = await pruneBusTables(f.pool, { OUTBOX_SENT_RETENTION_HOURS: 24, PROCESSED_EVENTS_RETENTION_DAYS: 7 });

    expect(pruned).toMatchObject({ outbox: 1, processed: 1, deliveryAttempts: 1 });
    expect(await outboxRow(ids.oldSent)).toBeUndefined();
    expect(await outboxRow(ids.newSent)).toBeDefined();
    expect(await outboxRow(ids.oldUnsent)).toBeDefined();
    const { rows } = await f.pool.query('SELECT event_id FROM processed_events WHERE consumer = $1', ['retention']);
    expect(rows.map((r) => r.event_id)).toEqual([events.recent]);
  });

  it('when processed_events would be kept shorter than the delivery limit × the longest backoff, then the configuration is refused', () => {
    expect(() => assertRetention({ OUTBOX_SENT_RETENTION_HOURS: 24, PROCESSED_EVENTS_RETENTION_DAYS: 0.001 })).toThrow(ConfigError);
    expect(() => assertRetention({ OUTBOX_SENT_RETENTION_HOURS: 24, PROCESSED_EVENTS_RETENTION_DAYS: 0.001 })).toThrow(
      /PROCESSED_EVENTS_RETENTION_DAYS must cover the delivery limit × the longest retry backoff \(at least 600 s/,
    );
    expect(() => assertRetention({ OUTBOX_SENT_RETENTION_HOURS: 24, PROCESSED_EVENTS_RETENTION_DAYS: 7 })).not.toThrow();
  });
});

describe('secrets on the bus', () => {
  it('when the broker confirms a command that holds a secret, then its outbox row no longer holds it; other rows keep their data', async () => {
    const relay = startOutboxRelay({ pool: f.pool, databaseUrl: f.db.url, schema: f.schema, bus, log: f.log });
    closers.push(() => relay.stop());
    const [secret, plain] = await withTransaction(f.pool, async (tx) => [
      await enqueue(tx, { type: 'email.send', data: resetEmail(true), correlationId: randomUUID(), source: 'bus-test' }),
      await enqueue(tx, { type: 'email.send', data: resetEmail(false), correlationId: randomUUID(), source: 'bus-test' }),
    ]);

    await waitFor('both rows to be confirmed', async () => (await outboxRow(secret.id))?.published_at && (await outboxRow(plain.id))?.published_at);

    expect(JSON.stringify((await outboxRow(secret.id))!.envelope)).not.toContain('very-secret-token');
    expect((await outboxRow(secret.id))!.envelope.data).toEqual({ redacted: expect.stringContaining('secret') });
    expect((await outboxRow(plain.id))!.envelope.data).toMatchObject({ text: expect.stringContaining(RESET_LINK) });
  });

  it('when a command that holds a secret is dead-lettered, then the DLQ keeps it without its data and `dlq list` shows no e-mail body', async () => {
    const queue = 'retention-failing-mailer';
    f.consumerQueues.add(queue);
    const consumer = await startConsumer({
      bus,
      pool: f.pool,
      queue,
      log: f.log,
      maxAttempts: 1,
      subscriptions: [
        subscribe('email.send', async () => {
          throw new Error('SMTP refused');
        }),
      ],
    });
    closers.push(() => consumer.stop());
    const relay = startOutboxRelay({ pool: f.pool, databaseUrl: f.db.url, schema: f.schema, bus, log: f.log });
    closers.push(() => relay.stop());
    const command = await withTransaction(f.pool, (tx) =>
      enqueue(tx, { type: 'email.send', data: resetEmail(true), correlationId: randomUUID(), source: 'bus-test' }),
    );

    const letters = await waitFor('the command in the DLQ', async () => {
      const found = await listDeadLetters(bus, queue);
      return found.some((l) => l.id === command.id) ? found : undefined;
    });
    expect(letters.find((l) => l.id === command.id)).toMatchObject({ lastError: 'SMTP refused', data: '[redacted]' });

    // The raw message in the DLQ, not just the listing, has lost the link.
    const ch = await f.amqp.createChannel();
    try {
      const raw = await ch.get(f.name(`${queue}.dlq`), { noAck: false });
      expect(raw && raw.content.toString()).not.toContain('very-secret-token');
      ch.nackAll(true);
    } finally {
      await ch.close();
    }
  });
});

describe('two replicas of a service', () => {
  it('when two replicas prune the same schema, then each period is pruned by one of them only', async () => {
    const everyMs = 400;
    const settings = { OUTBOX_SENT_RETENTION_HOURS: 24, PROCESSED_EVENTS_RETENTION_DAYS: 7 };
    const first = startRetention({ pool: f.pool, settings, log: f.log.child({ replica: 1 }), schema: f.schema, everyMs });
    const second = startRetention({ pool: f.pool, settings, log: f.log.child({ replica: 2 }), schema: f.schema, everyMs });
    const pruneRuns = () => f.logLines.filter((l) => l.task === 'bus-retention' && l.msg === 'periodic task ran');
    // Counted, not guessed from the clock: six periods both replicas contended for have been pruned.
    await waitFor('six periods pruned', () => pruneRuns().length >= 6, { timeoutMs: everyMs * 30 });
    await first.stop();
    await second.stop();

    const runs = pruneRuns();
    const periods = runs.map((l) => l.period as number);
    expect(new Set(periods).size).toBe(periods.length);
    expect(periods.length).toBeGreaterThanOrEqual(5);
  });
});

describe('the relay claim', () => {
  it('when the outbox holds a large backlog, then the claim reads it through outbox_claim_idx without sorting it', async () => {
    await f.pool.query(
      `INSERT INTO outbox (id, exchange, routing_key, envelope, created_at, published_at, attempts)
       SELECT gen_random_uuid(), 'warmline.events', 'user.deleted', '{}', now() - (g || ' seconds')::interval,
              CASE WHEN g % 3 = 0 THEN now() END, CASE WHEN g % 50 = 0 THEN 1 ELSE 0 END
         FROM generate_series(1, 20000) AS g`,
    );
    await f.pool.query('ANALYZE outbox');
    const { rows } = await f.pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${claimStatement(100)}`);
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toContain('Index Scan using outbox_claim_idx');
    expect(plan).not.toMatch(/\bSort\b/);
    await f.pool.query(`DELETE FROM outbox WHERE routing_key = 'user.deleted' AND envelope = '{}'::jsonb`);
  });
});
