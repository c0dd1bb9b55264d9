import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBus, startConsumer, subscribe, type Bus, type HandlerContext } from '../src/bus/index';
import { TEST_AMQP_URL, waitFor } from '../src/testing/index';
import { startTcpProxy } from '../src/testing/tcp-proxy';
import { publishRaw, startBusFixture, userDeletedEnvelope, type BusFixture } from './bus-fixture';

let f: BusFixture;
let bus: Bus;
const stops: Array<() => Promise<void>> = [];

beforeAll(async () => {
  f = await startBusFixture();
  bus = createBus({ developmentBroker: true, url: TEST_AMQP_URL, log: f.log, connectionName: 'bus-consumer-test', namespace: f.namespace, allowQueuesOutsideTopology: true });
  await bus.ready();
  // The handlers' effect: one row per handled deletion (no unique key, so only the
  // consumer's processed_events can keep a second delivery from adding a second row).
  // Every test's queue is bound to user.deleted, so rows say which queue wrote them.
  await f.pool.query('CREATE TABLE user_deletions (queue text NOT NULL, user_id uuid NOT NULL, event_id uuid NOT NULL)');
});

afterAll(async () => {
  for (const stop of stops) await stop();
  await bus?.close();
  await f?.cleanup();
});

async function consume(queue: string, handler: Parameters<typeof subscribe<'user.deleted'>>[1], options: { maxAttempts?: number } = {}) {
  f.consumerQueues.add(queue);
  const consumer = await startConsumer({
    bus,
    pool: f.pool,
    queue,
    subscriptions: [subscribe('user.deleted', handler)],
    log: f.log,
    retryDelaysMs: [20],
    ...options,
  });
  stops.push(() => consumer.stop());
  return consumer;
}

async function deletionsBy(queue: string, eventId: string): Promise<number> {
  const { rows } = await f.pool.query('SELECT count(*) AS n FROM user_deletions WHERE queue = $1 AND event_id = $2', [
    queue,
    eventId,
  ]);
  return rows[0].n;
}

function recordDeletion(queue: string, ctx: HandlerContext, userId: string) {
  return ctx.db.query('INSERT INTO user_deletions (queue, user_id, event_id) VALUES ($1, $2, $3)', [
    queue,
    userId,
    ctx.envelope.id,
  ]);
}

