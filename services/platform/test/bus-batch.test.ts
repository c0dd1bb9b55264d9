import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_EXCHANGE, type MessageData } from '@warmline/contracts';
import { createBus, enqueueAll, startConsumer, startOutboxRelay, subscribe, type Bus, type HandlerContext } from '../src/bus/index';
import type { Message } from 'amqplib';
import { withTransaction } from '../src/db/index';
import { DeliveryAcks } from '../src/bus/delivery-acks';
import { TEST_AMQP_URL, waitFor } from '../src/testing/index';
import { countDeliveries, publishRaw, startBusFixture, userDeletedEnvelope, type BusFixture } from './bus-fixture';

/**
 * Batched consumers and the pipelined relay (docs/adr/0050): one transaction per batch with a
 * savepoint per handler, and the relay claiming its next batch while confirms are pending.
 */

let f: BusFixture;
let bus: Bus;
const closers: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  f = await startBusFixture();
  bus = createBus({ developmentBroker: true, url: TEST_AMQP_URL, log: f.log, connectionName: 'bus-batch-test', namespace: f.namespace, allowQueuesOutsideTopology: true });
  await bus.ready();
  // One row per handler run that committed, with the transaction it committed in.
  await f.pool.query('CREATE TABLE effects (queue text NOT NULL, event_id uuid NOT NULL, consumer text, txid bigint NOT NULL DEFAULT txid_current())');
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await bus?.close();
  await f?.cleanup();
});

type Handler = (data: MessageData<'user.deleted'>, ctx: HandlerContext) => Promise<void>;

async function consumeInBatches(queue: string, handler: Handler, options: { size?: number; waitMs?: number } = {}) {
  f.consumerQueues.add(queue);
  const consumer = await startConsumer({
    bus,
    pool: f.pool,
    queue,
    log: f.log,
    retryDelaysMs: [20],
    batch: { size: options.size ?? 20, waitMs: options.waitMs ?? 0 },
    subscriptions: [subscribe('user.deleted', handler)],
  });
  closers.push(() => consumer.stop());
  return consumer;
}

function recordEffect(queue: string, ctx: HandlerContext, consumer?: string) {
  return ctx.db.query('INSERT INTO effects (queue, event_id, consumer) VALUES ($1, $2, $3)', [queue, ctx.envelope.id, consumer ?? null]);
}

async function effects(queue: string): Promise<Array<{ event_id: string; consumer: string | null; txid: string }>> {
  const { rows } = await f.pool.query<{ event_id: string; consumer: string | null; txid: string }>('SELECT event_id, consumer, txid FROM effects WHERE queue = $1', [queue]);
  return rows;
}

