import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPRESSION_PAGE_SIZE, type CommandData } from '@warmline/contracts';
import { createLogger, type Identity } from '@warmline/platform';
import { withTransaction } from '@warmline/platform/db/index';
import { freePort, waitFor } from '@warmline/platform/testing/index';
import { startGatewayFixture, type GatewayFixture } from '../../gateway/test/gateway-fixture';
import type { GatewayClient } from '../src/clients/gateway-client';
import { suppressedPhonesAmong } from '../src/suppressions/db/suppressions';
import { noticeBuyerOfOptOut } from '../src/suppressions/domain/suppressions';
import { LEAD_SUPPRESSIONS_QUEUE } from '../src/events/consumers';
import { agent, phoneIn, startCatalogFixture, type CatalogFixture } from './catalog-fixture';

/**
 * The suppression list (issue 13): a phone that opted out leaves the market at once, its sold
 * leads stay with their buyers, and each buyer is told once to stop contacting it. The buyers'
 * e-mails come from the real gateway's internal users endpoint, asked with the admin's signed
 * identity.
 */

let fx: CatalogFixture;
let gw: GatewayFixture;

beforeAll(async () => {
  const catalogPort = await freePort();
  gw = await startGatewayFixture({ env: { CATALOG_URL: `http://127.0.0.1:${catalogPort}` } });
  fx = await startCatalogFixture({ GATEWAY_INTERNAL_URL: gw.internalUrl, CATALOG_PORT: String(catalogPort) });
});

afterAll(async () => {
  await fx?.cleanup();
  await gw?.cleanup();
});

function admin(): Identity {
  return { userId: randomUUID(), username: `admin_${randomUUID().slice(0, 6)}`, isAdmin: true };
}

/** A customer with an account at the gateway (so the catalog can read their e-mail there). */
async function customer(firstName: string): Promise<{ identity: Identity; email: string }> {
  const { user } = await gw.createAgent({ firstName });
  return { identity: { userId: user.id, username: user.username, isAdmin: false }, email: user.email };
}

/** '5125550143' → '(512) 555-0143', as an admin types it. */
const typed = (phone: string) => `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`;
/** '5125550143' → '512-555-0143': typed, in the characters a path segment may hold. */
const dashed = (phone: string) => `${phone.slice(0, 3)}-${phone.slice(3, 6)}-${phone.slice(6)}`;

/** An area code (2xx–9xx) no other test of this file uses, so its leads and list entries are its own. */
let areaSerial = 0;
function freshAreaCode(): string {
  areaSerial += 1;
  return String(600 + areaSerial);
}

async function marketIds(areaCode: string): Promise<string[]> {
  const answer = await fx.call('GET', `/api/aged-leads?filter=${areaCode}`, { identity: agent('browser') });
  expect(answer.status).toBe(200);
  return (answer.body.leads as Array<{ id: string }>).map((l) => l.id);
}

async function myLeadIds(buyer: Identity): Promise<string[]> {
  const answer = await fx.call('GET', '/api/my-leads', { identity: buyer });
  expect(answer.status).toBe(200);
  return (answer.body.leads as Array<{ id: string }>).map((l) => l.id);
}

/** Commands and events of the catalog's outbox about one phone (by correlation: the request's id). */
async function outboxFor(type: string, correlationId: string) {
  return (await fx.outbox(type)).filter((e) => e.correlationId === correlationId);
}

/** Whether the catalog has handled every buyer-notice command of a request (processed_events). */
async function handled(requestId: string): Promise<boolean> {
  const ids = (await outboxFor('lead_suppression.notify_buyer', requestId)).map((e) => e.id);
  const { rows } = await fx.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM processed_events WHERE consumer = $1 AND event_id = ANY($2::uuid[])', [
    LEAD_SUPPRESSIONS_QUEUE,
    ids,
  ]);
  return ids.length > 0 && rows[0]!.n === ids.length;
}

