import { randomUUID } from 'node:crypto';
import type { ChannelModel } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS_EXCHANGE, EVENTS_EXCHANGE, UNROUTED_EXCHANGE, UNROUTED_QUEUE } from '@warmline/contracts';
import { createBus, enqueue, startConsumer, startOutboxRelay, subscribe, type Bus, type Topology } from '../src/bus/index';
import { migrateBroker } from '../src/bus/migrate-broker';
import { BROKER_DELIVERY_LIMIT } from '../src/bus/topology';
import { withTransaction } from '../src/db/index';
import { TEST_AMQP_URL, waitFor } from '../src/testing/index';
import { publishRaw, startBusFixture, userDeletedEnvelope, type BusFixture } from './bus-fixture';

let f: BusFixture;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  f = await startBusFixture();
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await f?.cleanup();
});

function busWith(topology: Topology): Bus {
  const bus = createBus({ developmentBroker: true, url: TEST_AMQP_URL, log: f.log, connectionName: 'bus-topology-test', namespace: f.namespace, topology });
  closers.push(() => bus.close());
  return bus;
}

/** Whether the broker accepts `declare` as it stands (a mismatch closes the channel with 406). */
async function accepts(connection: ChannelModel, declare: (ch: Awaited<ReturnType<ChannelModel['createChannel']>>) => Promise<unknown>) {
  const ch = await connection.createChannel();
  ch.on('error', () => undefined);
  try {
    await declare(ch);
    return true;
  } catch (err) {
    // 406: declared with other arguments; 404: no such queue (checkQueue).
    if ([404, 406].includes((err as { code?: number }).code ?? 0)) return false;
    throw err;
  } finally {
    await ch.close().catch(() => undefined);
  }
}

async function depth(queue: string): Promise<number> {
  const ch = await f.amqp.createChannel();
  try {
    return (await ch.checkQueue(f.name(queue))).messageCount;
  } finally {
    await ch.close();
  }
}

describe('broker topology', () => {
  it('when an event is published before its consumer has ever run, then it waits in the queue and is delivered once the consumer starts', async () => {
    const queue = 'topology-late-consumer';
    f.consumerQueues.add(queue);
    const bus = busWith({ queues: [{ queue, messages: ['user.deleted'] }] });
    await bus.ready();
    const relay = startOutboxRelay({ pool: f.pool, databaseUrl: f.db.url, schema: f.schema, bus, log: f.log });
    closers.push(() => relay.stop());
    const event = await withTransaction(f.pool, (tx) =>
      enqueue(tx, { type: 'user.deleted', data: { userId: randomUUID(), deletedBy: randomUUID() }, correlationId: randomUUID(), source: 'bus-test' }),
    );
    await waitFor('the relay to publish the event', async () => {
      const { rows } = await f.pool.query('SELECT published_at FROM outbox WHERE id = $1', [event.id]);
      return rows[0]?.published_at;
    });
    expect(await depth(queue)).toBe(1);

    const handled: string[] = [];
    const consumer = await startConsumer({
      bus,
      pool: f.pool,
      queue,
      subscriptions: [subscribe('user.deleted', async (_data, ctx) => void handled.push(ctx.envelope.id))],
      log: f.log,
    });
    closers.push(() => consumer.stop());

    await waitFor('the consumer to handle the early event', () => handled.includes(event.id));
    expect(handled).toEqual([event.id]);
  });

  it('when an event is published that no queue is bound to, then it lands in the unrouted queue instead of vanishing', async () => {
    const bus = busWith({ queues: [] });
    await bus.ready();
    const before = await depth(UNROUTED_QUEUE);

    publishRaw(f, 'user.price_changed', { nobody: 'listens' }, randomUUID());

    await waitFor('the unrouted queue to hold it', async () => (await depth(UNROUTED_QUEUE)) === before + 1);
  });

  it('when a consumer queue does not match the manifest, then the consumer refuses to start', async () => {
    const bus = busWith({ queues: [{ queue: 'topology-strict', messages: ['user.deleted', 'user.price_changed'] }] });
    f.consumerQueues.add('topology-strict');
    await bus.ready();
    await expect(
      startConsumer({ bus, pool: f.pool, queue: 'topology-strict', subscriptions: [subscribe('user.deleted', async () => undefined)], log: f.log }),
    ).rejects.toThrow(/broker manifest binds it to \[user.deleted, user.price_changed\]/);
    await expect(
      startConsumer({ bus, pool: f.pool, queue: 'topology-unknown', subscriptions: [subscribe('user.deleted', async () => undefined)], log: f.log }),
    ).rejects.toThrow(/not in the broker manifest/);
  });
});

