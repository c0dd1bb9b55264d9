import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceSigner } from '@warmline/platform/http/identity';
import {
  CALLBACK_ALL_FIELDS_REQUIRED_MESSAGE,
  CALLBACK_PHONE_MESSAGE,
  CALLBACK_STATE_INPUT_MESSAGE,
  CALLBACK_STATE_MESSAGE,
  COMMANDS_EXCHANGE,
  type CallbackOpportunity,
  type CommandData,
  type Envelope,
  type EventData,
  type MyCallbacks,
  type UsStateCode,
  quotePackage,
} from '@warmline/contracts';
import { createLogger, type Identity } from '@warmline/platform';
import { withTransaction } from '@warmline/platform/db/index';
import { freePort, TEST_AMQP_URL, waitFor } from '@warmline/platform/testing/index';
import { startGatewayFixture, type GatewayFixture } from '../../gateway/test/gateway-fixture';
import { httpGatewayClient, type GatewayClient } from '../src/clients/gateway-client';
import { httpOrdersClient } from '../src/clients/orders-client';
import { insertTransferOrder } from '../../orders/src/db/transfer-orders';
import { insertPackageOrder, markOrderPaid } from '../../orders/src/db/orders';
import { createVendorOpportunity } from '../src/callbacks/domain/callbacks';
import { creditCallBacksOrder } from '../src/callbacks/domain/my-callbacks';
import { callBacksPaid, phoneIn, startCatalogFixture, testEnvelope, vendorCall, type CatalogFixture } from './catalog-fixture';

/**
 * Callback opportunities and the agents' call-backs (issue 15), against real PostgreSQL and
 * RabbitMQ: the ingestion service's commands arrive on catalog.callbacks, payments of Call-Backs
 * orders on catalog.lead-payments, and agents' e-mails and survey states come from the real
 * gateway's internal users endpoint.
 */

let fx: CatalogFixture;
let gw: GatewayFixture;
let connection: amqp.ChannelModel;
let channel: amqp.ConfirmChannel;

beforeAll(async () => {
  const catalogPort = await freePort();
  gw = await startGatewayFixture({ env: { CATALOG_URL: `http://127.0.0.1:${catalogPort}` } });
  fx = await startCatalogFixture({ GATEWAY_INTERNAL_URL: gw.internalUrl, CATALOG_PORT: String(catalogPort) });
  connection = await amqp.connect(TEST_AMQP_URL);
  channel = await connection.createConfirmChannel();
});

afterAll(async () => {
  await connection?.close();
  await fx?.cleanup();
  await gw?.cleanup();
});

const HOUR_MS = 3_600_000;

function admin(): Identity {
  return { userId: randomUUID(), username: `admin_${randomUUID().slice(0, 6)}`, isAdmin: true };
}

interface TestAgent {
  identity: Identity;
  email: string;
  userId: string;
}

/** An agent with an account at the gateway; `workingStates` as their latest survey says them. */
async function agentAccount(options: { firstName?: string; workingStates?: string } = {}): Promise<TestAgent & { username: string; password: string }> {
  const { user, password } = await gw.createAgent({ firstName: options.firstName ?? 'Casey' });
  if (options.workingStates !== undefined) {
    await gw.pool.query(
      `INSERT INTO survey_responses (user_id, funnel, brand, salesperson, first_name, last_name, agency_name, role, phone, email,
                                     username, lead_type, working_states)
       VALUES ($1, 'ringcloud', 'RingCloud', 'RingCloud', 'Casey', 'Agent', 'Agency', 'Insurance Agent', '5125550100', $2, $3, 'Call-Backs', $4)`,
      [user.id, user.email, user.username, options.workingStates],
    );
  }
  return { identity: { userId: user.id, username: user.username, isAdmin: false }, email: user.email, userId: user.id, username: user.username, password };
}

async function publish(exchange: string, message: Envelope<unknown>): Promise<void> {
  await new Promise<void>((resolve, reject) =>
    channel.publish(`${fx.namespace}.${exchange}`, message.type, Buffer.from(JSON.stringify(message)), { persistent: true, contentType: 'application/json', messageId: message.id }, (err: unknown) =>
      err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(),
    ),
  );
}

/** Sends the command as the ingestion service's relay would, and waits until it made its opportunity. */
async function sendVendorCall(call: CommandData<'callback_opportunity.create'>): Promise<OpportunityRow> {
  await publish(COMMANDS_EXCHANGE, testEnvelope('callback_opportunity.create', call, 'ingestion'));
  let found: OpportunityRow | undefined;
  await waitFor(`opportunity of call ${call.callbackId}`, async () => {
    found = (await opportunitiesOfCall(call.callbackId))[0];
    return found !== undefined;
  });
  return found!;
}