describe('suppressing a phone', () => {
  it('when an admin suppresses a phone, then its unsold leads leave the market at once, sold ones stay with their buyers, and each buyer is asked once to stop contacting it', async () => {
    const area = freshAreaCode();
    const phone = phoneIn(area);
    const dana = await customer('Dana');
    const omar = await customer('Omar');
    const [bought1, bought2, boughtByOmar, unsold, otherPhone] = await fx.addLeads([
      { ageDays: 40, phone, name: 'Jane Smith' },
      { ageDays: 70, phone, name: 'Jane A. Smith' },
      { ageDays: 100, phone, name: 'Jane Smith' },
      { ageDays: 45, phone },
      { ageDays: 50, phone: phoneIn(area) },
    ]);
    await fx.buy(dana.identity, [bought1!.id, bought2!.id]);
    await fx.buy(omar.identity, [boughtByOmar!.id]);
    expect(await marketIds(area)).toEqual(expect.arrayContaining([unsold!.id, otherPhone!.id]));

    const by = admin();
    const requestId = randomUUID();
    const answer = await fx.call('POST', '/api/admin/suppressions', {
      body: { phone: `+1 ${typed(phone)}`, reason: 'Asked the vendor to stop all calls' },
      identity: by,
      headers: { 'x-request-id': requestId },
    });

    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      phone,
      reason: 'Asked the vendor to stop all calls',
      source: 'admin',
      createdAt: expect.any(String),
      createdByUserId: by.userId,
      leadsWithdrawn: 1,
      buyersNotified: 2,
    });
    // Off sale at once, the other phone of the area code still for sale.
    const market = await marketIds(area);
    expect(market).not.toContain(unsold!.id);
    expect(market).toContain(otherPhone!.id);
    const { rows: withdrawn } = await fx.pool.query('SELECT id, withdrawn_reason FROM withdrawn_leads WHERE phone = $1', [phone]);
    expect(withdrawn).toEqual([{ id: unsold!.id, withdrawn_reason: 'suppressed' }]);
    // Bought leads stay in My Leads.
    expect(await myLeadIds(dana.identity)).toEqual(expect.arrayContaining([bought1!.id, bought2!.id]));
    expect(await myLeadIds(omar.identity)).toContain(boughtByOmar!.id);

    expect((await outboxFor('leads.withdrawn', requestId)).map((e) => e.data)).toEqual([
      { reason: 'suppressed', leadCount: 1, withdrawnAt: answer.body.createdAt },
    ]);
    const masked = `(${area}) XXX-${phone.slice(6)}`;
    expect((await outboxFor('audit.record', requestId)).map((e) => e.data)).toEqual([
      {
        actorId: by.userId,
        actorUsername: by.username,
        action: 'lead_suppression.created',
        subjectType: 'lead_suppression',
        subjectId: masked,
        subjectLabel: masked,
        before: null,
        after: { reason: 'Asked the vendor to stop all calls', leadsWithdrawn: 1, buyersNotified: 2, callbacksWithdrawn: 0 },
        at: answer.body.createdAt,
      },
    ]);

    // The notices go out after the commit, one per buyer, their leads grouped, their e-mail from the gateway.
    const notices = await waitFor('both buyers asked to stop', async () => {
      const found = await outboxFor('email.lead_opt_out', requestId);
      return found.length >= 2 && found;
    }, { timeoutMs: 20_000 });
    await waitFor('the notice commands handled', () => handled(requestId));
    expect(await outboxFor('email.lead_opt_out', requestId)).toHaveLength(2);
    const byRecipient = new Map(notices.map((n) => [n.data.to as string, n.data]));
    expect(byRecipient.get(dana.email)).toEqual({
      to: dana.email,
      name: 'Dana',
      // Both in one e-mail (bought in one order: the same purchase time).
      leads: expect.arrayContaining([
        { leadId: bought1!.id, name: 'Jane Smith', phone: typed(phone), purchasedAt: expect.any(String) },
        { leadId: bought2!.id, name: 'Jane A. Smith', phone: typed(phone), purchasedAt: expect.any(String) },
      ]),
      reason: 'Asked the vendor to stop all calls',
      at: answer.body.createdAt,
    });
    expect(byRecipient.get(dana.email)?.leads).toHaveLength(2);
    expect(byRecipient.get(omar.email)).toMatchObject({ name: 'Omar', leads: [{ leadId: boughtByOmar!.id, phone: typed(phone) }] });
  });

  it('when the only buyer\'s account is gone, then the suppression still stands and no notice is written', async () => {
    const area = freshAreaCode();
    const phone = phoneIn(area);
    const ghost = agent('ghost'); // never had a gateway account
    const [lead] = await fx.addLeads([{ ageDays: 40, phone }]);
    await fx.buy(ghost, [lead!.id]);
    const requestId = randomUUID();

    const answer = await fx.call('POST', '/api/admin/suppressions', {
      body: { phone, reason: 'Opted out by text' },
      identity: admin(),
      headers: { 'x-request-id': requestId },
    });

    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ leadsWithdrawn: 0, buyersNotified: 1 });
    expect((await outboxFor('lead_suppression.notify_buyer', requestId)).map((e) => e.data)).toEqual([expect.objectContaining({ buyerUserId: ghost.userId, phone })]);
    await waitFor('the notice command handled', () => handled(requestId), { timeoutMs: 20_000 });
    expect(await outboxFor('email.lead_opt_out', requestId)).toEqual([]);
  });

  it('when the phone is already on the list, then the answer is 409 and nothing more happens', async () => {
    const phone = phoneIn(freshAreaCode());
    const by = admin();
    expect((await fx.call('POST', '/api/admin/suppressions', { body: { phone, reason: 'First' }, identity: by })).status).toBe(201);
    const requestId = randomUUID();

    const again = await fx.call('POST', '/api/admin/suppressions', { body: { phone: typed(phone), reason: 'Second' }, identity: by, headers: { 'x-request-id': requestId } });

    expect(again.status).toBe(409);
    expect(again.body.error).toBe('Phone is already on the suppression list');
    expect(await outboxFor('audit.record', requestId)).toEqual([]);
    const { rows } = await fx.pool.query('SELECT reason FROM lead_suppressions WHERE phone = $1', [phone]);
    expect(rows).toEqual([{ reason: 'First' }]);
  });

  it.each([
    ['too short', '555-0143'],
    ['an area code starting with 1', '(123) 555-0143'],
    ['an area code starting with 0', '023-555-0143'],
    ['letters', '512-555-CALL'],
    ['12 digits', '5125550143 9'],
  ])('when the phone is %s, then the answer is 400 with the phone rule', async (_what, phone) => {
    const answer = await fx.call('POST', '/api/admin/suppressions', { body: { phone, reason: 'Opted out' }, identity: admin() });

    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('Phone must be 10 digits with the area code, e.g. (512) 555-0143');
  });

  it('when the reason is missing, then the answer is 400', async () => {
    const answer = await fx.call('POST', '/api/admin/suppressions', { body: { phone: phoneIn(freshAreaCode()), reason: '  ' }, identity: admin() });

    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('Reason is required');
  });
});

