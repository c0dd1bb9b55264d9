import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import amqp from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeFor, type Envelope, type MessageType } from '@warmline/contracts';
import { createLogger, createPool, parseConfig, type Pool } from '@warmline/platform';
import { TEST_AMQP_URL, waitFor } from '@warmline/platform/testing/index';
import { agentIdentity, callService } from '@warmline/platform/testing/calls';
import { startTestSystem, type TestSystem } from '@warmline/platform/testing/system';
import { ordersEnv } from '@warmline/orders/config';
import { startOrders, type RunningOrders } from '@warmline/orders/service';
import { notificationsEnv } from '@warmline/notifications/config';
import { NOTIFICATIONS_QUEUES } from '@warmline/notifications/events/consumers';
import { startNotifications } from '@warmline/notifications/service';
import { catalogEnv } from '../src/config';
import { CATALOG_SCHEMA, startCatalog, type RunningCatalog } from '../src/service';
import { CALLBACKS_QUEUE, LEAD_PAYMENTS_QUEUE } from '../src/events/consumers';
import { insertLeads, type NewAgedLead } from '../src/db/leads';
import { DAY_MS } from '../src/market/domain/lead-age';
import { phoneIn, testCard } from './catalog-fixture';

/**
 * Two replicas each of the catalog, the orders service and the notifications worker, in-process
 * on one database and one broker namespace as two containers of each would be (docs/adr/0040):
 * purchases go through both catalogs and both orders services, their events and e-mails are
 * each handled once, the reservation sweep (in both catalogs) ends each reservation once, and
 * bus retention runs once per period per schema.
 */

let system: TestSystem;
let catalogPool: Pool;
let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
const catalogs: RunningCatalog[] = [];
const orders: RunningOrders[] = [];
let mailDir: string;
const lines: Array<Record<string, unknown>> = [];

/** A logger per replica whose lines the test reads. */
function replicaLog(service: string, replica: number) {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push({ ...(JSON.parse(line) as Record<string, unknown>), replica: `${service}-${replica}` });
      done();
    },
  });
  return createLogger(service, 'debug', sink);
}

beforeAll(async () => {
  system = await startTestSystem({ databasePrefix: 'wl_replicas', queues: [LEAD_PAYMENTS_QUEUE, CALLBACKS_QUEUE, ...NOTIFICATIONS_QUEUES] });
  mailDir = await mkdtemp(path.join(os.tmpdir(), 'wl-replicas-mail-'));
  system.stops.push('mail dir', () => rm(mailDir, { recursive: true, force: true }));
  for (const replica of [1, 2]) {
    const notifications = await startNotifications(
      parseConfig(notificationsEnv, { ...system.env, NOTIFICATIONS_PORT: '0', MAIL_DIR: mailDir }),
      replicaLog('notifications', replica),
    );
    system.stops.push(`notifications ${replica}`, notifications.stop);
    const order = await startOrders(parseConfig(ordersEnv, { ...system.env, ORDERS_PORT: '0' }), replicaLog('orders', replica));
    system.stops.push(`orders ${replica}`, order.stop);
    orders.push(order);
  }
  for (const replica of [1, 2]) {
    // Each catalog asks the other replica of orders, as a round-robin proxy would spread it.
    const config = parseConfig(catalogEnv, { ...system.env, CATALOG_PORT: '0', ORDERS_URL: orders[replica - 1]!.url, RESERVATION_SWEEP_SECONDS: '1' });
    const catalog = await startCatalog(config, replicaLog('catalog', replica), { clock: now });
    system.stops.push(`catalog ${replica}`, catalog.stop);
    catalogs.push(catalog);
  }
  catalogPool = createPool(system.db.url, CATALOG_SCHEMA);
  system.stops.push('catalog pool', () => catalogPool.end());
}, 120_000);

afterAll(async () => {
  await system?.cleanup();
});

async function addLeads(count: number): Promise<string[]> {
  const at = now().getTime();
  const leads = Array.from({ length: count }, (_, i): NewAgedLead => ({
    id: randomUUID(),
    name: `Pat Lead${i}`,
    phone: phoneIn('512'),
    email: `lead${i}.${randomUUID().slice(0, 8)}@example.com`,
    state: 'TX',
    formFillTime: new Date(at - 45 * DAY_MS - 3_600_000),
    source: 'facebook-lead-form',
    consent: { tcpa: true, text: 'I agree to be contacted by licensed agents.', ip: '203.0.113.7' },
  }));
  await insertLeads(catalogPool, leads);
  return leads.map((l) => l.id);
}

async function countBy(sql: string, params: unknown[] = []): Promise<Map<string, number>> {
  const { rows } = await catalogPool.query<{ key: string; n: number }>(sql, params);
  return new Map(rows.map((r) => [r.key, r.n]));
}

