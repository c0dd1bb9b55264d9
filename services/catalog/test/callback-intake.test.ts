import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceSigner } from '@warmline/platform/http/identity';
import {
  CALLBACK_DUPLICATE_OPEN_MESSAGE,
  CALLBACK_EXPORT_COLUMNS,
  CALLBACK_SUPPRESSED_MESSAGE,
  type CallbackAgent,
  type CallbackOpportunity,
  type CommandData,
  type Envelope,
  type EventData,
} from '@warmline/contracts';
import { createLogger, type Identity } from '@warmline/platform';
import { withTransaction } from '@warmline/platform/db/index';
import { waitFor } from '@warmline/platform/testing/index';
import type { GatewayFixture } from '../../gateway/test/gateway-fixture';
import { httpGatewayClient } from '../src/clients/gateway-client';
import { createVendorOpportunity, suppressVendorPhone } from '../src/callbacks/domain/callbacks';
import { callBackAgent, startCallBackSystem } from './call-back-system';
import { callBacksPaid, phoneIn, vendorCall, type CatalogFixture } from './catalog-fixture';

/**
 * Issue 22: what comes in as a callback opportunity — a suppressed phone never becomes one (or
 * stays one), a phone is one open opportunity sold once, junk area codes are refused, and the
 * manual form and the CSV follow one rule — against real PostgreSQL, RabbitMQ and the gateway.
 * Each test works in its own state, so balances and opportunities of the others do not meet.
 */

let fx: CatalogFixture;
let gw: GatewayFixture;

beforeAll(async () => {
  ({ fx, gw } = await startCallBackSystem());
});

afterAll(async () => {
  await fx?.cleanup();
  await gw?.cleanup();
});

const DAY_MS = 86_400_000;

function admin(): Identity {
  return { userId: randomUUID(), username: `admin_${randomUUID().slice(0, 6)}`, isAdmin: true };
}

function context() {
  return { log: createLogger('catalog', 'silent'), clock: fx.now, gateway: httpGatewayClient({ baseUrl: gw.internalUrl, signer: serviceSigner('catalog', fx.config.CATALOG_SERVICE_KEY) }) };
}

/** The catalog's handler of callback_opportunity.create, in its own transaction (as the consumer runs it). */
async function vendorCallArrives(call: CommandData<'callback_opportunity.create'>): Promise<void> {
  await withTransaction(fx.pool, (db) => createVendorOpportunity(db, context(), call, randomUUID()));
}

/** The catalog's handler of lead_suppression.add: a vendor call with call_outcome 'dnc'. */
async function dncCallArrives(phone: string): Promise<void> {
  await withTransaction(fx.pool, (db) =>
    suppressVendorPhone(db, context(), { phone, reason: "Vendor call outcome 'dnc' (Acme Voice)", callbackId: randomUUID(), requestedAt: new Date().toISOString() }, randomUUID()),
  );
}

interface Row {
  id: string;
  status: string;
  assigned_user_id: string | null;
  transcript: string | null;
  callback_time: Date | null;
  suppressed_at: Date | null;
  source: string;
}

async function opportunitiesOfPhone(phone: string): Promise<Row[]> {
  const { rows } = await fx.pool.query<Row>(
    'SELECT id, status, assigned_user_id, transcript, callback_time, suppressed_at, source FROM callback_opportunities WHERE phone = $1 ORDER BY created_at, id',
    [phone],
  );
  return rows;
}

async function pay(payment: Envelope<EventData<'payment.succeeded'>>): Promise<void> {
  await fx.publishEvent(payment);
  await waitFor(`payment ${payment.id} handled`, async () => {
    const { rows } = await fx.pool.query('SELECT 1 FROM processed_events WHERE event_id = $1', [payment.id]);
    return rows.length === 1;
  });
}

/** An agent who paid for `count` call-backs in `states`. */
async function agentWithBalance(states: string, count: number, firstName = 'Casey') {
  const agent = await callBackAgent(gw, states, firstName);
  await pay(callBacksPaid(agent.userId, count));
  return agent;
}

const addByHand = (body: Record<string, unknown>, path = '/api/callback-opportunities') => fx.call('POST', path, { body, identity: admin() });
const upload = (csvData: Array<Record<string, unknown>>) => fx.call('POST', '/api/callback-opportunities/bulk', { body: { csvData }, identity: admin() });

