import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallAttemptAnswer, CallbackOpportunity, MarketLeadsResponse, MyCallbacks, MyLeadsResponse } from '@warmline/contracts';
import type { Identity } from '@warmline/platform';
import { agent, phoneIn, startCatalogFixture, type CatalogFixture } from './catalog-fixture';

/**
 * Issue 24 §3, against the real catalog: the market, My Leads and My Call-backs show each
 * prospect's local time and whether a call is allowed now; an agent logs calls on a call-back and
 * the 3-in-24-hours rule counts them; the admin's list flags a callback time outside the hours.
 * The catalog's clock is moved to fixed moments of November 2030 (it only moves forward; standard
 * time then, as in every run until then) so the clocks read the same every run.
 */
let fx: CatalogFixture;
const buyer = agent();
const otherAgent = agent();
const admin: Identity = { userId: randomUUID(), username: 'admin_hours', isAdmin: true };

beforeAll(async () => {
  fx = await startCatalogFixture();
}, 60_000);
afterAll(async () => fx?.cleanup());

/** Moves the catalog's clock to `iso` (a moment after the real now: the fixture's clock only moves on). */
function moveTo(iso: string): void {
  const ms = new Date(iso).getTime() - fx.now().getTime();
  if (ms < 0) throw new Error(`the test's moment ${iso} is in the past; move the test's dates on`);
  fx.advance(ms);
}

/** One call-back assigned to `userId` (or waiting, without one), inserted as the assignment leaves it. */
async function callback(p: { userId: string | null; state: string | null; phone: string; callbackTime?: Date | null }): Promise<string> {
  const id = randomUUID();
  const now = fx.now();
  await fx.pool.query(
    `INSERT INTO callback_opportunities (id, source, first_name, last_name, phone, state, price_cents, callback_time, status, assigned_user_id, assigned_at, assigned_by, expires_at, created_at)
     VALUES ($1, 'manual', 'Rosa', 'Diaz', $2, $3, 1500, $4, $5, $6, $7, $8, $9, $7)`,
    [id, p.phone, p.state, p.callbackTime ?? null, p.userId ? 'assigned' : 'available', p.userId, now, p.userId ? 'admin' : null, new Date(now.getTime() + 72 * 3_600_000)],
  );
  return id;
}

const attempt = (who: Identity, id: string, body: unknown = { outcome: 'no_answer' }) => fx.call('POST', `/api/my-callbacks/${id}/attempts`, { identity: who, body });

describe('the market and My Leads', () => {
  it('when it is 8:30 pm Eastern, then a Florida lead is not callable (8 pm) and a Texas lead at 7:30 pm is, in the market and My Leads', async () => {
    moveTo('2030-11-28T01:30:00Z');
    const [fl, tx] = await fx.addLeads([
      { state: 'FL', phone: phoneIn('305'), ageDays: 40 },
      { state: 'TX', phone: phoneIn('512'), ageDays: 41 },
    ]);
    const market = await fx.call('GET', '/api/aged-leads?filter=FL,TX', { identity: buyer });
    expect(market.status).toBe(200);
    const leads = (market.body as unknown as MarketLeadsResponse).leads;
    expect(leads.find((l) => l.id === fl!.id)).toMatchObject({
      phone: '(305) XXX-XXXX',
      localTime: '8:30 PM EST',
      callableNow: false,
      callingHoursNote: 'Opens 8:00 AM (Florida: 8:00 AM–8:00 PM)',
    });
    expect(leads.find((l) => l.id === tx!.id)).toMatchObject({ localTime: '7:30 PM CST', callableNow: true, callingHoursNote: null });

    await fx.buy(buyer, [fl!.id, tx!.id]);
    const mine = await fx.call('GET', '/api/my-leads', { identity: buyer });
    expect(mine.status).toBe(200);
    const rows = (mine.body as unknown as MyLeadsResponse).leads;
    expect(rows.find((l) => l.id === fl!.id)).toMatchObject({ localTime: '8:30 PM EST', callableNow: false });
    expect(rows.find((l) => l.id === tx!.id)).toMatchObject({ localTime: '7:30 PM CST', callableNow: true });
  }, 60_000);
});