describe('the list', () => {
  it('when there are more than a page, then it is newest first, 50 a page, and a search matches phone digits', async () => {
    const area = freshAreaCode();
    const phones = Array.from({ length: SUPPRESSION_PAGE_SIZE + 5 }, () => phoneIn(area));
    const by = admin();
    const t0 = fx.now().getTime();
    // Arranged straight in the table: one a minute, the last the newest.
    for (const [i, phone] of phones.entries()) {
      await fx.pool.query('INSERT INTO lead_suppressions (phone, reason, created_by_user_id, created_at) VALUES ($1, $2, $3, $4)', [
        phone,
        `Reason ${i}`,
        by.userId,
        new Date(t0 - (phones.length - i) * 60_000),
      ]);
    }
    const newestFirst = [...phones].reverse();

    const first = await fx.call('GET', `/api/admin/suppressions?q=${area}`, { identity: admin() });
    const second = await fx.call('GET', `/api/admin/suppressions?q=${area}&page=2`, { identity: admin() });
    const beyond = await fx.call('GET', `/api/admin/suppressions?q=${area}&page=3`, { identity: admin() });

    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: phones.length, page: 1, pageSize: SUPPRESSION_PAGE_SIZE });
    expect((first.body.suppressions as Array<{ phone: string }>).map((s) => s.phone)).toEqual(newestFirst.slice(0, SUPPRESSION_PAGE_SIZE));
    expect((first.body.suppressions as unknown[])[0]).toEqual({
      phone: newestFirst[0],
      reason: `Reason ${phones.length - 1}`,
      // Rows written without a source are an admin's (the column's default).
      source: 'admin',
      createdAt: new Date(t0 - 60_000).toISOString(),
      createdByUserId: by.userId,
    });
    expect((second.body.suppressions as Array<{ phone: string }>).map((s) => s.phone)).toEqual(newestFirst.slice(SUPPRESSION_PAGE_SIZE));
    expect(beyond.body).toMatchObject({ suppressions: [], total: phones.length, page: 3 });

    // However the digits are typed: punctuation, the country code.
    const one = phones[7]!;
    for (const q of [typed(one), `+1 ${typed(one)}`, one.slice(3)]) {
      const found = await fx.call('GET', `/api/admin/suppressions?q=${encodeURIComponent(q)}`, { identity: admin() });
      expect({ q, phones: (found.body.suppressions as Array<{ phone: string }>).map((s) => s.phone) }).toEqual({ q, phones: [one] });
    }
    const none = await fx.call('GET', '/api/admin/suppressions?q=smith', { identity: admin() });
    expect(none.body).toMatchObject({ suppressions: [], total: 0 });
  });

  it('when the page is not a whole number, then the answer is 400', async () => {
    expect((await fx.call('GET', '/api/admin/suppressions?page=0', { identity: admin() })).status).toBe(400);
  });
});