function countsBy<T>(items: T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

function counter(queue: string, outcome: string): Promise<number> {
  return bus.metrics.consumerMessages.get().then((m) => m.values.find((v) => v.labels.queue === queue && v.labels.outcome === outcome)?.value ?? 0);
}

describe('batched consumer', () => {
  it('when one handler of a batch throws, then the others commit together and only the failed one is retried', async () => {
    const queue = 'batch-one-fails';
    const envelopes = Array.from({ length: 6 }, () => userDeletedEnvelope());
    const failing = envelopes[2]!.id;
    const calls = new Map<string, number>();
    await consumeInBatches(
      queue,
      async (_data, ctx) => {
        calls.set(ctx.envelope.id, (calls.get(ctx.envelope.id) ?? 0) + 1);
        await recordEffect(queue, ctx);
        if (ctx.envelope.id === failing && calls.get(failing) === 1) throw new Error('mail server hiccup');
      },
      // Long enough for all six to be in one batch.
      { waitMs: 300 },
    );

    for (const e of envelopes) publishRaw(f, 'user.deleted', e, e.id);

    await waitFor('every event to have its effect', async () => (await effects(queue)).length === 6);
    const rows = await effects(queue);
    expect([...countsBy(rows, (r) => r.event_id).values()]).toEqual([1, 1, 1, 1, 1, 1]);
    // The five that did not fail committed in one transaction; the failed one in its retry's.
    const others = rows.filter((r) => r.event_id !== failing);
    expect(new Set(others.map((r) => r.txid)).size).toBe(1);
    expect(rows.find((r) => r.event_id === failing)!.txid).not.toBe(others[0]!.txid);
    expect(envelopes.map((e) => calls.get(e.id))).toEqual([1, 1, 2, 1, 1, 1]);
    expect(await counter(queue, 'retried')).toBe(1);
    const { rows: processed } = await f.pool.query('SELECT count(*)::int AS n FROM processed_events WHERE consumer = $1', [queue]);
    expect(processed[0].n).toBe(6);
  });

  it('when the database connection is closed mid-batch, then the batch runs again and each effect happens once', async () => {
    const queue = 'batch-connection-closed';
    const envelopes = Array.from({ length: 10 }, () => userDeletedEnvelope());
    const victim = envelopes[5]!.id;
    let closed = false;
    const calls = new Map<string, number>();
    await consumeInBatches(
      queue,
      async (_data, ctx) => {
        calls.set(ctx.envelope.id, (calls.get(ctx.envelope.id) ?? 0) + 1);
        await recordEffect(queue, ctx);
        if (ctx.envelope.id === victim && !closed) {
          closed = true;
          // The server ends this session as a crash or a restart would, after five effects of the batch.
          await ctx.db.query('SELECT pg_terminate_backend(pg_backend_pid())');
        }
      },
      { waitMs: 300 },
    );

    for (const e of envelopes) publishRaw(f, 'user.deleted', e, e.id);

    await waitFor('every event to have its effect', async () => (await effects(queue)).length === 10, { timeoutMs: 20_000 });
    expect(closed).toBe(true);
    const rows = await effects(queue);
    expect([...countsBy(rows, (r) => r.event_id).values()].every((n) => n === 1)).toBe(true);
    // The first five ran twice (the first run was rolled back with its batch), yet took effect once.
    expect(envelopes.slice(0, 6).map((e) => calls.get(e.id))).toEqual([2, 2, 2, 2, 2, 2]);
    expect(await counter(queue, 'waited')).toBeGreaterThan(0);
    expect(await counter(queue, 'retried')).toBe(0);
  });

  it('when the same events reach two consumers of one batched queue, some twice, then each is handled once', async () => {
    const queue = 'batch-two-consumers';
    const handledBy = new Map<string, string[]>();
    for (const name of ['first', 'second']) {
      await consumeInBatches(queue, async (_data, ctx) => {
        handledBy.set(ctx.envelope.id, [...(handledBy.get(ctx.envelope.id) ?? []), name]);
        await recordEffect(queue, ctx, name);
        // Slow enough that both consumers hold batches at once.
        await ctx.db.query('SELECT pg_sleep(0.002)');
      });
    }
    const envelopes = Array.from({ length: 300 }, () => userDeletedEnvelope());
    // Every third event twice (a relay's resend): the copies may land in either consumer, even in one batch.
    for (const [i, e] of envelopes.entries()) {
      publishRaw(f, 'user.deleted', e, e.id);
      if (i % 3 === 0) publishRaw(f, 'user.deleted', e, e.id);
    }

    await waitFor('all 400 deliveries to be settled', async () => (await counter(queue, 'processed')) + (await counter(queue, 'duplicate')) === 400, { timeoutMs: 30_000 });
    const rows = await effects(queue);
    expect(rows.length).toBe(300);
    expect([...countsBy(rows, (r) => r.event_id).values()].every((n) => n === 1)).toBe(true);
    expect(new Set(rows.map((r) => r.consumer))).toEqual(new Set(['first', 'second']));
    expect(await counter(queue, 'duplicate')).toBe(100);
    // Batches did form: fewer transactions than events.
    expect(new Set(rows.map((r) => r.txid)).size).toBeLessThan(300);
  });

  it('when batch options are out of range, then the consumer refuses to start', async () => {
    for (const batch of [{ size: 0 }, { size: 51 }, { size: 10, waitMs: -1 }, { size: 10, lanes: 0 }]) {
      await expect(startConsumer({ bus, pool: f.pool, queue: 'batch-bad', subscriptions: [], log: f.log, batch })).rejects.toThrow(/batch\./);
    }
  });
});

describe('delivery acks', () => {
  const delivery = (tag: number) => ({ fields: { deliveryTag: tag } }) as Message;
  const settled = () => new Promise((resolve) => setImmediate(resolve));

  it('when deliveries are settled out of order, then one ack(multiple) covers each run settled from the oldest, and one settled behind an unsettled one is acked alone', async () => {
    const acks: Array<[number, boolean]> = [];
    const tracker = new DeliveryAcks({ ack: (m, allUpTo) => void acks.push([m.fields.deliveryTag, allUpTo ?? false]) });
    const d = [1, 2, 3, 4, 5, 6].map(delivery);
    for (const m of d) tracker.received(m);

    // 2 and 3 done while 1 still runs: acked alone, so they do not hold the prefetch window.
    tracker.settle(d[1]!);
    tracker.settle(d[2]!);
    await settled();
    expect(acks).toEqual([[2, false], [3, false]]);

    // 1 and 4 done: one ack up to 4 (2 and 3 already acked, passed over by `multiple`).
    tracker.settle(d[0]!);
    tracker.settle(d[3]!);
    await settled();
    expect(acks.slice(2)).toEqual([[4, true]]);

    // 5 and 6 in one tick: one ack for both; settling again changes nothing.
    tracker.settle(d[4]!);
    tracker.settle(d[5]!);
    tracker.settle(d[5]!);
    await settled();
    expect(acks.slice(3)).toEqual([[6, true]]);
  });
});

/**
 * A proxy that holds every chunk from the broker for `delayMs`, in order: confirms come back
 * late, as from a busy broker, so a relay's batches wait long enough to be seen.
 */
async function startSlowBrokerProxy(delayMs: number): Promise<{ url: string; close(): Promise<void> }> {
  const broker = new URL(TEST_AMQP_URL);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: broker.hostname, port: Number(broker.port) || 5672 });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => s.destroy());
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => setTimeout(() => client.write(chunk), delayMs));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => setTimeout(() => client.destroy(), delayMs));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(TEST_AMQP_URL);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('pipelined relay', () => {
  it('when two relays drain one outbox in small batches, then each claims its next batch while confirms are pending and every row is published once', async () => {
    const proxy = await startSlowBrokerProxy(40);
    closers.push(() => proxy.close());
    const slowBus = createBus({ developmentBroker: true, url: proxy.url, log: f.log, connectionName: 'bus-batch-test-slow', namespace: f.namespace, topology: { queues: [] }, allowQueuesOutsideTopology: true });
    closers.push(() => slowBus.close());
    await slowBus.ready();
    const received = await countDeliveries(f, 'user.deleted');
    const ids = await withTransaction(f.pool, async (tx) =>
      (
        await enqueueAll(
          tx,
          Array.from({ length: 400 }, () => ({ type: 'user.deleted' as const, data: { userId: randomUUID(), deletedBy: randomUUID() }, correlationId: randomUUID(), source: 'bus-test' })),
        )
      ).map((e) => e.id),
    );

    // Each batch's transaction stays open, its claim the last statement, until its confirms
    // are back: more of them open at once than there are relays means a relay pipelines.
    let mostOpenClaims = 0;
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const { rows } = await f.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND state = 'idle in transaction' AND query LIKE '%FOR UPDATE SKIP LOCKED%'`,
        );
        mostOpenClaims = Math.max(mostOpenClaims, rows[0]!.n);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const relays = [1, 2].map(() => startOutboxRelay({ pool: f.pool, databaseUrl: f.db.url, schema: f.schema, bus: slowBus, log: f.log, batchSize: 10 }));
    try {
      await waitFor('every outbox row to be stamped published', async () => {
        const { rows } = await f.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL AND id = ANY($1::uuid[])', [ids]);
        return rows[0]!.n === 0;
      }, { timeoutMs: 30_000 });
    } finally {
      watching = false;
      await watcher;
      for (const relay of relays) await relay.stop();
    }
    // A duplicate would have been queued before its row was stamped; a marker published now
    // queues behind any such copy, so once it arrives every copy has arrived too.
    const marker = randomUUID();
    f.channel.publish(f.name(EVENTS_EXCHANGE), 'user.deleted', Buffer.from('{}'), { messageId: marker });
    await waitFor('the marker to arrive', () => received.has(marker));
    expect(ids.filter((id) => received.get(id) !== 1)).toEqual([]);
    expect(mostOpenClaims).toBeGreaterThan(2);
  });
});