interface OpportunityRow {
  id: string;
  state: string | null;
  status: string;
  source: string;
  assigned_user_id: string | null;
  expires_at: Date;
}

async function opportunitiesOfCall(callbackId: string): Promise<OpportunityRow[]> {
  const { rows } = await fx.pool.query<OpportunityRow>(
    'SELECT id, state, status, source, assigned_user_id, expires_at FROM callback_opportunities WHERE callback_id = $1',
    [callbackId],
  );
  return rows;
}

async function opportunity(id: string): Promise<OpportunityRow> {
  const { rows } = await fx.pool.query<OpportunityRow>('SELECT id, state, status, source, assigned_user_id, expires_at FROM callback_opportunities WHERE id = $1', [id]);
  return rows[0]!;
}

async function balanceOf(userId: string): Promise<{ balance: number; states: string[] } | null> {
  const { rows } = await fx.pool.query<{ balance: number; states: string[] }>('SELECT balance, states FROM callback_balances WHERE user_id = $1', [userId]);
  return rows[0] ?? null;
}

/** Publishes the payment and waits until the catalog handled it (processed_events). */
async function pay(payment: Envelope<EventData<'payment.succeeded'>>): Promise<void> {
  await fx.publishEvent(payment);
  await waitFor(`payment ${payment.id} handled`, async () => {
    const { rows } = await fx.pool.query('SELECT 1 FROM processed_events WHERE event_id = $1', [payment.id]);
    return rows.length === 1;
  });
}

async function addByHand(body: Record<string, unknown>, path = '/api/callback-opportunities') {
  return fx.call('POST', path, { body, identity: admin() });
}

async function list(query: string): Promise<{ items: CallbackOpportunity[]; total: number; status: number }> {
  const answer = await fx.call('GET', `/api/callback-opportunities${query}`, { identity: admin() });
  return { status: answer.status, items: answer.status === 200 ? (JSON.parse(answer.text) as CallbackOpportunity[]) : [], total: Number(answer.headers.get('x-total-count')) };
}

/** Each state is used by one test only, so balances and opportunities of the others do not meet. */
describe('opportunities from vendor calls', () => {
  it('when the same call arrives twice, then it becomes one opportunity, priced 15.00, from the vendor', async () => {
    const call = vendorCall({ state: 'AK', phone: phoneIn('907') });
    const command = testEnvelope('callback_opportunity.create', call, 'ingestion');

    await publish(COMMANDS_EXCHANGE, command);
    await publish(COMMANDS_EXCHANGE, command);
    await publish(COMMANDS_EXCHANGE, { ...command, id: randomUUID() });
    await waitFor('three deliveries handled', async () => {
      const { rows } = await fx.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM processed_events WHERE consumer = 'catalog.callbacks' AND event_id = ANY($1::uuid[])", [[command.id]]);
      return rows[0]!.n === 1;
    });
    await sendVendorCall(call);

    const rows = await opportunitiesOfCall(call.callbackId);
    expect(rows).toHaveLength(1);
    const { rows: detail } = await fx.pool.query('SELECT price_cents, source, vendor_name, transcript FROM callback_opportunities WHERE callback_id = $1', [call.callbackId]);
    expect(detail[0]).toEqual({ price_cents: 1500, source: 'vendor', vendor_name: 'Acme Voice', transcript: call.transcript });
  });

  it("when the vendor names the state, gives none, or nothing says it, then it is the named state, the area code's, or none (waiting for an admin)", async () => {
    const named = await sendVendorCall(vendorCall({ state: '  new   mexico ', phone: phoneIn('512') }));
    const byCode = await sendVendorCall(vendorCall({ state: 'nm', phone: phoneIn('512') }));
    const fromAreaCode = await sendVendorCall(vendorCall({ state: null, phone: phoneIn('505') }));
    const notAState = await sendVendorCall(vendorCall({ state: 'Atlantis', phone: phoneIn('575') }));
    const unknown = await sendVendorCall(vendorCall({ state: null, phone: phoneIn('800') }));

    expect([named.state, byCode.state, fromAreaCode.state, notAState.state, unknown.state]).toEqual(['NM', 'NM', 'NM', 'NM', null]);
    expect(unknown.status).toBe('available');
    const waiting = await list('?state=NONE&source=vendor');
    expect(waiting.items.map((o) => o.id)).toContain(unknown.id);
    expect(waiting.items.every((o) => o.state === null)).toBe(true);
  });

  it('when a call says do-not-call, then the phone is on the suppression list, once', async () => {
    const phone = phoneIn('512');
    const add = (callbackId: string) =>
      testEnvelope('lead_suppression.add', { phone, reason: "Vendor call outcome 'dnc' (Acme Voice)", callbackId, requestedAt: new Date().toISOString() }, 'ingestion');
    const first = add(randomUUID());
    const second = add(randomUUID());

    await publish(COMMANDS_EXCHANGE, first);
    await publish(COMMANDS_EXCHANGE, second);
    await waitFor('both handled', async () => {
      const { rows } = await fx.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM processed_events WHERE event_id = ANY($1::uuid[])', [[first.id, second.id]]);
      return rows[0]!.n === 2;
    });

    const { rows } = await fx.pool.query('SELECT reason FROM lead_suppressions WHERE phone = $1', [phone]);
    expect(rows).toEqual([{ reason: "Vendor call outcome 'dnc' (Acme Voice)" }]);
  });
});

