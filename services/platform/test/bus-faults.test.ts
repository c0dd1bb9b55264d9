import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBus, enqueue, listDeadLetters, startConsumer, startOutboxRelay, subscribe, type Bus } from '../src/bus/index';
import { createPool, withTransaction } from '../src/db/index';
import { assertConsumerQueue } from '../src/bus/topology';
import { TEST_AMQP_URL, waitFor } from '../src/testing/index';
import { startTcpProxy, type TcpProxy } from '../src/testing/tcp-proxy';
import { publishRaw, startBusFixture, userDeletedEnvelope, type BusFixture } from './bus-fixture';

/**
 * The bus through faults (issue 10): a database that goes away under a consumer, handlers
 * that hold connections longer than the pool can serve at once, a broker cut while hundreds
 * of events are in flight, and consumer processes that are killed. Outcomes are waited for,
 * never timed.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');

let f: BusFixture;
let bus: Bus;
const closers: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  f = await startBusFixture();
  bus = createBus({ developmentBroker: true, url: TEST_AMQP_URL, log: f.log, connectionName: 'bus-faults-test', namespace: f.namespace, allowQueuesOutsideTopology: true });
  await bus.ready();
  // Every queue of this file is bound to user.deleted, so each row says which queue's handler wrote it.
  await f.pool.query('CREATE TABLE effects (queue text NOT NULL, event_id uuid NOT NULL, pid integer)');
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await bus?.close();
  await f?.cleanup();
});

async function effectsPerEvent(queue: string, ids: string[]): Promise<Map<string, number>> {
  const { rows } = await f.pool.query<{ event_id: string; n: number }>(
    'SELECT event_id, count(*) AS n FROM effects WHERE queue = $1 AND event_id = ANY($2::uuid[]) GROUP BY event_id',
    [queue, ids],
  );
  return new Map(rows.map((r) => [r.event_id, r.n]));
}

function counter(queue: string, outcome: string): Promise<number> {
  return bus.metrics.consumerMessages.get().then((m) => m.values.find((v) => v.labels.queue === queue && v.labels.outcome === outcome)?.value ?? 0);
}

function proxiedDatabaseUrl(proxy: TcpProxy): string {
  const url = new URL(f.db.url);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  return url.toString();
}

describe('consumers under load', () => {
  it('when a hundred handlers each hold a connection 600 ms against a pool of ten, then every message is handled and none is sent to retry', async () => {
    const queue = 'faults-slow-handlers';
    f.consumerQueues.add(queue);
    const pool = createPool(f.db.url, f.schema, 10, f.log);
    closers.push(() => pool.end());
    const handled = new Set<string>();
    const consumer = await startConsumer({
      bus,
      pool,
      queue,
      log: f.log,
      subscriptions: [
        subscribe('user.deleted', async (_data, ctx) => {
          await ctx.db.query('SELECT pg_sleep(0.6)');
          handled.add(ctx.envelope.id);
        }),
      ],
    });
    closers.push(() => consumer.stop());
    const envelopes = Array.from({ length: 100 }, () => userDeletedEnvelope());

    for (const e of envelopes) publishRaw(f, 'user.deleted', e, e.id);

    await waitFor('all hundred to be handled and acknowledged', async () => (await counter(queue, 'processed')) === 100, { timeoutMs: 60_000 });
    expect(handled.size).toBe(100);
    expect(await counter(queue, 'retried')).toBe(0);
    expect(await counter(queue, 'failed')).toBe(0);
    expect(await counter(queue, 'processed')).toBe(100);
  });
});

describe('a database that goes away', () => {
  it('when PostgreSQL is cut under a consumer, then messages wait without counting as failures and are handled once it is back', async () => {
    const target = new URL(f.db.url);
    const proxy = await startTcpProxy(target.hostname, Number(target.port) || 5432);
    closers.push(() => proxy.close());
    const pool = createPool(proxiedDatabaseUrl(proxy), f.schema, 10, f.log);
    closers.push(() => pool.end());
    const queue = 'faults-database-cut';
    f.consumerQueues.add(queue);
    const consumer = await startConsumer({
      bus,
      pool,
      queue,
      log: f.log,
      maxAttempts: 2,
      retryDelaysMs: [20],
      subscriptions: [subscribe('user.deleted', async (_data, ctx) => void (await ctx.db.query('INSERT INTO effects (queue, event_id) VALUES ($1, $2)', [queue, ctx.envelope.id])))],
    });
    closers.push(() => consumer.stop());
    const first = userDeletedEnvelope();
    publishRaw(f, 'user.deleted', first, first.id);
    await waitFor('the consumer to work before the cut', async () => (await effectsPerEvent(queue, [first.id])).get(first.id) === 1);

    proxy.cut();
    const during = Array.from({ length: 20 }, () => userDeletedEnvelope());
    for (const e of during) publishRaw(f, 'user.deleted', e, e.id);
    await waitFor('the consumer to wait for PostgreSQL', async () => (await counter(queue, 'waited')) > 0);
    await proxy.restore();

    const ids = during.map((e) => e.id);
    await waitFor('every message sent during the cut to be handled', async () => (await effectsPerEvent(queue, ids)).size === 20, { timeoutMs: 30_000 });
    expect([...(await effectsPerEvent(queue, ids)).values()].every((n) => n === 1)).toBe(true);
    expect(await counter(queue, 'retried')).toBe(0);
    expect(await counter(queue, 'dead_lettered')).toBe(0);
    expect(await listDeadLetters(bus, queue)).toEqual([]);
  });
});

describe('a broker that goes away', () => {
  it('when RabbitMQ is cut while 500 events are in flight, then all are delivered after it returns, each with one effect', async () => {
    const broker = new URL(TEST_AMQP_URL);
    const proxy = await startTcpProxy(broker.hostname, Number(broker.port) || 5672);
    closers.push(() => proxy.close());
    const url = new URL(TEST_AMQP_URL);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const fragile = createBus({ developmentBroker: true, url: url.toString(), log: f.log, connectionName: 'bus-faults-fragile', namespace: f.namespace, allowQueuesOutsideTopology: true });
    closers.push(() => fragile.close());
    await fragile.ready();
    const queue = 'faults-broker-cut';
    f.consumerQueues.add(queue);
    const consumer = await startConsumer({
      bus: fragile,
      pool: f.pool,
      queue,
      log: f.log,
      subscriptions: [subscribe('user.deleted', async (_data, ctx) => void (await ctx.db.query('INSERT INTO effects (queue, event_id) VALUES ($1, $2)', [queue, ctx.envelope.id])))],
    });
    closers.push(() => consumer.stop());
    const relay = startOutboxRelay({ pool: f.pool, databaseUrl: f.db.url, schema: f.schema, bus: fragile, log: f.log, batchSize: 50 });
    closers.push(() => relay.stop());

    const ids: string[] = [];
    for (let batch = 0; batch < 10; batch++) {
      await withTransaction(f.pool, async (tx) => {
        for (let i = 0; i < 50; i++) {
          const e = await enqueue(tx, { type: 'user.deleted', data: { userId: randomUUID(), deletedBy: randomUUID() }, correlationId: randomUUID(), source: 'bus-test' });
          ids.push(e.id);
        }
      });
      // Cut once some are published and some handled, with the rest still in the outbox or on the wire.
      if (batch === 3) {
        await waitFor('some events to be handled before the cut', async () => (await effectsPerEvent(queue, ids)).size > 0);
        proxy.cut();
      }
    }
    await waitFor('the relay to fail while the broker is away', async () => {
      const { rows } = await f.pool.query<{ n: number }>('SELECT count(*) AS n FROM outbox WHERE published_at IS NULL AND id = ANY($1::uuid[])', [ids]);
      return rows[0]!.n > 0;
    });
    await proxy.restore();

    await waitFor('all 500 to be handled', async () => (await effectsPerEvent(queue, ids)).size === 500, { timeoutMs: 60_000 });
    const counts = await effectsPerEvent(queue, ids);
    expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
  });
});

describe('consumer processes that die', () => {
  function startConsumerProcess(queue: string, extra: Record<string, string> = {}): ChildProcess & { consuming: Promise<void> } {
    // node with tsx's loader, not the tsx command: that one runs the script in a child of its
    // own, which a SIGKILL of the command would leave running.
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'fixtures/consumer-process.ts')], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: f.db.url,
        SCHEMA: f.schema,
        AMQP_URL: TEST_AMQP_URL,
        BUS_NAMESPACE: f.namespace,
        CONSUMER_QUEUE: queue,
        ...extra,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    }) as ChildProcess & { consuming: Promise<void> };
    child.consuming = new Promise((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('consuming')) resolve();
      });
      child.once('exit', (code, signal) => reject(new Error(`consumer process exited (${code ?? signal}) before consuming`)));
    });
    child.consuming.catch(() => undefined);
    closers.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    return child;
  }

  function exited(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => child.once('exit', () => resolve()));
  }

  it('when a consumer process is killed mid-batch and started again, then nothing is lost and nothing is done twice', async () => {
    const queue = 'faults-killed-mid-batch';
    f.consumerQueues.add(queue);
    await assertConsumerQueue(f.amqp, f.name, { queue, messages: ['user.deleted'] });
    const first = startConsumerProcess(queue, { HANDLER_MS: '40' });
    await first.consuming;
    const envelopes = Array.from({ length: 200 }, () => userDeletedEnvelope());
    const ids = envelopes.map((e) => e.id);
    for (const e of envelopes) publishRaw(f, 'user.deleted', e, e.id);
    await waitFor('the first process to be part-way through', async () => (await effectsPerEvent(queue, ids)).size >= 20, { timeoutMs: 30_000 });

    first.kill('SIGKILL');
    await exited(first);
    expect((await effectsPerEvent(queue, ids)).size).toBeLessThan(200);
    const second = startConsumerProcess(queue, { HANDLER_MS: '5' });
    await second.consuming;

    await waitFor('every message to have its effect', async () => (await effectsPerEvent(queue, ids)).size === 200, { timeoutMs: 60_000 });
    expect([...(await effectsPerEvent(queue, ids)).values()].filter((n) => n !== 1)).toEqual([]);
    second.kill('SIGTERM');
    await exited(second);
  }, 120_000);

  it('when a batched consumer process is killed mid-batch and started again, then nothing is lost and nothing is done twice', async () => {
    const queue = 'faults-killed-mid-batch-batched';
    f.consumerQueues.add(queue);
    await assertConsumerQueue(f.amqp, f.name, { queue, messages: ['user.deleted'] });
    const first = startConsumerProcess(queue, { HANDLER_MS: '10', BATCH_SIZE: '20' });
    await first.consuming;
    const envelopes = Array.from({ length: 300 }, () => userDeletedEnvelope());
    const ids = envelopes.map((e) => e.id);
    for (const e of envelopes) publishRaw(f, 'user.deleted', e, e.id);
    await waitFor('the first process to have committed a batch', async () => (await effectsPerEvent(queue, ids)).size >= 20, { timeoutMs: 30_000 });
    // Killed while its next batches are open: their effects roll back with them.
    first.kill('SIGKILL');
    await exited(first);
    expect((await effectsPerEvent(queue, ids)).size).toBeLessThan(300);
    const second = startConsumerProcess(queue, { HANDLER_MS: '1', BATCH_SIZE: '20' });
    await second.consuming;

    await waitFor('every message to have its effect', async () => (await effectsPerEvent(queue, ids)).size === 300, { timeoutMs: 60_000 });
    expect([...(await effectsPerEvent(queue, ids)).values()].filter((n) => n !== 1)).toEqual([]);
    // Batches did form: processed_events rows, written before the first savepoint, share transactions.
    const { rows } = await f.pool.query<{ n: number }>('SELECT count(DISTINCT xmin::text)::int AS n FROM processed_events WHERE consumer = $1', [queue]);
    expect(rows[0]!.n).toBeLessThan(300);
    second.kill('SIGTERM');
    await exited(second);
  }, 120_000);

  it('when a message kills its consumer process every time, then after the delivery limit it is in the DLQ with the reason, and the rest are handled', async () => {
    const queue = 'faults-poison-kills';
    f.consumerQueues.add(queue);
    await assertConsumerQueue(f.amqp, f.name, { queue, messages: ['user.deleted'] });
    const poison = userDeletedEnvelope();
    const healthy = Array.from({ length: 10 }, () => userDeletedEnvelope());
    const killUserId = poison.data.userId;
    publishRaw(f, 'user.deleted', poison, poison.id);
    for (const e of healthy) publishRaw(f, 'user.deleted', e, e.id);

    // A supervisor's job, done by hand: start the process again each time it dies.
    let restarts = 0;
    for (;;) {
      const child = startConsumerProcess(queue, { KILL_USER_ID: killUserId, MAX_DELIVERIES: '3' });
      await child.consuming.catch(() => undefined);
      const dead = exited(child).then(() => 'died' as const);
      const settled = waitFor(
        'the healthy messages to be handled',
        async () => (await effectsPerEvent(queue, healthy.map((e) => e.id))).size === healthy.length,
        { timeoutMs: 60_000 },
      ).then(() => 'settled' as const);
      const outcome = await Promise.race([dead, settled]);
      if (outcome === 'settled') {
        child.kill('SIGTERM');
        await exited(child);
        break;
      }
      restarts += 1;
      expect(restarts).toBeLessThanOrEqual(6);
    }

    expect(restarts).toBe(4); // the first delivery, then three counted redeliveries, then the DLQ
    const letters = await listDeadLetters(bus, queue);
    expect(letters.map((l) => l.id)).toEqual([poison.id]);
    expect(letters[0]!.lastError).toMatch(/delivery limit: delivered \d+ times without finishing/);
    expect([...(await effectsPerEvent(queue, healthy.map((e) => e.id))).values()].every((n) => n === 1)).toBe(true);
    expect((await effectsPerEvent(queue, [poison.id])).size).toBe(0);
  }, 180_000);
});

describe('bus metrics', () => {
  it('when a service is scraped, then the outbox backlog, relay, consumer and DLQ figures are there', async () => {
    const text = await bus.metrics.registry.metrics();
    for (const name of [
      'warmline_outbox_backlog',
      'warmline_outbox_oldest_unsent_seconds',
      'warmline_relay_published_total',
      'warmline_relay_failed_total',
      'warmline_consumer_messages_total',
      'warmline_consumer_handler_duration_seconds',
      'warmline_queue_depth',
    ]) {
      expect(text).toContain(`# TYPE ${name}`);
    }
    expect(text).toMatch(new RegExp(`warmline_queue_depth\\{queue="${f.name('faults-slow-handlers.dlq')}"\\} 0`));
    expect(text).toMatch(new RegExp(`warmline_queue_depth\\{queue="${f.name('warmline.unrouted')}"\\} \\d+`));
    expect(text).toMatch(/warmline_consumer_messages_total\{[^}]*outcome="processed"[^}]*\} \d+/);
  });
});