describe('topology migration', () => {
  it('when a queue is retired, then it stops filling, is deleted once empty, and one that still holds messages is kept', async () => {
    const [empty, full] = ['topology-retired-empty', 'topology-retired-full'];
    const ch = await f.amqp.createConfirmChannel();
    for (const q of [empty, full]) {
      await ch.assertQueue(f.name(q), { durable: true });
      await ch.bindQueue(f.name(q), f.name(EVENTS_EXCHANGE), 'user.deleted');
      f.consumerQueues.add(q);
    }
    ch.sendToQueue(f.name(full), Buffer.from('{}'), { persistent: true });
    await ch.waitForConfirms();
    await ch.close();

    await migrateBroker({ url: TEST_AMQP_URL, namespace: f.namespace, log: f.log, topology: { queues: [], retiredQueues: [empty, full].map((queue) => ({ queue, messages: ['user.deleted'] })) } });

    expect(await accepts(f.amqp, (c) => c.checkQueue(f.name(empty)))).toBe(false);
    expect(await depth(full)).toBe(1);
    // Confirmed, so routing is done: had the binding stayed, the queue would now hold two.
    const probe = await f.amqp.createConfirmChannel();
    probe.publish(f.name(EVENTS_EXCHANGE), 'user.deleted', Buffer.from(JSON.stringify(userDeletedEnvelope())), { persistent: true });
    await probe.waitForConfirms();
    await probe.close();
    expect(await depth(full)).toBe(1);
  });

  it("when an older release declared classic queues and a plain events exchange, then a process waits for the migration step, which migrates them in place keeping every message", async () => {
    // The layout as the previous release declared it, in a namespace of its own.
    const ns = `${f.namespace}_old`;
    const name = (base: string) => `${ns}.${base}`;
    const queue = 'topology-migrated';
    const old = await f.amqp.createConfirmChannel();
    await old.assertExchange(name(EVENTS_EXCHANGE), 'topic', { durable: true });
    await old.assertExchange(name(COMMANDS_EXCHANGE), 'direct', { durable: true });
    await old.assertQueue(name(queue), { durable: true });
    await old.assertQueue(name(`${queue}.retry`), { durable: true, deadLetterExchange: '', deadLetterRoutingKey: name(queue) });
    await old.assertQueue(name(`${queue}.dlq`), { durable: true });
    await old.bindQueue(name(queue), name(EVENTS_EXCHANGE), 'user.deleted');
    const waiting = [userDeletedEnvelope(), userDeletedEnvelope(), userDeletedEnvelope()];
    for (const e of waiting) {
      old.publish(name(EVENTS_EXCHANGE), 'user.deleted', Buffer.from(JSON.stringify(e)), { persistent: true, messageId: e.id });
    }
    await old.waitForConfirms();
    await old.close();
    closers.push(async () => {
      const ch = await f.amqp.createChannel();
      for (const q of [queue, `${queue}.retry`, `${queue}.dlq`, `${queue}.migrating`, UNROUTED_QUEUE]) await ch.deleteQueue(name(q));
      for (const x of [EVENTS_EXCHANGE, COMMANDS_EXCHANGE, UNROUTED_EXCHANGE]) await ch.deleteExchange(name(x));
      await ch.close();
    });

    const topology = { queues: [{ queue, messages: ['user.deleted'] as const }] };
    const bus = createBus({ developmentBroker: true, url: TEST_AMQP_URL, log: f.log, connectionName: 'bus-topology-migration-test', namespace: ns, topology });
    closers.push(() => bus.close());
    // A process only asserts: it neither deletes nor moves anything, it waits for the migration.
    await waitFor('the process to say it waits for the migration', () =>
      f.logLines.some((l) => l.msg === 'the broker layout is not migrated yet; waiting for the migration step'),
    );
    let ready = false;
    void bus.ready().then(() => (ready = true));
    expect(ready).toBe(false);
    expect(await accepts(f.amqp, (ch) => ch.assertQueue(name(queue), { durable: true }))).toBe(true);

    await migrateBroker({ url: TEST_AMQP_URL, namespace: ns, log: f.log, topology });
    await bus.ready();

    // Now a quorum queue with the delivery limit, and an events exchange with its alternate exchange.
    expect(
      await accepts(f.amqp, (ch) =>
        ch.assertQueue(name(queue), {
          durable: true,
          arguments: {
            'x-queue-type': 'quorum',
            'x-delivery-limit': BROKER_DELIVERY_LIMIT,
            'x-dead-letter-exchange': '',
            'x-dead-letter-routing-key': name(`${queue}.dlq`),
          },
        }),
      ),
    ).toBe(true);
    expect(await accepts(f.amqp, (ch) => ch.assertQueue(name(queue), { durable: true }))).toBe(false);
    expect(
      await accepts(f.amqp, (ch) => ch.assertExchange(name(EVENTS_EXCHANGE), 'topic', { durable: true, alternateExchange: name(UNROUTED_EXCHANGE) })),
    ).toBe(true);
    expect(await accepts(f.amqp, (ch) => ch.checkQueue(name(`${queue}.migrating`)))).toBe(false);

    // Every message that waited is still there, and the binding works for new ones.
    const fresh = userDeletedEnvelope();
    const ch = await f.amqp.createConfirmChannel();
    ch.publish(name(EVENTS_EXCHANGE), 'user.deleted', Buffer.from(JSON.stringify(fresh)), { persistent: true, messageId: fresh.id });
    await ch.waitForConfirms();
    await ch.close();
    const handled = new Set<string>();
    const consumer = await startConsumer({
      bus,
      pool: f.pool,
      queue,
      subscriptions: [subscribe('user.deleted', async (_data, ctx) => void handled.add(ctx.envelope.id))],
      log: f.log,
    });
    closers.push(() => consumer.stop());
    await waitFor('every waiting and new message to be handled', () => handled.size === 4);
    expect([...handled].sort()).toEqual([...waiting, fresh].map((e) => e.id).sort());

    // Migrating again, and starting again, over the migrated layout changes nothing.
    await migrateBroker({ url: TEST_AMQP_URL, namespace: ns, log: f.log, topology });
    const again = createBus({ developmentBroker: true, url: TEST_AMQP_URL, log: f.log, connectionName: 'bus-topology-migration-test-2', namespace: ns, topology });
    await again.ready();
    await again.close();
    expect(f.logLines.filter((l) => l.msg === 'consumer queue migrated')).toHaveLength(1);
  });
});