describe('opportunities added by an admin', () => {
  it('when the manual form misses a field or has a bad phone, state or price, then 400 with the form’s message; when it is whole, then 201 on both paths', async () => {
    const whole = { firstName: 'Ann', lastName: 'Lee', phone: '(307) 555-0101', state: 'wy', price: '12.50' };

    const missing = await addByHand({ ...whole, lastName: ' ' });
    const badPhone = await addByHand({ ...whole, phone: '555-0101' });
    const badState = await addByHand({ ...whole, state: 'ZZ' });
    const longState = await addByHand({ ...whole, state: 'Wyo' });
    const badPrice = await addByHand({ ...whole, price: '-3' });
    const created = await addByHand(whole);
    const createdToo = await addByHand({ ...whole, phone: '(307) 555-0102' }, '/api/admin/callback-opportunities');

    expect([missing.status, badPhone.status, badState.status, longState.status, badPrice.status]).toEqual([400, 400, 400, 400, 400]);
    expect(missing.body.error).toBe(CALLBACK_ALL_FIELDS_REQUIRED_MESSAGE);
    expect(badPhone.body.error).toBe(CALLBACK_PHONE_MESSAGE);
    expect(badState.body.error).toBe(CALLBACK_STATE_INPUT_MESSAGE);
    expect(longState.body.error).toBe(CALLBACK_STATE_INPUT_MESSAGE);
    expect(String(badPrice.body.error)).toMatch(/^Price must be/);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ firstName: 'Ann', lastName: 'Lee', phone: '3075550101', state: 'WY', price: '12.50', source: 'manual', status: 'available' });
    expect(createdToo.status).toBe(201);
    const audited = (await fx.outbox('audit.record')).filter((e) => e.data.subjectId === created.body.id);
    expect(audited.map((e) => e.data.action)).toEqual(['callback_opportunity.created']);
  });

  it('when a CSV has good and bad rows, then the good ones are created and each bad one is named with its field and its row in the file', async () => {
    const answer = await fx.call('POST', '/api/callback-opportunities/bulk', {
      identity: admin(),
      body: {
        csvData: [
          { firstName: 'Bo', lastName: 'Diaz', phone: '802-555-0111', state: 'vt', price: '' },
          { firstName: 'Cy', lastName: 'Eng', phone: 8025550112, state: 'VT', price: 9 },
          { firstName: '', lastName: 'Fox', phone: '802-555-0113', state: 'VT' },
          { firstName: 'Di', lastName: 'Gee', phone: '555', state: 'Vermont', price: 'ten' },
        ],
      },
    });

    expect(answer.status).toBe(200);
    expect(answer.body.created).toBe(2);
    // Row 1 is the header, as a lead import counts rows.
    expect(answer.body.rejected).toEqual([
      { row: 4, field: 'firstName', message: CALLBACK_ALL_FIELDS_REQUIRED_MESSAGE },
      { row: 5, field: 'phone', message: CALLBACK_PHONE_MESSAGE },
      { row: 5, field: 'price', message: expect.stringMatching(/^Price must be/) },
    ]);
    const vt = await list('?state=VT&source=csv');
    expect(vt.items.map((o) => [o.firstName, o.price]).sort()).toEqual([['Bo', '15.00'], ['Cy', '9.00']]);
  });

  it('when a CSV has more rows than one statement takes, then all of them are created', async () => {
    const rows = Array.from({ length: 1200 }, (_, i) => ({ firstName: `M${i}`, lastName: 'Many', phone: `406${String(5_000_000 + i)}`, state: 'MT', price: '15.00' }));

    const answer = await fx.call('POST', '/api/callback-opportunities/bulk', { identity: admin(), body: { csvData: rows } });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ created: 1200, rejected: [] });
    expect((await list('?state=MT')).total).toBe(1200);
  });

  it('when the body is not rows or too many, then 400 and nothing is created', async () => {
    const notRows = await fx.call('POST', '/api/callback-opportunities/bulk', { identity: admin(), body: { csvData: 'First Name,Last Name' } });
    const none = await fx.call('POST', '/api/callback-opportunities/bulk', { identity: admin(), body: { csvData: [] } });

    expect(notRows.status).toBe(400);
    expect(notRows.body.error).toBe('csvData must be a list of rows');
    expect(none.status).toBe(400);
  });

  it('when the list is filtered and paged, then 50 a page, newest first, with the total in X-Total-Count', async () => {
    const rows = Array.from({ length: 55 }, (_, i) => ({ firstName: `P${i}`, lastName: 'Page', phone: `701555${String(1000 + i)}`, state: 'ND' }));
    expect((await fx.call('POST', '/api/callback-opportunities/bulk', { identity: admin(), body: { csvData: rows } })).body.created).toBe(55);
    const newest = await addByHand({ firstName: 'Newest', lastName: 'Page', phone: '7015559999', state: 'ND', price: 15 });

    const first = await list('?state=nd&status=available');
    const second = await list('?state=ND&status=available&page=2');
    const manual = await list('?state=ND&source=manual');
    const bad = await list('?status=sold');

    expect(first.status).toBe(200);
    expect(first.total).toBe(56);
    expect(first.items).toHaveLength(50);
    expect(first.items[0]!.id).toBe(newest.body.id);
    expect(second.items).toHaveLength(6);
    expect(new Set([...first.items, ...second.items].map((o) => o.id)).size).toBe(56);
    expect(manual.items.map((o) => o.firstName)).toEqual(['Newest']);
    expect(first.items[0]!.expiresAt).toBe(new Date(new Date(first.items[0]!.createdAt).getTime() + 72 * HOUR_MS).toISOString());
    expect(bad.status).toBe(400);
  });
});

