import amqp, { type Channel, type ChannelModel } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_EXCHANGE } from '@warmline/contracts';
import { createLogger, createPool, parseConfig, type Pool } from '@warmline/platform';
import { callService } from '@warmline/platform/testing/calls';
import { TEST_AMQP_URL, waitFor } from '@warmline/platform/testing/index';
import { capturingLogger, proxyFor, readyz, steadyLoad, type ProxiedDependency } from '@warmline/platform/testing/outage';
import { startTestSystem, type TestSystem } from '@warmline/platform/testing/system';
import { ordersEnv } from '../src/config';
import { ORDERS_SCHEMA, startOrders, type RunningOrders } from '../src/service';

/**
 * ARCHITECTURE §5, Faults: the orders service reaches PostgreSQL and RabbitMQ through TCP
 * proxies that these tests cut and restore. It must keep running, answer 503 (never 500, never
 * a hang) while the database is away, be back by itself after, and deliver every event that
 * reached its outbox. The test inspects through its own, direct connections.
 */

const TAP_QUEUE = 'faults-tap';
// Generous ceilings: the outcomes are waited for, never timed.
const CEILING = { timeoutMs: 30_000, intervalMs: 100 };

let system: TestSystem;
let pg: ProxiedDependency;
let broker: ProxiedDependency;
let orders: RunningOrders;
let pool: Pool;
let tapConnection: ChannelModel;
let tap: Channel;
const tapped = new Set<string>();

beforeAll(async () => {
  system = await startTestSystem({ databasePrefix: 'wl_orders_faults', queues: [TAP_QUEUE] });
  pg = await proxyFor(system.db.url);
  system.stops.push('postgres proxy', () => pg.proxy.close());
  broker = await proxyFor(TEST_AMQP_URL);
  system.stops.push('broker proxy', () => broker.proxy.close());

  const config = parseConfig(ordersEnv, { ...system.env, DATABASE_URL: pg.url, AMQP_URL: broker.url, ORDERS_PORT: '0' });
  orders = await startOrders(config, createLogger('orders', 'silent'));
  system.stops.push('orders', orders.stop);
  pool = createPool(system.db.url, ORDERS_SCHEMA);
  system.stops.push('test pool', () => pool.end());

  // An analyst's queue on the events exchange (declared by the service once its bus is up):
  // every order.created must reach it.
  await waitFor('the orders service connected to the broker', async () => (await readyz(orders.url)).body.checks?.rabbitmq === 'ok', CEILING);
  tapConnection = await amqp.connect(TEST_AMQP_URL);
  system.stops.push('tap connection', () => tapConnection.close());
  tap = await tapConnection.createChannel();
  const queue = `${system.namespace}.${TAP_QUEUE}`;
  await tap.assertQueue(queue, { durable: false, autoDelete: false });
  await tap.bindQueue(queue, `${system.namespace}.${EVENTS_EXCHANGE}`, 'order.created');
  await tap.consume(queue, (msg) => {
    if (msg?.properties.messageId) tapped.add(String(msg.properties.messageId));
  }, { noAck: true });
}, 60_000);

afterAll(async () => {
  await pg?.proxy.restore();
  await broker?.proxy.restore();
  await system?.cleanup();
});

const checkout = (signal?: AbortSignal) =>
  callService(orders.url, 'POST', '/api/create-payment-intent', { body: { amount: 975, callCount: 25 }, ...(signal ? { signal } : {}) });

async function outboxOf(type: string): Promise<{ ids: string[]; unsent: number }> {
  const { rows } = await pool.query<{ id: string; sent: boolean }>(
    'SELECT envelope->>\'id\' AS id, published_at IS NOT NULL AS sent FROM outbox WHERE routing_key = $1',
    [type],
  );
  return { ids: rows.map((r) => r.id), unsent: rows.filter((r) => !r.sent).length };
}

/** Every order.created in the outbox is stamped sent and reached the analyst's queue. */
async function everyOrderEventDelivered(): Promise<number> {
  return waitFor(
    'every order.created of the outbox stamped sent and delivered to the bound queue',
    async () => {
      const { ids, unsent } = await outboxOf('order.created');
      return unsent === 0 && ids.every((id) => tapped.has(id)) ? ids.length : undefined;
    },
    CEILING,
  );
}