/** An opportunity as it could be stored before issue 22 (no check on the way in). */
async function legacyOpportunity(phone: string, state: string): Promise<string> {
  const id = randomUUID();
  await fx.pool.query(
    `INSERT INTO callback_opportunities (id, source, first_name, last_name, phone, state, price_cents, expires_at, created_at)
     VALUES ($1, 'csv', 'Old', 'Stock', $2, $3, 1500, now() + interval '3 days', now())`,
    [id, phone, state],
  );
  return id;
}

describe('a phone on the suppression list', () => {
  it("when a vendor call said 'dnc' and a later one asks for a call-back, then no opportunity is made: the call is recorded as suppressed and nobody receives it", async () => {
    const agent = await agentWithBalance('TX', 3);
    const phone = '5125556167';
    await fx.pool.query('DELETE FROM lead_suppressions WHERE phone = $1', [phone]);
    // An opportunity made before the phone was suppressed, waiting for an agent in another state.
    const before = await addByHand({ firstName: 'Early', lastName: 'Bird', phone, state: 'WY' });
    expect(before.status).toBe(201);

    await dncCallArrives(phone);
    await vendorCallArrives(vendorCall({ phone, state: 'TX' }));
    await vendorCallArrives(vendorCall({ phone, state: 'TX' }));

    const rows = await opportunitiesOfPhone(phone);
    expect(rows.map((r) => [r.status, r.assigned_user_id])).toEqual([
      ['suppressed', null],
      ['suppressed', null],
      ['suppressed', null],
    ]);
    expect(rows.every((r) => r.suppressed_at !== null)).toBe(true);
    const answer = await fx.call('GET', '/api/callback-opportunities?status=suppressed&source=vendor', { identity: admin() });
    const listed = (answer.body as unknown as CallbackOpportunity[]).filter((o) => o.phone === phone);
    expect(listed).toHaveLength(2);
    expect(listed[0]).toMatchObject({ status: 'suppressed', suppressedAt: expect.any(String) });
    const delivered = (await fx.outbox('callback.assigned')).filter((e) => e.data.agentUserId === agent.userId);
    expect(delivered).toHaveLength(0);
  });

  it('when an admin suppresses a phone, then its available opportunity is withdrawn; the form and the CSV refuse the phone afterwards', async () => {
    const phone = phoneIn('307');
    const made = await addByHand({ firstName: 'Wy', lastName: 'Oming', phone, state: 'WY' });
    expect(made.body.status).toBe('available');

    const suppressed = await fx.call('POST', '/api/admin/suppressions', { identity: admin(), body: { phone, reason: 'Asked not to be called' } });
    const byHand = await addByHand({ firstName: 'Again', lastName: 'Wy', phone, state: 'WY' });
    const csv = await upload([
      { firstName: 'Fine', lastName: 'Row', phone: phoneIn('307'), state: 'WY' },
      { firstName: 'Opted', lastName: 'Out', phone, state: 'WY' },
    ]);

    expect(suppressed.status).toBe(201);
    expect((await opportunitiesOfPhone(phone)).map((r) => r.status)).toEqual(['suppressed']);
    expect(byHand.status).toBe(409);
    expect(byHand.body.error).toBe(CALLBACK_SUPPRESSED_MESSAGE);
    expect(csv.body).toEqual({ created: 1, rejected: [{ row: 3, field: 'phone', message: CALLBACK_SUPPRESSED_MESSAGE }] });
  });

  it('when a phone delivered as a call-back is suppressed, then the agent is told to stop contacting it, as a buyer of its leads is', async () => {
    const agent = await agentWithBalance('KY', 1, 'Kim');
    const phone = phoneIn('502');
    await vendorCallArrives(vendorCall({ phone, state: 'KY', firstName: 'Kent', lastName: 'Tucky' }));
    const [delivered] = await opportunitiesOfPhone(phone);
    expect(delivered).toMatchObject({ status: 'assigned', assigned_user_id: agent.userId });

    const by = admin();
    const answer = await fx.call('POST', '/api/admin/suppressions', { identity: by, body: { phone, reason: 'Said stop' } });
    const notices = (await fx.outbox('lead_suppression.notify_buyer')).filter((e) => e.data.phone === phone);
    // The catalog's own consumer of the notice asks the gateway for the agent's e-mail and writes it.
    const mail = await waitFor('the opt-out notice', async () => {
      const found = (await fx.outbox('email.lead_opt_out')).filter((e) => e.correlationId === notices[0]?.correlationId);
      return found.length > 0 && found;
    }, { timeoutMs: 20_000 });

    expect(answer.body).toMatchObject({ buyersNotified: 1 });
    expect(notices.map((n) => n.data.buyerUserId)).toEqual([agent.userId]);
    expect(mail.map((e) => e.data)).toEqual([
      expect.objectContaining({
        leads: [],
        callbacks: [{ opportunityId: delivered!.id, name: 'Kent Tucky', phone: `(502) ${phone.slice(3, 6)}-${phone.slice(6)}`, deliveredAt: expect.any(String) }],
        reason: 'Said stop',
      }),
    ]);
  });

  it('when an available opportunity of a suppressed phone is left from before, then the assignment passes it over and an admin cannot assign it', async () => {
    const agent = await agentWithBalance('VT', 2);
    const phone = phoneIn('802');
    await fx.pool.query("INSERT INTO lead_suppressions (phone, reason, created_by_user_id, created_at) VALUES ($1, 'opted out', $2, now())", [phone, randomUUID()]);
    const id = await legacyOpportunity(phone, 'VT');

    await fx.catalog.sweepCallbackOpportunities();
    const byHand = await fx.call('POST', `/api/callback-opportunities/${id}/assign`, { identity: admin(), body: { userId: agent.userId } });

    expect((await opportunitiesOfPhone(phone)).map((r) => r.status)).toEqual(['available']);
    expect(byHand.status).toBe(409);
    expect(byHand.body.error).toBe(CALLBACK_SUPPRESSED_MESSAGE);
  });
});