describe('taking a phone off the list', () => {
  it('when an admin removes a phone, then it is off the list, audited, and its withdrawn leads stay withdrawn', async () => {
    const phone = phoneIn(freshAreaCode());
    const [lead] = await fx.addLeads([{ ageDays: 40, phone }]);
    const by = admin();
    expect((await fx.call('POST', '/api/admin/suppressions', { body: { phone, reason: 'Opted out' }, identity: by })).status).toBe(201);
    const requestId = randomUUID();

    const removed = await fx.call('DELETE', `/api/admin/suppressions/${dashed(phone)}`, { identity: by, headers: { 'x-request-id': requestId } });

    expect(removed.status).toBe(204);
    const list = await fx.call('GET', `/api/admin/suppressions?q=${phone}`, { identity: by });
    expect(list.body).toMatchObject({ suppressions: [], total: 0 });
    expect(await suppressedPhonesAmong(fx.pool, [phone])).toEqual(new Set());
    const { rows } = await fx.pool.query('SELECT (SELECT count(*)::int FROM aged_leads WHERE id = $1) AS on_sale, (SELECT count(*)::int FROM withdrawn_leads WHERE id = $1) AS withdrawn', [lead!.id]);
    expect(rows[0]).toEqual({ on_sale: 0, withdrawn: 1 });
    expect((await outboxFor('audit.record', requestId)).map((e) => e.data)).toEqual([
      expect.objectContaining({
        actorId: by.userId,
        action: 'lead_suppression.removed',
        subjectLabel: `(${phone.slice(0, 3)}) XXX-${phone.slice(6)}`,
        before: expect.objectContaining({ reason: 'Opted out' }),
        after: null,
      }),
    ]);

    const again = await fx.call('DELETE', `/api/admin/suppressions/${phone}`, { identity: by });
    expect(again.status).toBe(404);
    expect(again.body.error).toBe('Phone is not on the suppression list');
  });
});

describe('who may', () => {
  it('when a logged-in agent (not an admin) calls any suppression route, then the answer is 403 and nothing changes', async () => {
    const phone = phoneIn(freshAreaCode());
    const [lead] = await fx.addLeads([{ ageDays: 40, phone }]);
    await fx.pool.query('INSERT INTO lead_suppressions (phone, reason, created_by_user_id, created_at) VALUES ($1, $2, $3, now())', [phoneIn(freshAreaCode()), 'Kept', randomUUID()]);
    const someone = agent('agent');

    expect((await fx.call('GET', '/api/admin/suppressions', { identity: someone })).status).toBe(403);
    expect((await fx.call('POST', '/api/admin/suppressions', { body: { phone, reason: 'Opted out' }, identity: someone })).status).toBe(403);
    expect((await fx.call('DELETE', `/api/admin/suppressions/${phone}`, { identity: someone })).status).toBe(403);
    // Without a login, not even that.
    expect((await fx.call('GET', '/api/admin/suppressions')).status).toBe(401);

    expect(await suppressedPhonesAmong(fx.pool, [phone])).toEqual(new Set());
    expect(await marketIds(phone.slice(0, 3))).toContain(lead!.id);
  });
});

describe('the importer\'s check', () => {
  it('when a batch of phones is checked, then the suppressed ones among them come back', async () => {
    const [a, b, c] = [phoneIn(freshAreaCode()), phoneIn(freshAreaCode()), phoneIn(freshAreaCode())];
    for (const phone of [a!, c!]) {
      expect((await fx.call('POST', '/api/admin/suppressions', { body: { phone, reason: 'Opted out' }, identity: admin() })).status).toBe(201);
    }

    expect(await suppressedPhonesAmong(fx.pool, [a!, b!, c!, a!])).toEqual(new Set([a, c]));
    expect(await suppressedPhonesAmong(fx.pool, [])).toEqual(new Set());
  });
});