describe('the orders service through outages', () => {
  it('when PostgreSQL is cut under a steady load of checkouts, then it keeps running, answers 503 meanwhile and 2xx after, and every event written is delivered', async () => {
    const load = steadyLoad(async (signal) => {
      const answer = await checkout(signal);
      return { status: answer.status, error: String(answer.body.error ?? '') };
    });
    try {
      await waitFor('checkouts succeeding before the cut', () => load.outcomes.filter((o) => o.status === 201).length >= 5, CEILING);

      const cutAt = Date.now();
      pg.proxy.cut();
      await waitFor('checkouts answered 503 during the cut', () => load.since(cutAt).filter((o) => o.status === 503).length >= 10, CEILING);
      const down = await readyz(orders.url);
      expect(down.status).toBe(503);
      expect(down.body.checks?.postgres).toMatch(/^down/);

      await pg.proxy.restore();
      const restoredAt = Date.now();
      await waitFor('checkouts succeeding again after the restore', () => load.since(restoredAt).filter((o) => o.status === 201).length >= 5, CEILING);
      await waitFor('/readyz ready again', async () => (await readyz(orders.url)).status === 200, CEILING);
    } finally {
      await load.stop();
    }

    // Only 201s and 503s: no 500, no other failure, no request left without an answer.
    const statuses = new Set(load.outcomes.map((o) => o.status));
    expect([...statuses].sort()).toEqual([201, 503]);
    const refusals = load.outcomes.filter((o) => o.status === 503);
    for (const refusal of refusals) expect(refusal.error).toMatch(/the database is not reachable/);

    const delivered = await everyOrderEventDelivered();
    // Every 201 is an order with its event; a checkout cut after its commit may also have one.
    expect(delivered).toBeGreaterThanOrEqual(load.outcomes.filter((o) => o.status === 201).length);
  }, 120_000);

  it('when only the broker is cut, then /readyz stays 200 naming rabbitmq degraded, checkouts still succeed, and their events go out once it is back', async () => {
    broker.proxy.cut();
    try {
      const degraded = await waitFor('/readyz degraded', async () => {
        const answer = await readyz(orders.url);
        return answer.body.degraded?.includes('rabbitmq') ? answer : undefined;
      }, CEILING);
      expect(degraded.status).toBe(200);
      expect(degraded.body).toMatchObject({ status: 'ready', degraded: ['rabbitmq'], checks: { postgres: 'ok' } });

      const during = await Promise.all([checkout(), checkout(), checkout()]);
      expect(during.map((a) => a.status)).toEqual([201, 201, 201]);
      expect((await outboxOf('order.created')).unsent).toBeGreaterThanOrEqual(3);
    } finally {
      await broker.proxy.restore();
    }

    await waitFor('/readyz without degradation', async () => (await readyz(orders.url)).body.degraded?.length === 0, CEILING);
    await everyOrderEventDelivered();
  }, 120_000);

  it('when a second instance starts while PostgreSQL is away, then it waits instead of exiting and serves once the database is back', async () => {
    const late = await proxyFor(system.db.url);
    system.stops.push('late postgres proxy', () => late.proxy.close());
    late.proxy.cut();
    const config = parseConfig(ordersEnv, { ...system.env, DATABASE_URL: late.url, MIGRATION_DATABASE_URL: late.url, ORDERS_PORT: '0' });
    let started: RunningOrders | undefined;
    let failed: unknown;
    const { log, count } = capturingLogger('orders', 'warn');
    const starting = startOrders(config, log).then(
      (running) => {
        started = running;
        system.stops.push('late orders', running.stop);
      },
      (err: unknown) => {
        failed = err;
      },
    );
    await waitFor('three attempts to reach PostgreSQL logged', () => count('waiting for PostgreSQL') >= 3, CEILING);
    expect(failed).toBeUndefined();
    expect(started).toBeUndefined();

    await late.proxy.restore();
    await waitFor('the second instance to start', () => started ?? failed, CEILING);
    await starting;
    expect(failed).toBeUndefined();
    const answer = await callService(started!.url, 'POST', '/api/create-payment-intent', { body: { amount: 975, callCount: 25 } });
    expect(answer.status).toBe(201);
  }, 120_000);
});