describe('one prospect, one sale', () => {
  it('when the vendor calls twice for one phone, then the second call updates the open opportunity (callback time, transcript) instead of making a second', async () => {
    const phone = phoneIn('406');
    await vendorCallArrives(vendorCall({ phone, state: 'MT', transcript: 'First call.' }));
    await vendorCallArrives(vendorCall({ phone, state: 'MT', transcript: 'Second call: after 5 pm please.', callbackTime: '2026-12-01T23:00:00.000Z' }));

    const rows = await opportunitiesOfPhone(phone);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'available', transcript: 'Second call: after 5 pm please.', callback_time: new Date('2026-12-01T23:00:00.000Z') });
  });

  it('when the phone was delivered to an agent, then a later call updates that call-back and no second agent (nor the same one) receives it', async () => {
    const first = await agentWithBalance('ND', 5, 'First');
    const second = await agentWithBalance('ND', 5, 'Second');
    const phone = phoneIn('701');

    await vendorCallArrives(vendorCall({ phone, state: 'ND', transcript: 'Call one.' }));
    fx.advance(60_000);
    await vendorCallArrives(vendorCall({ phone, state: 'ND', transcript: 'Call two, a minute later.' }));
    await vendorCallArrives(vendorCall({ phone, state: 'ND', transcript: 'Call three.' }));

    const rows = await opportunitiesOfPhone(phone);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'assigned', assigned_user_id: first.userId, transcript: 'Call three.' });
    const delivered = (await fx.outbox('callback.assigned')).filter((e) => [first.userId, second.userId].includes(String(e.data.agentUserId)));
    expect(delivered).toHaveLength(1);
  });

  it('when two opportunities of one phone are left from before, then the agent who received the phone within 30 days does not receive it again, by the sweep or by hand', async () => {
    const phone = phoneIn('605');
    const had = await agentWithBalance('SD', 5, 'Had');
    const earlier = await legacyOpportunity(phone, 'SD');
    await fx.catalog.sweepCallbackOpportunities();
    expect((await opportunitiesOfPhone(phone))[0]).toMatchObject({ status: 'assigned', assigned_user_id: had.userId });
    fx.advance(10 * DAY_MS);
    const later = await legacyOpportunity(phone, 'SD');
    await fx.pool.query("UPDATE callback_opportunities SET expires_at = $2::timestamptz + interval '3 days' WHERE id = $1", [later, fx.now()]);

    await fx.catalog.sweepCallbackOpportunities();
    const byHand = await fx.call('POST', `/api/callback-opportunities/${later}/assign`, { identity: admin(), body: { userId: had.userId } });
    const other = await agentWithBalance('SD', 1, 'Other');

    expect(byHand.status).toBe(409);
    expect(byHand.body.error).toBe('This agent received this phone within the last 30 days');
    const rows = await opportunitiesOfPhone(phone);
    expect(rows.find((r) => r.id === earlier)?.assigned_user_id).toBe(had.userId);
    expect(rows.find((r) => r.id === later)).toMatchObject({ status: 'assigned', assigned_user_id: other.userId });
  });

  it('when the form or a CSV brings a phone that has an open opportunity, or a CSV has a phone twice, then those rows are refused as duplicates', async () => {
    const phone = phoneIn('207');
    const repeated = phoneIn('207');
    expect((await addByHand({ firstName: 'Open', lastName: 'One', phone, state: 'ME' })).status).toBe(201);

    const byHand = await addByHand({ firstName: 'Same', lastName: 'Phone', phone: `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`, state: 'ME' });
    const csv = await upload([
      { firstName: 'A', lastName: 'Row', phone: repeated, state: 'ME' },
      { firstName: 'B', lastName: 'Row', phone, state: 'ME' },
      { firstName: 'C', lastName: 'Row', phone: `+1 ${repeated}`, state: 'ME' },
    ]);

    expect(byHand.status).toBe(409);
    expect(byHand.body.error).toBe(CALLBACK_DUPLICATE_OPEN_MESSAGE);
    expect(csv.body).toEqual({
      created: 1,
      rejected: [
        { row: 3, field: 'phone', message: CALLBACK_DUPLICATE_OPEN_MESSAGE },
        { row: 4, field: 'phone', message: 'Duplicate: same phone as row 2' },
      ],
    });
    expect(await opportunitiesOfPhone(repeated)).toHaveLength(1);
  });
});