describe('two replicas of the catalog, orders and notifications', () => {
  it('when purchases, payments and e-mails go through both replicas of each, then every event is handled once and every sweep acts once per period', async () => {
    // Purchases: reserved at catalog 1 or 2, paid at orders 1 or 2.
    const paidOrders: string[] = [];
    for (let i = 0; i < 8; i++) {
      const buyer = agentIdentity(`buyer${i}`);
      const leadIds = await addLeads(2);
      const reserved = await callService(catalogs[i % 2]!.url, 'POST', '/api/bulk-purchase-leads', { body: { leadIds }, identity: buyer });
      expect(reserved.status).toBe(201);
      const paid = await callService(orders[(i + 1) % 2]!.url, 'POST', '/api/payments/sandbox/confirm', { body: testCard(String(reserved.body.clientSecret)), identity: buyer });
      expect(paid.status).toBe(200);
      paidOrders.push(String(reserved.body.orderId));
    }
    // Reservations left unpaid, for the sweepers of both catalogs.
    const unpaidOrders: string[] = [];
    for (let i = 0; i < 6; i++) {
      const reserved = await callService(catalogs[i % 2]!.url, 'POST', '/api/bulk-purchase-leads', { body: { leadIds: await addLeads(1) }, identity: agentIdentity(`idle${i}`) });
      expect(reserved.status).toBe(201);
      unpaidOrders.push(String(reserved.body.orderId));
    }
    // E-mails straight onto the queue both workers consume.
    const connection = await amqp.connect(TEST_AMQP_URL);
    const channel = await connection.createConfirmChannel();
    const commands = Array.from({ length: 40 }, (_, i): Envelope<unknown> => ({
      id: randomUUID(),
      type: 'email.send',
      version: 1,
      occurredAt: new Date().toISOString(),
      source: 'replicas-test',
      correlationId: randomUUID(),
      data: { to: `agent${i}@example.com`, subject: 'Your leads are ready', text: 'Open My Leads.', template: 'replicas-test' },
    }));
    for (const c of commands) {
      channel.publish(`${system.namespace}.${exchangeFor(c.type as MessageType)}`, c.type, Buffer.from(JSON.stringify(c)), { persistent: true, contentType: 'application/json', messageId: c.id });
    }
    await channel.waitForConfirms();
    await connection.close();

    // Every payment.succeeded sold its order once, whichever catalog took it.
    await waitFor('every paid order sold', async () => {
      const { rows } = await catalogPool.query<{ n: number }>("SELECT count(*) AS n FROM lead_reservations WHERE order_id = ANY($1::uuid[]) AND status = 'paid'", [paidOrders]);
      return rows[0]!.n === paidOrders.length;
    }, { timeoutMs: 30_000 });
    const purchased = await countBy(
      "SELECT envelope->'data'->>'orderId' AS key, count(*) AS n FROM outbox WHERE routing_key = 'leads.purchased' GROUP BY 1",
    );
    expect(paidOrders.map((id) => purchased.get(id))).toEqual(paidOrders.map(() => 1));

    // Every e-mail once, across both workers.
    await waitFor('the 40 e-mails', async () => (await readdir(mailDir)).filter((f) => commands.some((c) => f.includes(c.id))).length === 40, { timeoutMs: 30_000 });
    const { rows: logged } = await catalogPool.query<{ command_id: string; state: string }>(
      'SELECT command_id::text, state FROM notifications.email_log WHERE command_id = ANY($1::uuid[])',
      [commands.map((c) => c.id)],
    );
    expect(logged).toHaveLength(40);
    expect(new Set(logged.map((r) => r.command_id)).size).toBe(40);
    const files = await readdir(mailDir);
    for (const c of commands) expect(files.filter((f) => f.includes(c.id))).toHaveLength(1);
    const sentBy = new Set(lines.filter((l) => l.msg === 'email written to ' + String(l.location)).map((l) => l.replica));
    expect(sentBy).toEqual(new Set(['notifications-1', 'notifications-2']));

    // The reservation sweep runs in both catalogs; each reservation ends once.
    offsetMs += 16 * 60_000;
    await waitFor('the unpaid reservations expired', async () => {
      const { rows } = await catalogPool.query<{ n: number }>("SELECT count(*) AS n FROM lead_reservations WHERE order_id = ANY($1::uuid[]) AND status = 'expired'", [unpaidOrders]);
      return rows[0]!.n === unpaidOrders.length;
    }, { timeoutMs: 20_000 });
    // Both sweepers run again after that: two more sweeps each, so the second began after the expiry was seen.
    const expiredSeenAt = lines.length;
    const SWEEP_ENDS = new Set(['unpaid reservations released', 'reservation sweep released nothing']);
    await waitFor('both catalogs swept twice more', () =>
      ['catalog-1', 'catalog-2'].every((replica) => lines.slice(expiredSeenAt).filter((l) => l.replica === replica && SWEEP_ENDS.has(String(l.msg))).length >= 2),
    { timeoutMs: 20_000 });
    const released = lines.filter((l) => l.msg === 'unpaid reservations released').reduce((sum, l) => sum + Number(l.released), 0);
    expect(released).toBe(unpaidOrders.length);

    // Bus retention: once in its (hourly) period per schema, by one replica of two.
    const pruned = lines.filter((l) => l.msg === 'periodic task ran' && l.task === 'bus-retention');
    for (const schema of ['catalog', 'orders', 'notifications']) {
      expect(pruned.filter((l) => l.schema === schema)).toHaveLength(1);
    }
  }, 180_000);
});