describe('the broker layout migration', () => {
  it('the broker layout migrated by two processes at once loses no message', async () => {
    // An older release's layout (classic queues, a plain events exchange), with messages waiting.
    const ns = `${f.namespace}_race`;
    const name = (base: string) => `${ns}.${base}`;
    const queues = ['race-a', 'race-b', 'race-c'];
    const perQueue = 200;
    const old = await f.amqp.createConfirmChannel();
    await old.assertExchange(name(EVENTS_EXCHANGE), 'topic', { durable: true });
    await old.assertExchange(name(COMMANDS_EXCHANGE), 'direct', { durable: true });
    const waiting = new Map<string, string[]>();
    for (const queue of queues) {
      await old.assertQueue(name(queue), { durable: true });
      const ids: string[] = [];
      for (let i = 0; i < perQueue; i++) {
        const e = userDeletedEnvelope();
        ids.push(e.id);
        old.sendToQueue(name(queue), Buffer.from(JSON.stringify(e)), { persistent: true, messageId: e.id });
      }
      waiting.set(queue, ids);
    }
    await old.waitForConfirms();
    await old.close();
    closers.push(async () => {
      const ch = await f.amqp.createChannel();
      for (const queue of queues) for (const q of [queue, `${queue}.retry`, `${queue}.dlq`, `${queue}.migrating`]) await ch.deleteQueue(name(q));
      await ch.deleteQueue(name(UNROUTED_QUEUE));
      for (const x of [EVENTS_EXCHANGE, COMMANDS_EXCHANGE, UNROUTED_EXCHANGE]) await ch.deleteExchange(name(x));
      await ch.close();
    });

    // Two migration steps at once (two migration Jobs, or a developer's make migrate beside one).
    const topology = { queues: queues.map((queue) => ({ queue, messages: ['user.deleted'] as const })) };
    await Promise.all([1, 2].map(() => migrateBroker({ url: TEST_AMQP_URL, namespace: ns, log: f.log, topology })));

    // Every message that waited is in its (now quorum) queue, none in a holding queue.
    const ch = await f.amqp.createChannel();
    try {
      for (const queue of queues) {
        const found = new Set<string>();
        for (;;) {
          const msg = await ch.get(name(queue), { noAck: true });
          if (!msg) break;
          found.add(String(msg.properties.messageId));
        }
        const lost = waiting.get(queue)!.filter((id) => !found.has(id));
        expect(lost, `${queue}: ${lost.length} of ${perQueue} messages lost`).toEqual([]);
      }
    } finally {
      await ch.close().catch(() => undefined);
    }
  }, 120_000);
});