describe('junk area codes', () => {
  const JUNK = ['300', '400', '500', '600', '700', '800'];

  it('when the form, a CSV or the admin\'s single lead has a toll-free or non-geographic area code, then it is refused saying so', async () => {
    const byHand = await addByHand({ firstName: 'Toll', lastName: 'Free', phone: '(800) 555-0188', state: 'TX' });
    const csv = await upload(JUNK.map((code, i) => ({ firstName: `J${i}`, lastName: 'Unk', phone: `${code}5550${100 + i}`, state: 'TX' })));
    const lead = await fx.call('POST', '/api/admin/aged-leads', {
      identity: admin(),
      body: { name: 'Junk Lead', phone: '(500) 555-0143', state: 'TX', formFillTime: new Date(fx.now().getTime() - 40 * DAY_MS).toISOString() },
    });

    expect(byHand.status).toBe(400);
    expect(byHand.body.error).toBe('Area code 800 is not a US geographic area code (toll-free and non-geographic numbers are refused)');
    expect(csv.body.created).toBe(0);
    expect((csv.body.rejected as Array<{ row: number; message: string }>).map((r) => [r.row, r.message.slice(0, 13)])).toEqual(
      JUNK.map((code, i) => [i + 2, `Area code ${code}`]),
    );
    expect(lead.status).toBe(400);
    expect(lead.body.error).toBe('Area code 500 is not a US geographic area code (toll-free and non-geographic numbers are refused)');
  });
});

describe('one rule for the form and the CSV', () => {
  it('when the price is left out, then 15.00 on every path (no 500); a price over 100.00 is refused; a state may be named in full', async () => {
    const noPrice = await addByHand({ firstName: 'No', lastName: 'Price', phone: phoneIn('208'), state: 'Idaho' });
    const noPriceToo = await addByHand({ firstName: 'No', lastName: 'Price', phone: phoneIn('208'), state: 'ID' }, '/api/admin/callback-opportunities');
    const blank = await addByHand({ firstName: 'Blank', lastName: 'Price', phone: phoneIn('208'), state: 'ID', price: '' });
    const tooMuch = await addByHand({ firstName: 'Too', lastName: 'Much', phone: phoneIn('208'), state: 'ID', price: '99999' });
    const csv = await upload([
      { firstName: 'Csv', lastName: 'Name', phone: phoneIn('208'), state: 'idaho' },
      { firstName: 'Csv', lastName: 'Dear', phone: phoneIn('208'), state: 'ID', price: '100.01' },
    ]);

    expect([noPrice.status, noPriceToo.status, blank.status]).toEqual([201, 201, 201]);
    expect([noPrice.body.price, noPriceToo.body.price, blank.body.price]).toEqual(['15.00', '15.00', '15.00']);
    expect(noPrice.body.state).toBe('ID');
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error).toBe('Price must be dollars from 0.00 to 100.00 with at most two decimals, e.g. 15.00');
    expect(csv.body).toEqual({
      created: 1,
      rejected: [{ row: 3, field: 'price', message: 'Price must be dollars from 0.00 to 100.00 with at most two decimals, e.g. 15.00' }],
    });
  });
});