describe('consumer', () => {
  it('when the same event is delivered twice, then the handler has one effect', async () => {
    let calls = 0;
    await consume('consumer-dedupe', async (data, ctx) => {
      calls += 1;
      await recordDeletion('consumer-dedupe', ctx, data.userId);
    });
    const envelope = userDeletedEnvelope();

    publishRaw(f, 'user.deleted', envelope, envelope.id);
    publishRaw(f, 'user.deleted', envelope, envelope.id);

    await waitFor('the second delivery to be recognised as a duplicate', () =>
      f.logLines.some((l) => l.queue === 'consumer-dedupe' && l.msg === 'duplicate delivery ignored' && l.eventId === envelope.id),
    );
    expect(await deletionsBy('consumer-dedupe', envelope.id)).toBe(1);
    expect(calls).toBe(1);
    const { rows } = await f.pool.query('SELECT consumer FROM processed_events WHERE event_id = $1', [envelope.id]);
    expect(rows).toEqual([{ consumer: 'consumer-dedupe' }]);
  });

  it('when a handler fails after writing, then its writes are undone and the retry applies them once', async () => {
    let calls = 0;
    await consume('consumer-rollback', async (data, ctx) => {
      calls += 1;
      await recordDeletion('consumer-rollback', ctx, data.userId);
      if (calls === 1) throw new Error('mail server hiccup');
    });
    const envelope = userDeletedEnvelope();

    publishRaw(f, 'user.deleted', envelope, envelope.id);

    await waitFor('the retry to succeed', () => f.logLines.some((l) => l.queue === 'consumer-rollback' && l.msg === 'handled'));
    expect(calls).toBe(2);
    expect(await deletionsBy('consumer-rollback', envelope.id)).toBe(1);
  });

  it('when a handler runs, then its log lines carry the correlation id and event id', async () => {
    await consume('consumer-logging', async (_data, ctx) => {
      ctx.log.info('handled a deletion');
    });
    const envelope = userDeletedEnvelope();

    publishRaw(f, 'user.deleted', envelope, envelope.id);

    const line = await waitFor('the handler to log', () => f.logLines.find((l) => l.msg === 'handled a deletion'));
    expect(line).toMatchObject({ correlationId: envelope.correlationId, eventId: envelope.id });
  });

  it('when prefetch is outside 100–300, then the consumer refuses to start', async () => {
    await expect(
      startConsumer({ bus, pool: f.pool, queue: 'consumer-bad', subscriptions: [], log: f.log, prefetch: 5 }),
    ).rejects.toThrow(/prefetch/);
  });

  it('when the connection to RabbitMQ is lost and comes back, then the consumer resumes', async () => {
    const broker = new URL(TEST_AMQP_URL);
    const proxy = await startTcpProxy(broker.hostname, Number(broker.port) || 5672);
    const throughProxy = new URL(TEST_AMQP_URL);
    throughProxy.hostname = '127.0.0.1';
    throughProxy.port = String(proxy.port);
    const fragileBus = createBus({
      developmentBroker: true,
      url: throughProxy.toString(),
      log: f.log,
      connectionName: 'bus-consumer-test-fragile',
      namespace: f.namespace,
      allowQueuesOutsideTopology: true,
    });
    let consumer: { stop(): Promise<void> } | undefined;
    try {
      await fragileBus.ready();
      const handled = new Set<string>();
      f.consumerQueues.add('consumer-reconnect');
      consumer = await startConsumer({
        bus: fragileBus,
        pool: f.pool,
        queue: 'consumer-reconnect',
        subscriptions: [subscribe('user.deleted', async (_data, ctx) => void handled.add(ctx.envelope.id))],
        log: f.log,
      });

      proxy.cut();
      await waitFor('the bus to notice the broker is gone', () => fragileBus.ping().then(() => false, () => true));
      const whileAway = userDeletedEnvelope();
      publishRaw(f, 'user.deleted', whileAway, whileAway.id);
      await proxy.restore();
      await waitFor('the bus to reconnect', () => fragileBus.ping().then(() => true));
      const afterReturn = userDeletedEnvelope();
      publishRaw(f, 'user.deleted', afterReturn, afterReturn.id);

      await waitFor('both events to be handled', () => handled.has(whileAway.id) && handled.has(afterReturn.id));
    } finally {
      await consumer?.stop();
      await fragileBus.close();
      await proxy.close();
    }
  });

  it('when a consumer stops while a handler runs, then it waits for the handler and acks its message', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    f.consumerQueues.add('consumer-drain');
    const consumer = await startConsumer({
      bus,
      pool: f.pool,
      queue: 'consumer-drain',
      subscriptions: [
        subscribe('user.deleted', async (data, ctx) => {
          started = true;
          await gate;
          await recordDeletion('consumer-drain', ctx, data.userId);
        }),
      ],
      log: f.log,
    });
    const envelope = userDeletedEnvelope();
    publishRaw(f, 'user.deleted', envelope, envelope.id);
    await waitFor('the handler to start', () => started);

    let stopped = false;
    const stopping = consumer.stop().then(() => (stopped = true));
    // The consumer has cancelled its deliveries and is waiting on the running handler.
    const waiting = await waitFor('the consumer to wait for its handler', () => f.logLines.find((l) => l.msg === 'waiting for running handlers to finish' && String(l.queue).endsWith('consumer-drain')));
    expect(waiting).toMatchObject({ handlers: 1 });
    expect(stopped).toBe(false);
    release();
    await stopping;

    expect(await deletionsBy('consumer-drain', envelope.id)).toBe(1);
    // Its channel is closed now, so an unacked message would be back in the queue.
    const { messageCount } = await f.channel.checkQueue(f.name('consumer-drain'));
    expect(messageCount).toBe(0);
  });
});