describe('delivering call-backs to agents', () => {
  it('when a Call-Backs order is paid (twice heard of), then its buyer is credited once, in their survey states, and an anonymous order credits nobody', async () => {
    const agent = await agentAccount({ workingStates: 'Maine, NH' });
    const payment = callBacksPaid(agent.userId, 3);

    await pay(payment);
    await pay({ ...payment, id: randomUUID() });
    await pay(callBacksPaid(null, 5));

    expect(await balanceOf(agent.userId)).toEqual({ balance: 3, states: ['ME', 'NH'] });
    const { rows } = await fx.pool.query('SELECT count(*)::int AS n FROM callback_credits WHERE user_id IS NULL');
    expect(rows[0]).toEqual({ n: 0 });
  });

  it('when the buyer’s survey named no states, then they start in the states of their latest transfer order that was not cancelled', async () => {
    const agent = await agentAccount({ workingStates: '' });
    const transferOrder = (states: UsStateCode[], at: string) => ({
      id: randomUUID(),
      userId: agent.userId,
      firstName: 'Casey',
      lastName: 'Agent',
      phone: '5125550100',
      email: agent.email,
      transferNumber: '5125550199',
      totalTransfers: 10,
      transfersPerDay: 5,
      transferHours: '9am-5pm CST',
      selectedStates: states,
      unitPriceCents: 3500,
      totalCents: 35000,
      description: 'Live transfers: 10 × $35.00',
      provider: 'sandbox' as const,
      at,
    });
    for (const order of [transferOrder(['AL'], '2026-11-01T12:00:00Z'), transferOrder(['MS', 'LA'], '2026-11-10T12:00:00Z'), transferOrder(['AR'], '2026-11-20T12:00:00Z')]) {
      await insertTransferOrder(fx.ordersPool, order);
      await fx.ordersPool.query('UPDATE transfer_orders SET created_at = $2 WHERE id = $1', [order.id, order.at]);
      if (order.selectedStates[0] === 'AR') await fx.ordersPool.query("UPDATE transfer_orders SET status = 'cancelled' WHERE id = $1", [order.id]);
    }

    await pay(callBacksPaid(agent.userId, 2));

    expect(await balanceOf(agent.userId)).toEqual({ balance: 2, states: ['LA', 'MS'] });
  });

  it('when opportunities arrive, then each goes to an agent with a balance in its state, oldest balance first, and stops at a zero balance', async () => {
    const older = await agentAccount({ firstName: 'Olive', workingStates: 'SD' });
    const younger = await agentAccount({ firstName: 'Yusuf', workingStates: 'SD, IA' });
    await pay(callBacksPaid(older.userId, 1));
    await pay(callBacksPaid(younger.userId, 1));

    const elsewhere = await sendVendorCall(vendorCall({ state: 'SC' }));
    const first = await sendVendorCall(vendorCall({ state: 'SD', firstName: 'First' }));
    const second = await sendVendorCall(vendorCall({ state: 'SD', firstName: 'Second' }));
    const third = await sendVendorCall(vendorCall({ state: 'SD', firstName: 'Third' }));

    expect((await opportunity(elsewhere.id)).status).toBe('available');
    expect(await opportunity(first.id)).toMatchObject({ status: 'assigned', assigned_user_id: older.userId });
    expect(await opportunity(second.id)).toMatchObject({ status: 'assigned', assigned_user_id: younger.userId });
    expect((await opportunity(third.id)).status).toBe('available');
    expect((await balanceOf(older.userId))?.balance).toBe(0);
    expect((await balanceOf(younger.userId))?.balance).toBe(0);
    const assigned = (await fx.outbox('callback.assigned')).filter((e) => [first.id, second.id].includes(String(e.data.opportunityId)));
    expect(assigned.map((e) => e.data)).toEqual([
      expect.objectContaining({ opportunityId: first.id, agentUserId: older.userId, state: 'SD', source: 'vendor', priceCents: 1500, by: 'automatic', balanceLeft: 0 }),
      expect.objectContaining({ opportunityId: second.id, agentUserId: younger.userId, by: 'automatic', balanceLeft: 0 }),
    ]);
    const mail = (await fx.outbox('email.callback_assigned')).filter((e) => e.data.opportunityId === first.id);
    expect(mail.map((e) => e.data)).toEqual([
      expect.objectContaining({ to: older.email, firstName: 'Olive', prospectName: 'First Lopez', state: 'SD', balanceLeft: 0 }),
    ]);

    // A new credit takes what waited.
    await pay(callBacksPaid(younger.userId, 2));
    expect(await opportunity(third.id)).toMatchObject({ status: 'assigned', assigned_user_id: younger.userId });
    expect((await balanceOf(younger.userId))?.balance).toBe(1);
  });

  it('when 50 call commands are handled at once for 3 agents with 10 call-backs each, then 30 are assigned, each once, and 20 stay available', async () => {
    const agents = await Promise.all([0, 1, 2].map(() => agentAccount({ workingStates: 'KS' })));
    for (const a of agents) await pay(callBacksPaid(a.userId, 10));
    const gateway = httpGatewayClient({ baseUrl: gw.internalUrl, signer: serviceSigner('catalog', fx.config.CATALOG_SERVICE_KEY) });
    const log = createLogger('catalog', 'silent');
    const calls = Array.from({ length: 50 }, () => vendorCall({ state: 'Kansas', phone: phoneIn('316') }));

    await Promise.all(
      calls.map((call) => withTransaction(fx.pool, (db) => createVendorOpportunity(db, { log, clock: fx.now, gateway }, call, randomUUID()))),
    );

    const { rows } = await fx.pool.query<{ status: string; assigned_user_id: string | null }>(
      'SELECT status, assigned_user_id FROM callback_opportunities WHERE callback_id = ANY($1::uuid[])',
      [calls.map((c) => c.callbackId)],
    );
    expect(rows.filter((r) => r.status === 'assigned')).toHaveLength(30);
    expect(rows.filter((r) => r.status === 'available')).toHaveLength(20);
    for (const a of agents) {
      expect(rows.filter((r) => r.assigned_user_id === a.userId)).toHaveLength(10);
      expect((await balanceOf(a.userId))?.balance).toBe(0);
    }
    const events = (await fx.outbox('callback.assigned')).filter((e) => agents.some((a) => a.userId === e.data.agentUserId));
    expect(events).toHaveLength(30);
    expect(new Set(events.map((e) => e.data.opportunityId)).size).toBe(30);
  });

  it('when 50 payments of the same agent are handled at once with 20 opportunities waiting, then each is assigned once and the rest of the balance stays', async () => {
    const agent = await agentAccount({ workingStates: 'Oregon' });
    const waiting = await Promise.all(Array.from({ length: 20 }, () => sendVendorCall(vendorCall({ state: 'OR', phone: phoneIn('503') }))));
    const gateway = httpGatewayClient({ baseUrl: gw.internalUrl, signer: serviceSigner('catalog', fx.config.CATALOG_SERVICE_KEY) });
    const orders = httpOrdersClient({ baseUrl: fx.orders.url, signer: serviceSigner('catalog', fx.config.CATALOG_SERVICE_KEY) });
    const log = createLogger('catalog', 'silent');

    await Promise.all(
      Array.from({ length: 50 }, () =>
        withTransaction(fx.pool, (db) => creditCallBacksOrder(db, { log, clock: fx.now, gateway, orders }, callBacksPaid(agent.userId, 1).data, randomUUID())),
      ),
    );

    const statuses = await Promise.all(waiting.map((w) => opportunity(w.id)));
    expect(statuses.every((o) => o.status === 'assigned' && o.assigned_user_id === agent.userId)).toBe(true);
    expect((await balanceOf(agent.userId))?.balance).toBe(30);
    const events = (await fx.outbox('callback.assigned')).filter((e) => e.data.agentUserId === agent.userId);
    expect(events).toHaveLength(20);
  });

  it('when the gateway is down during an assignment, then the opportunity is still created, and the sweep assigns it later', async () => {
    const agent = await agentAccount({ workingStates: 'Nebraska' });
    await pay(callBacksPaid(agent.userId, 1));
    const down: GatewayClient = { userContact: async () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:3100')) };
    const call = vendorCall({ state: 'NE', phone: phoneIn('402') });

    await withTransaction(fx.pool, (db) => createVendorOpportunity(db, { log: createLogger('catalog', 'silent'), clock: fx.now, gateway: down }, call, randomUUID()));
    const [created] = await opportunitiesOfCall(call.callbackId);
    expect(created).toMatchObject({ status: 'available', state: 'NE' });

    await fx.catalog.sweepCallbackOpportunities();

    expect(await opportunity(created!.id)).toMatchObject({ status: 'assigned', assigned_user_id: agent.userId });
  });

  it('when an admin assigns one by hand, then it is the agent’s; a second time 409, an unknown agent 404; a waiting one gets its state from PATCH', async () => {
    const agent = await agentAccount();
    const created = await addByHand({ firstName: 'Hand', lastName: 'Made', phone: '4015550123', state: 'RI', price: '15' });
    const id = String(created.body.id);

    const ghost = await fx.call('POST', `/api/callback-opportunities/${id}/assign`, { identity: admin(), body: { userId: randomUUID() } });
    const assigned = await fx.call('POST', `/api/callback-opportunities/${id}/assign`, { identity: admin(), body: { userId: agent.userId } });
    const again = await fx.call('POST', `/api/callback-opportunities/${id}/assign`, { identity: admin(), body: { userId: agent.userId } });
    const badId = await fx.call('POST', '/api/callback-opportunities/nope/assign', { identity: admin(), body: { userId: agent.userId } });

    expect(ghost.status).toBe(404);
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({ status: 'assigned', assignedUserId: agent.userId });
    expect(again.status).toBe(409);
    expect(badId.status).toBe(404);
    expect(badId.body.error).toBe('Callback opportunity not found');
    const mail = (await fx.outbox('email.callback_assigned')).filter((e) => e.data.opportunityId === id);
    expect(mail.map((e) => e.data.to)).toEqual([agent.email]);

    const waiting = await sendVendorCall(vendorCall({ state: null, phone: phoneIn('800') }));
    const badState = await fx.call('PATCH', `/api/callback-opportunities/${waiting.id}`, { identity: admin(), body: { state: 'XX' } });
    const given = await fx.call('PATCH', `/api/callback-opportunities/${waiting.id}`, { identity: admin(), body: { state: 'ri' } });
    expect(badState.status).toBe(400);
    expect(given.status).toBe(200);
    expect(given.body.state).toBe('RI');
    const audit = (await fx.outbox('audit.record')).filter((e) => e.data.subjectId === id || e.data.subjectId === waiting.id).map((e) => e.data.action);
    expect(audit.sort()).toEqual(['callback_opportunity.assigned', 'callback_opportunity.created', 'callback_opportunity.state_set']);
  });
});

describe('My Call-backs', () => {
  it('when an agent lists, marks contacted and changes states, then they see their own call-backs and balance, and another agent’s is not found', async () => {
    const agent = await agentAccount({ workingStates: 'Utah' });
    const other = await agentAccount();
    await pay(callBacksPaid(agent.userId, 2));
    const call = vendorCall({ state: 'UT', firstName: 'Uma', lastName: 'Tate', phone: phoneIn('801'), callbackTime: '2030-01-02T15:00:00.000Z' });
    const delivered = await sendVendorCall(call);
    const inIdaho = await sendVendorCall(vendorCall({ state: 'ID', phone: phoneIn('208') }));

    const mine = await fx.call('GET', '/api/my-callbacks', { identity: agent.identity });
    const theirs = await fx.call('PATCH', `/api/my-callbacks/${delivered.id}`, { identity: other.identity, body: { status: 'contacted' } });
    const wrongStatus = await fx.call('PATCH', `/api/my-callbacks/${delivered.id}`, { identity: agent.identity, body: { status: 'assigned' } });
    const contacted = await fx.call('PATCH', `/api/my-callbacks/${delivered.id}`, { identity: agent.identity, body: { status: 'contacted' } });
    const badStates = await fx.call('PUT', '/api/my-callbacks-states', { identity: agent.identity, body: { states: ['UT', 'Atlantis'] } });
    const states = await fx.call('PUT', '/api/my-callbacks-states', { identity: agent.identity, body: { states: ['id', 'UT', 'ID'] } });
    const anonymous = await fx.call('GET', '/api/my-callbacks');

    expect(mine.status).toBe(200);
    const body = mine.body as unknown as MyCallbacks;
    expect(body.balance).toBe(1);
    expect(body.states).toEqual(['UT']);
    expect(body.callbacks).toEqual([
      expect.objectContaining({ id: delivered.id, fullName: 'Uma Tate', phone: call.phone, state: 'UT', callbackTime: '2030-01-02T15:00:00.000Z', transcript: call.transcript, callOutcome: 'callback_requested', status: 'assigned' }),
    ]);
    expect(theirs.status).toBe(404);
    expect(wrongStatus.status).toBe(400);
    expect(contacted.status).toBe(200);
    expect(contacted.body.status).toBe('contacted');
    expect(badStates.status).toBe(400);
    expect(badStates.body.error).toBe(CALLBACK_STATE_MESSAGE);
    expect(states.status).toBe(200);
    // Choosing Idaho delivers the one waiting there, with the last of the balance.
    expect((states.body as unknown as MyCallbacks).states).toEqual(['ID', 'UT']);
    expect((states.body as unknown as MyCallbacks).balance).toBe(0);
    expect(await opportunity(inIdaho.id)).toMatchObject({ status: 'assigned', assigned_user_id: agent.userId });
    expect(anonymous.status).toBe(401);
  });

  it('when an agent without a balance opens My Call-backs, then it shows a zero balance and their survey states', async () => {
    const agent = await agentAccount({ workingStates: 'Texas, Oklahoma' });

    const mine = await fx.call('GET', '/api/my-callbacks', { identity: agent.identity });

    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({ balance: 0, pending: [], states: ['OK', 'TX'], callbacks: [] });
  });

  it('when a Call-Backs order is paid and the catalog has not credited it yet, then My Call-backs names it as on its way, and once credited it is in the balance only (issue 22)', async () => {
    const agent = await agentAccount({ workingStates: 'Vermont' });
    const other = await agentAccount();
    // Orders has taken the payment; its payment.succeeded has not reached the catalog yet.
    const payment = callBacksPaid(agent.userId, 12);
    const order = await insertPackageOrder(fx.ordersPool, {
      id: payment.data.orderId,
      quote: quotePackage({ tier: 'ringcloud', leadType: 'Call-Backs', count: 12 }),
      states: null,
      buyerUserId: agent.userId,
      billing: undefined,
      idempotencyKey: undefined,
      provider: 'sandbox',
    });
    const paid = await markOrderPaid(fx.ordersPool, order!.id);
    // An order still unpaid is nothing on its way.
    await insertPackageOrder(fx.ordersPool, {
      id: randomUUID(),
      quote: quotePackage({ tier: 'ringcloud', leadType: 'Call-Backs', count: 20 }),
      states: null,
      buyerUserId: agent.userId,
      billing: undefined,
      idempotencyKey: undefined,
      provider: 'sandbox',
    });

    // One paid and then refunded in full is nothing on its way either.
    const refunded = await insertPackageOrder(fx.ordersPool, {
      id: randomUUID(),
      quote: quotePackage({ tier: 'ringcloud', leadType: 'Call-Backs', count: 30 }),
      states: null,
      buyerUserId: agent.userId,
      billing: undefined,
      idempotencyKey: undefined,
      provider: 'sandbox',
    });
    await markOrderPaid(fx.ordersPool, refunded!.id);
    await fx.ordersPool.query('UPDATE package_orders SET refunded_cents = amount_cents WHERE id = $1', [refunded!.id]);
    // WarmLine's own Call-Backs, bought from the dashboard (tier 'callbacks'), are on their way too.
    const warmline = await insertPackageOrder(fx.ordersPool, {
      id: randomUUID(),
      quote: quotePackage({ tier: 'callbacks', count: 5 }),
      states: null,
      buyerUserId: agent.userId,
      billing: undefined,
      idempotencyKey: undefined,
      provider: 'sandbox',
    });
    const warmlinePaid = await markOrderPaid(fx.ordersPool, warmline!.id);

    const before = (await fx.call('GET', '/api/my-callbacks', { identity: agent.identity })).body as unknown as MyCallbacks;
    const othersView = (await fx.call('GET', '/api/my-callbacks', { identity: other.identity })).body as unknown as MyCallbacks;
    await pay(payment);
    const after = (await fx.call('GET', '/api/my-callbacks', { identity: agent.identity })).body as unknown as MyCallbacks;

    expect(before).toMatchObject({ balance: 0 });
    expect(before.pending).toEqual([
      { orderId: warmline!.id, count: 5, paidAt: warmlinePaid.paidAt!.toISOString() },
      { orderId: order!.id, count: 12, paidAt: paid.paidAt!.toISOString() },
    ]);
    expect(othersView.pending).toEqual([]);
    // Credited: in the balance (less any delivered at once to call-backs waiting in Vermont), no longer pending.
    expect(after.pending).toEqual([{ orderId: warmline!.id, count: 5, paidAt: warmlinePaid.paidAt!.toISOString() }]);
    expect(after.balance + after.callbacks.length).toBe(12);
  });
});

describe('admin routes', () => {
  it('when a customer calls any admin route, directly or through the gateway, then 403 and nothing changes', async () => {
    const customer = await agentAccount();
    const id = randomUUID();
    const routes: Array<[string, string, unknown]> = [
      ['GET', '/api/callback-opportunities', undefined],
      ['POST', '/api/callback-opportunities', { firstName: 'A', lastName: 'B', phone: '5125550100', state: 'TX', price: '1' }],
      ['POST', '/api/admin/callback-opportunities', { firstName: 'A', lastName: 'B', phone: '5125550100', state: 'TX', price: '1' }],
      ['POST', '/api/callback-opportunities/bulk', { csvData: [{ firstName: 'A', lastName: 'B', phone: '5125550100', state: 'TX' }] }],
      ['PATCH', `/api/callback-opportunities/${id}`, { state: 'TX' }],
      ['POST', `/api/callback-opportunities/${id}/assign`, { userId: customer.userId }],
    ];
    const browser = gw.browser();
    await browser.login(customer.username, customer.password);

    for (const [method, path, body] of routes) {
      const direct = await fx.call(method, path, { identity: customer.identity, ...(body === undefined ? {} : { body }) });
      const viaGateway = await browser.request(method, path, { ...(body === undefined ? {} : { json: body }), headers: { 'x-requested-with': 'XMLHttpRequest' } });
      expect([method, path, direct.status, viaGateway.status]).toEqual([method, path, 403, 403]);
    }
    const { rows } = await fx.pool.query("SELECT 1 FROM callback_opportunities WHERE first_name = 'A' AND last_name = 'B'");
    expect(rows).toEqual([]);
  });
});

describe('expiry', () => {
  it('when 72 hours pass after the callback time (or creation) unassigned, then the sweep marks it expired; an assigned one stays', async () => {
    const past = await sendVendorCall(vendorCall({ state: 'DE', phone: phoneIn('302'), callbackTime: new Date(fx.now().getTime() - 73 * HOUR_MS).toISOString() }));
    const fresh = await addByHand({ firstName: 'Fresh', lastName: 'One', phone: '3025550100', state: 'DE', price: 15 });
    const agent = await agentAccount({ workingStates: 'WV' });
    await pay(callBacksPaid(agent.userId, 1));
    const taken = await sendVendorCall(vendorCall({ state: 'WV', phone: phoneIn('304') }));

    expect((await fx.catalog.sweepCallbackOpportunities()).expired).toBeGreaterThanOrEqual(1);
    expect((await opportunity(past.id)).status).toBe('expired');
    expect((await opportunity(String(fresh.body.id))).status).toBe('available');

    fx.advance(72 * HOUR_MS + 60_000);
    await fx.catalog.sweepCallbackOpportunities();

    expect((await opportunity(String(fresh.body.id))).status).toBe('expired');
    expect((await opportunity(taken.id)).status).toBe('assigned');
    const expired = await list('?status=expired&state=DE');
    expect(expired.items.map((o) => o.id).sort()).toEqual([past.id, String(fresh.body.id)].sort());
  });
});