describe('a buyer\'s notice', () => {
  /** Suppresses a phone one buyer bought a lead with; the notice command it queued. */
  async function suppressedWithBuyer() {
    const phone = phoneIn(freshAreaCode());
    const [lead] = await fx.addLeads([{ ageDays: 40, phone }]);
    const buyer = agent('buyer');
    await fx.buy(buyer, [lead!.id]);
    const requestId = randomUUID();
    const answer = await fx.call('POST', '/api/admin/suppressions', { body: { phone, reason: 'Opted out' }, identity: admin(), headers: { 'x-request-id': requestId } });
    expect(answer.status).toBe(201);
    const [command] = await outboxFor('lead_suppression.notify_buyer', requestId);
    return { phone, notice: command!.data as CommandData<'lead_suppression.notify_buyer'> };
  }

  const log = createLogger('test', 'silent');
  const noticesTo = async (to: string) => (await fx.outbox('email.lead_opt_out')).filter((e) => e.data.to === to);

  it('when the gateway cannot be reached, then the handler fails (the bus retries it) and writes no notice', async () => {
    const { notice } = await suppressedWithBuyer();
    const down: GatewayClient = { userContact: async () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:3100')) };

    await expect(withTransaction(fx.pool, (db) => noticeBuyerOfOptOut(db, { gateway: down, log }, notice, randomUUID()))).rejects.toThrow('ECONNREFUSED');
  });

  it('when the phone was taken off the list before the notice ran, then the buyer is not told and the gateway not asked', async () => {
    const { phone, notice } = await suppressedWithBuyer();
    expect((await fx.call('DELETE', `/api/admin/suppressions/${phone}`, { identity: admin() })).status).toBe(204);
    let asked = 0;
    const to = `late-${randomUUID().slice(0, 8)}@example.com`;
    const gateway: GatewayClient = {
      userContact: async () => {
        asked += 1;
        return { email: to, firstName: 'Late' };
      },
    };

    await withTransaction(fx.pool, (db) => noticeBuyerOfOptOut(db, { gateway, log }, notice, randomUUID()));

    expect(asked).toBe(0);
    expect(await noticesTo(to)).toEqual([]);
  });
});

describe('through the gateway', () => {
  it('when the admin suppresses a phone from the back office, then the gateway forwards it as that admin, and an agent is refused', async () => {
    const phone = phoneIn(freshAreaCode());
    const office = gw.browser();
    await office.login(gw.admin.username, gw.admin.password);
    const csrf = { headers: { 'x-requested-with': 'XMLHttpRequest' } };

    const added = await office.post('/api/admin/suppressions', { phone: typed(phone), reason: 'Asked by phone' }, csrf);
    const listed = await office.get(`/api/admin/suppressions?q=${phone}`);

    expect(added.status).toBe(201);
    const { rows } = await gw.pool.query<{ id: string }>('SELECT id FROM users WHERE username = $1', [gw.admin.username]);
    expect(added.json.createdByUserId).toBe(rows[0]!.id);
    expect(listed.json.suppressions).toEqual([expect.objectContaining({ phone, reason: 'Asked by phone' })]);

    const { user, password } = await gw.createAgent();
    const agentBrowser = gw.browser();
    await agentBrowser.login(user.username, password);
    expect((await agentBrowser.get('/api/admin/suppressions')).status).toBe(403);
    expect((await agentBrowser.post('/api/admin/suppressions', { phone: phoneIn(freshAreaCode()), reason: 'x' }, csrf)).status).toBe(403);
    expect((await agentBrowser.delete(`/api/admin/suppressions/${phone}`)).status).toBe(403);
  });
});

describe('do not call, marked where the phone is held (issue 24)', () => {
  it("when a bought lead's phone opts out, then My Leads and its CSV mark it 'Do not call — opted out on …' and other leads stay unmarked", async () => {
    const area = freshAreaCode();
    const phone = phoneIn(area);
    const dana = await customer('Dana');
    const [optedOut, kept] = await fx.addLeads([
      { ageDays: 40, phone, name: 'Opted Out' },
      { ageDays: 41, phone: phoneIn(area), name: 'Still Callable' },
    ]);
    await fx.buy(dana.identity, [optedOut!.id, kept!.id]);
    const before = await fx.call('GET', '/api/my-leads', { identity: dana.identity });
    expect((before.body.leads as Array<{ optedOutAt: string | null }>).map((l) => l.optedOutAt)).toEqual([null, null]);

    const suppressed = await fx.call('POST', '/api/admin/suppressions', { body: { phone, reason: 'Asked to stop' }, identity: admin() });
    expect(suppressed.status).toBe(201);

    const after = await fx.call('GET', '/api/my-leads', { identity: dana.identity });
    type Held = { id: string; optedOutAt: string | null; callableNow: boolean; callingHoursNote: string | null };
    const byId = new Map((after.body.leads as Held[]).map((l) => [l.id, l]));
    expect(byId.get(optedOut!.id)).toMatchObject({ optedOutAt: suppressed.body.createdAt, callableNow: false, callingHoursNote: 'Opted out' });
    expect(byId.get(kept!.id)?.optedOutAt).toBeNull();
    expect(byId.get(kept!.id)?.callingHoursNote).not.toBe('Opted out');
    const csv = await fx.call('GET', '/api/my-leads/export.csv', { identity: dana.identity });
    expect(csv.status).toBe(200);
    const [header, ...rows] = csv.text.trim().split('\r\n');
    // No field of these rows holds a comma: a split is the columns.
    const column = header!.split(',').indexOf('Do Not Call');
    expect(column).toBeGreaterThan(0);
    const cell = (name: string) => rows.find((r) => r.includes(name))!.split(',')[column];
    expect(cell('Opted Out')).toBe(`Do not call — opted out on ${String(suppressed.body.createdAt).slice(0, 10)}`);
    expect(cell('Still Callable')).toBe('');
  });

  it('when an admin uploads an opt-out list, then each phone goes on the list as imported, a phone already listed keeps its first opt-out, and a line that is no phone is reported by its number', async () => {
    const area = freshAreaCode();
    const [listed, fresh1, fresh2] = [phoneIn(area), phoneIn(area), phoneIn(area)];
    const by = admin();
    expect((await fx.call('POST', '/api/admin/suppressions', { body: { phone: listed, reason: 'By phone' }, identity: by })).status).toBe(201);
    const [forSale] = await fx.addLeads([{ ageDays: 40, phone: fresh1 }]);

    const answer = await fx.call('POST', '/api/admin/suppressions/import', {
      body: { fileName: 'acme-opt-outs.csv', lines: ['Phone', typed(listed), `+1 ${typed(fresh1)}`, 'not a phone', fresh2, fresh2], reason: 'Acme opt-out list' },
      identity: by,
    });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ added: 2, alreadyListed: 1, invalid: [{ line: 4, message: 'Phone must be 10 digits with the area code, e.g. (512) 555-0143' }] });
    const { rows } = await fx.pool.query<{ phone: string; source: string; reason: string }>(
      'SELECT phone, source, reason FROM lead_suppressions WHERE phone = ANY($1::text[]) ORDER BY phone',
      [[listed, fresh1, fresh2]],
    );
    expect(new Map(rows.map((r) => [r.phone, [r.source, r.reason]]))).toEqual(
      new Map([
        [listed, ['admin', 'By phone']],
        [fresh1, ['import', 'Acme opt-out list (acme-opt-outs.csv)']],
        [fresh2, ['import', 'Acme opt-out list (acme-opt-outs.csv)']],
      ]),
    );
    // Its leads left the market as for one phone.
    expect(await marketIds(area)).not.toContain(forSale!.id);
    const page = await fx.call('GET', `/api/admin/suppressions?q=${fresh2}`, { identity: by });
    expect(page.body.suppressions).toEqual([expect.objectContaining({ phone: fresh2, source: 'import' })]);
  });

  it('when an opt-out list is empty, too long or has no reason, then the answer is 400 saying so and nothing is added', async () => {
    const phone = phoneIn(freshAreaCode());
    const by = admin();
    const post = (body: unknown) => fx.call('POST', '/api/admin/suppressions/import', { body, identity: by });
    const empty = await post({ fileName: 'a.csv', lines: [], reason: 'x' });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain('The file has no phone numbers');
    const long = await post({ fileName: 'a.csv', lines: Array.from({ length: 1001 }, () => phone), reason: 'x' });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toContain('At most 1,000 phone numbers per file');
    const noReason = await post({ fileName: 'a.csv', lines: [phone], reason: ' ' });
    expect(noReason.status).toBe(400);
    expect(JSON.stringify(noReason.body)).toContain('Reason is required');
    const customerTries = await fx.call('POST', '/api/admin/suppressions/import', { body: { fileName: 'a.csv', lines: [phone], reason: 'x' }, identity: agent('nosy') });
    expect(customerTries.status).toBe(403);
    expect((await fx.pool.query('SELECT 1 FROM lead_suppressions WHERE phone = $1', [phone])).rows).toEqual([]);
  });
});