describe('My Call-backs: calling hours and logged calls', () => {
  let floridaCallback: string;
  let texasCallback: string;

  it('when the agent logs three calls to a Florida prospect, then the third closes them for 24 hours, saying why; Texas has no cap', async () => {
    moveTo('2030-11-28T15:00:00Z'); // 10:00 am in Miami, 9:00 am in Austin
    floridaCallback = await callback({ userId: buyer.userId!, state: 'FL', phone: phoneIn('305') });
    texasCallback = await callback({ userId: buyer.userId!, state: 'TX', phone: phoneIn('512') });

    let cards = (await fx.call('GET', '/api/my-callbacks', { identity: buyer })).body as unknown as MyCallbacks;
    expect(cards.callbacks.find((c) => c.id === floridaCallback)).toMatchObject({ localTime: '10:00 AM EST', callableNow: true, attemptsLast24h: 0, lastAttemptAt: null });

    const answers: CallAttemptAnswer[] = [];
    for (const outcome of ['no_answer', 'voicemail', 'busy']) {
      const answer = await attempt(buyer, floridaCallback, { outcome, note: '  tried the mobile  ' });
      expect(answer.status).toBe(201);
      answers.push(answer.body as unknown as CallAttemptAnswer);
      fx.advance(60_000);
    }
    expect(answers.map((a) => [a.allowedWhenMade, a.attemptsLast24h, a.callableNow])).toEqual([
      [true, 1, true],
      [true, 2, true],
      [true, 3, false],
    ]);
    expect(answers[0]).toMatchObject({ outsideCallingHours: false, message: 'Recorded.', attempt: { outcome: 'no_answer', note: 'tried the mobile' } });
    expect(answers[2]).toMatchObject({ callingHoursNote: '3 calls in 24 hours reached (Florida)' });

    cards = (await fx.call('GET', '/api/my-callbacks', { identity: buyer })).body as unknown as MyCallbacks;
    expect(cards.callbacks.find((c) => c.id === floridaCallback)).toMatchObject({ callableNow: false, attemptsLast24h: 3, callingHoursNote: '3 calls in 24 hours reached (Florida)' });

    // A fourth is recorded all the same (sent with no body at all: no outcome, no note), and the answer says it was over the limit.
    const fourth = await fx.call('POST', `/api/my-callbacks/${floridaCallback}/attempts`, { identity: buyer });
    expect(fourth.status).toBe(201);
    expect(fourth.body).toMatchObject({ allowedWhenMade: false, outsideCallingHours: false, attemptsLast24h: 4, attempt: { outcome: null, note: null } });
    expect(String(fourth.body.message)).toContain('3 calls in 24 hours reached (Florida)');

    for (let i = 0; i < 4; i++) expect((await attempt(buyer, texasCallback)).body).toMatchObject({ allowedWhenMade: true, callableNow: true });
    const { rows } = await fx.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM callback_call_attempts WHERE callback_opportunity_id = $1', [floridaCallback]);
    expect(rows[0]!.n).toBe(4);
  });

  it('when 24 hours have passed since the calls, then the Florida prospect is callable again', async () => {
    moveTo('2030-11-29T15:10:00Z');
    const cards = (await fx.call('GET', '/api/my-callbacks', { identity: buyer })).body as unknown as MyCallbacks;
    expect(cards.callbacks.find((c) => c.id === floridaCallback)).toMatchObject({ callableNow: true, attemptsLast24h: 0 });
  });

  it('when the agent logs a call at 8:30 pm in Miami, then it is recorded and the answer says it was outside calling hours', async () => {
    moveTo('2030-11-30T01:30:00Z');
    const answer = await attempt(buyer, floridaCallback, { outcome: 'reached' });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ allowedWhenMade: false, outsideCallingHours: true, localTime: '8:30 PM EST', callableNow: false });
    expect(String(answer.body.message)).toMatch(/^Recorded — this call was outside calling hours/);
    const { rows } = await fx.pool.query<{ outside: boolean }>(
      'SELECT outside_calling_hours AS outside FROM callback_call_attempts WHERE callback_opportunity_id = $1 ORDER BY at DESC LIMIT 1',
      [floridaCallback],
    );
    expect(rows[0]!.outside).toBe(true);
  });

  it("when another agent logs a call on it, or names no call-back, then 404; a bad body is a 400 naming the field", async () => {
    expect((await attempt(otherAgent, floridaCallback)).status).toBe(404);
    expect((await attempt(buyer, randomUUID())).status).toBe(404);
    expect((await attempt(buyer, 'not-a-uuid')).status).toBe(404);
    const waiting = await callback({ userId: null, state: 'FL', phone: phoneIn('305') });
    expect((await attempt(buyer, waiting)).status).toBe(404);
    const bad = await attempt(buyer, floridaCallback, { outcome: 'hung_up' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/[Oo]utcome/);
    const long = await attempt(buyer, floridaCallback, { note: 'x'.repeat(501) });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toMatch(/Note/);
    const { rows } = await fx.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM callback_call_attempts WHERE agent_user_id = $1', [otherAgent.userId]);
    expect(rows[0]!.n).toBe(0);
  });
});

describe("the admin's call-backs list", () => {
  it('flags a callback time outside calling hours in the prospect\'s zone (Florida 8:30 pm yes, 10 am no, none no)', async () => {
    const late = await callback({ userId: null, state: 'FL', phone: phoneIn('305'), callbackTime: new Date('2030-12-02T01:30:00Z') });
    const morning = await callback({ userId: null, state: 'FL', phone: phoneIn('305'), callbackTime: new Date('2030-12-01T15:00:00Z') });
    // No state on file: the area code (212, New York) gives the zone; 8:30 pm there is inside the federal hours.
    const noState = await callback({ userId: null, state: null, phone: phoneIn('212'), callbackTime: new Date('2030-12-02T01:30:00Z') });
    const noTime = await callback({ userId: null, state: 'FL', phone: phoneIn('305') });
    const list = await fx.call('GET', '/api/callback-opportunities', { identity: admin });
    expect(list.status).toBe(200);
    const rows = list.body as unknown as CallbackOpportunity[];
    const flag = (id: string) => rows.find((r) => r.id === id)?.callbackTimeOutsideCallingHours;
    expect([flag(late), flag(morning), flag(noState), flag(noTime)]).toEqual([true, false, false, false]);
  });
});