describe('the manual form, field by field (issue 26)', () => {
  it('when the price is null, then 15.00 as when it is left out; of the wrong type, then 400 with the price rule, on both paths', async () => {
    const nullPrice = await addByHand({ firstName: 'Null', lastName: 'Price', phone: phoneIn('208'), state: 'ID', price: null }, '/api/admin/callback-opportunities');
    const wrong = await Promise.all(
      [{}, [], true, '12abc'].flatMap((price) =>
        ['/api/callback-opportunities', '/api/admin/callback-opportunities'].map((path) => addByHand({ firstName: 'Wrong', lastName: 'Price', phone: phoneIn('208'), state: 'ID', price }, path)),
      ),
    );

    expect(nullPrice.status).toBe(201);
    expect(nullPrice.body.price).toBe('15.00');
    expect(wrong.map((a) => a.status)).toEqual(Array(8).fill(400));
    expect(new Set(wrong.map((a) => a.body.error))).toEqual(new Set(['Price must be dollars from 0.00 to 100.00 with at most two decimals, e.g. 15.00']));
  });

  it('when a required field is left out or null, then 400 names it in issues, and nothing is created', async () => {
    const full = { firstName: 'Each', lastName: 'Field', phone: phoneIn('208'), state: 'ID' };
    const bodies = (['firstName', 'lastName', 'phone', 'state'] as const).flatMap((field) => {
      const { [field]: _left, ...rest } = full;
      return [
        { field, body: rest },
        { field, body: { ...full, [field]: null } },
      ];
    });

    const answers = await Promise.all(bodies.map(({ body }) => addByHand(body)));

    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(400));
    expect(new Set(answers.map((a) => a.body.error))).toEqual(new Set(['All fields are required']));
    expect(answers.map((a) => (a.body.issues as Array<{ path: string }>).map((i) => i.path))).toEqual(bodies.map(({ field }) => [field]));
    const { rows } = await fx.pool.query('SELECT 1 FROM callback_opportunities WHERE phone = $1', [full.phone]);
    expect(rows).toEqual([]);
  });
});

describe("the admin's call-backs tab", () => {
  it('when an admin exports, then every opportunity the filters match comes as CSV; an agent may not', async () => {
    const phone = phoneIn('808');
    await addByHand({ firstName: 'Hawaii', lastName: 'Export, Jr.', phone, state: 'HI', price: '12' });

    const answer = await fx.call('GET', '/api/callback-opportunities/export.csv?state=HI', { identity: admin() });
    const asAgent = await fx.call('GET', '/api/callback-opportunities/export.csv', { identity: { userId: randomUUID(), username: 'agent', isAdmin: false } });

    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = answer.text.trim().split('\r\n');
    expect(lines[0]).toBe(CALLBACK_EXPORT_COLUMNS.map((c) => (c.includes(',') ? `"${c}"` : c)).join(','));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,available,Hawaii,"Export, Jr.",(808) ${phone.slice(3, 6)}-${phone.slice(6)},HI,12.00,manual,`);
    expect(asAgent.status).toBe(403);
  });

  it('when an admin assigns by hand, then the picker lists the agents with a call-back account, with balance and states, and no admin', async () => {
    const agent = await agentWithBalance('Alaska, DE', 4, 'Picker');
    const { rows: admins } = await gw.pool.query<{ id: string }>('SELECT id FROM users WHERE username = $1', [gw.admin.username]);

    const answer = await fx.call('GET', '/api/admin/callback-agents', { identity: admin() });
    const asAgent = await fx.call('GET', '/api/admin/callback-agents', { identity: { userId: agent.userId, username: 'agent', isAdmin: false } });

    expect(answer.status).toBe(200);
    const agents = answer.body as unknown as CallbackAgent[];
    expect(agents.find((a) => a.userId === agent.userId)).toMatchObject({ firstName: 'Picker', balance: 4, states: ['AK', 'DE'] });
    expect(admins).toHaveLength(1);
    expect(agents.some((a) => a.userId === admins[0]!.id)).toBe(false);
    expect(agents.every((a) => a.userId !== undefined && a.states.length > 0)).toBe(true);
    expect(asAgent.status).toBe(403);
  });
});
