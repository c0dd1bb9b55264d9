import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADJUSTMENT_BELOW_ZERO_MESSAGE, DEFAULT_LIVE_TRANSFER_PRICE_CENTS, type AdminTransferAgent } from '@warmline/contracts';
import { ANONYMOUS, type Identity } from '@warmline/platform/identity';
import { ledgerMismatches } from '../src/db/ledger';
import { adminIdentity, agent, balanceOf, chargeTransfer, insertTransfer, orderFacts, paid, profileOf, refunded, startLedgerFixture, type LedgerFixture } from './ledger-fixture';

/**
 * The admin's Transfers tab (issue 23 §7): the business day's transfers with their agent, every
 * agent and why they can take none now, revenue beside cash, and balance adjustments (audited,
 * never below zero) — admins only.
 */

// Wednesday 25 November 2026, noon in Chicago (the business's zone in the fixture).
const NOW = new Date('2026-11-25T18:00:00Z');
const HOUR = 3_600_000;

let fx: LedgerFixture;
const admin = adminIdentity();

beforeAll(async () => {
  fx = await startLedgerFixture(NOW);
});

afterAll(async () => {
  await fx?.cleanup();
});

const SETTINGS = { transferPhone: '5125550143', states: ['TX'], timeZone: 'America/Chicago', hours: [{ day: 'wed', from: '09:00', to: '17:00' }], dailyCap: 2, atOnce: 1 };

async function newAgent(name: string, settings: Record<string, unknown> | null = SETTINGS): Promise<Identity> {
  const who = agent();
  fx.profiles.set(who.userId!, profileOf({ firstName: name, lastName: 'Agent', email: `${who.username}@example.com` }));
  if (settings) expect((await fx.call('PUT', '/api/my-transfers/settings', { body: settings, identity: who })).status).toBe(200);
  return who;
}

describe('admins only', () => {
  const routes: Array<[string, string, unknown?]> = [
    ['GET', '/api/admin/transfers'],
    ['GET', '/api/admin/transfer-agents'],
    ['GET', '/api/admin/transfer-revenue'],
    ['GET', '/api/admin/transfer-disputes'],
    ['POST', `/api/admin/transfer-disputes/${randomUUID()}`, { decision: 'accept' }],
    ['POST', `/api/admin/users/${randomUUID()}/transfer-credits`, { transfers: 5, reason: 'Goodwill' }],
  ];

  it.each(routes)('when nobody or a customer calls %s %s, then 401 and 403', async (method, path, body) => {
    const anonymous = await fx.call(method, path, { identity: ANONYMOUS, ...(body ? { body } : {}) });
    const customer = await fx.call(method, path, { identity: agent(), ...(body ? { body } : {}) });

    expect(anonymous.status).toBe(401);
    expect(customer.status).toBe(403);
  });
});

describe("the day's transfers and the agents", () => {
  it("when an admin lists a business day, then that day's transfers come with their agent, newest first, by status too", async () => {
    const dana = await newAgent('Dana');
    await fx.publish(paid(orderFacts(dana.userId!)));
    const today = await insertTransfer(fx.pool, { agentId: dana.userId!, routedAt: new Date(NOW.getTime() - HOUR) });
    await chargeTransfer(fx.pool, dana.userId!, today);
    // 23:30 on Tuesday in Chicago, though Wednesday in UTC.
    const lateTuesday = await insertTransfer(fx.pool, { agentId: dana.userId!, routedAt: new Date('2026-11-25T05:30:00Z'), status: 'buffer_protected' });

    const wednesday = await fx.call('GET', '/api/admin/transfers', { identity: admin });
    const tuesday = await fx.call('GET', '/api/admin/transfers?date=2026-11-24&status=buffer_protected', { identity: admin });

    expect(wednesday.body.date).toBe('2026-11-25');
    const ids = (wednesday.body.transfers as Array<{ id: string }>).map((t) => t.id);
    expect(ids).toContain(today);
    expect(ids).not.toContain(lateTuesday);
    expect((wednesday.body.transfers as Array<Record<string, unknown>>).find((t) => t.id === today)).toMatchObject({
      status: 'charged',
      chargedCents: 3700,
      agent: { id: dana.userId, name: 'Dana Agent' },
    });
    expect((tuesday.body.transfers as Array<{ id: string }>).map((t) => t.id)).toEqual([lateTuesday]);
  });

  it('when an admin looks at the agents, then each shows balance, cap, hours and why they can take no transfer now', async () => {
    const ready = await newAgent('Ready');
    const paused = await newAgent('Paused', { ...SETTINGS, paused: true });
    const offHours = await newAgent('Offhours', { ...SETTINGS, hours: [{ day: 'mon', from: '09:00', to: '17:00' }] });
    const capped = await newAgent('Capped');
    const busy = await newAgent('Busy');
    const unset = await newAgent('Unset', null);
    const broke = await newAgent('Broke');
    for (const who of [ready, paused, offHours, capped, busy, unset]) await fx.publish(paid(orderFacts(who.userId!, { count: 5, amountCents: 18_500 })));
    for (let i = 0; i < 2; i++) await chargeTransfer(fx.pool, capped.userId!, await insertTransfer(fx.pool, { agentId: capped.userId!, routedAt: new Date(NOW.getTime() - (i + 1) * HOUR) }));
    await insertTransfer(fx.pool, { agentId: busy.userId!, routedAt: new Date(NOW.getTime() - 10_000) });
    // Neither a call never connected nor a reservation that ran out counts toward the cap (as routing counts).
    await insertTransfer(fx.pool, { agentId: ready.userId!, routedAt: new Date(NOW.getTime() - HOUR), status: 'not_connected' });
    await insertTransfer(fx.pool, { agentId: ready.userId!, routedAt: new Date(NOW.getTime() - HOUR) });

    const answer = await fx.call('GET', '/api/admin/transfer-agents', { identity: admin });

    expect(answer.status).toBe(200);
    const byId = new Map((answer.body.agents as AdminTransferAgent[]).map((a) => [a.id, a]));
    expect(byId.get(ready.userId!)).toMatchObject({ name: 'Ready Agent', balance: 5, inFlight: 0, today: 0, dailyCap: 2, atOnce: 1, timeZone: 'America/Chicago', states: ['TX'], paused: false, idleReasons: [] });
    expect(byId.get(paused.userId!)?.idleReasons).toEqual(['paused']);
    expect(byId.get(offHours.userId!)?.idleReasons).toEqual(['outside_hours']);
    expect(byId.get(capped.userId!)).toMatchObject({ balance: 3, today: 2, idleReasons: ['cap_reached'] });
    expect(byId.get(busy.userId!)).toMatchObject({ inFlight: 1, idleReasons: ['at_once_limit'] });
    expect(byId.get(unset.userId!)).toMatchObject({ balance: 5, idleReasons: ['no_settings'] });
    expect(byId.get(broke.userId!)).toMatchObject({ balance: 0, idleReasons: ['no_balance'] });
  });
});

describe('revenue', () => {
  it('when transfers were charged, one credited back, an order paid and partly refunded today, then earned and cash say so for the business day', async () => {
    const before = await fx.call('GET', '/api/admin/transfer-revenue', { identity: admin });
    const todayBefore = (before.body.days as Array<Record<string, number | string>>)[0]!;
    const who = await newAgent('Rev');
    const order = orderFacts(who.userId!, { count: 10 });
    await fx.publish(paid(order, new Date(NOW.getTime() - HOUR)));
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await insertTransfer(fx.pool, { agentId: who.userId!, routedAt: new Date(NOW.getTime() - HOUR), state: 'FL' });
      await chargeTransfer(fx.pool, who.userId!, id, new Date(NOW.getTime() - HOUR / 2));
      ids.push(id);
    }
    expect((await fx.call('POST', `/api/my-transfers/${ids[0]}/dispute`, { body: { reason: 'wrong_state' }, identity: who })).body.status).toBe('accepted');
    await fx.publish({ ...refunded(order.orderId, 7_400), data: { ...refunded(order.orderId, 7_400).data, refundedAt: new Date(NOW.getTime() - HOUR / 4).toISOString() } });

    const answer = await fx.call('GET', '/api/admin/transfer-revenue', { identity: admin });

    expect(answer.status).toBe(200);
    expect(answer.body.timeZone).toBe('America/Chicago');
    const days = answer.body.days as Array<Record<string, number | string>>;
    expect(days).toHaveLength(30);
    expect(days[0]!.date).toBe('2026-11-25');
    expect(days[29]!.date).toBe('2026-10-27');
    expect(Number(days[0]!.chargedTransfers) - Number(todayBefore.chargedTransfers)).toBe(3);
    // 3 × $37 charged, 1 credited back.
    expect(Number(days[0]!.earnedCents) - Number(todayBefore.earnedCents)).toBe(2 * 3700);
    // $370 paid, $74 refunded.
    expect(Number(days[0]!.cashCents) - Number(todayBefore.cashCents)).toBe(37_000 - 7_400);
    expect(Number(days[0]!.refundedCents) - Number(todayBefore.refundedCents)).toBe(7_400);
  });
});

describe('balance adjustments', () => {
  async function adjust(who: Identity, body: Record<string, unknown>) {
    return fx.call('POST', `/api/admin/users/${who.userId}/transfer-credits`, { body, identity: admin });
  }

  it('when an admin adds transfers, then a lot at the given price, else the latest lot price, else the default, audited with the reason', async () => {
    const fresh = await newAgent('Fresh', null);
    const buyer = await newAgent('Buyer', null);
    await fx.publish(paid(orderFacts(buyer.userId!, { tier: 'ultimate', unitPriceCents: 3200, amountCents: 32_000 })));

    const atDefault = await adjust(fresh, { transfers: 2, reason: 'Welcome gift' });
    const atLatest = await adjust(buyer, { transfers: 3, reason: 'Missed calls last week' });
    const atGiven = await adjust(buyer, { transfers: 1, reason: 'Promo', unitCents: 0 });

    expect(atDefault.status).toBe(200);
    expect(atDefault.body).toEqual({ agentId: fresh.userId, transfers: 2, balance: 2 });
    expect(atLatest.body.balance).toBe(13);
    expect(atGiven.body.balance).toBe(14);
    const lots = async (who: Identity) =>
      (await fx.pool.query("SELECT unit_cents AS u, credited FROM credit_lots WHERE agent_id = $1 AND source = 'adjustment' ORDER BY credited_at, id", [who.userId])).rows;
    expect(await lots(fresh)).toEqual([{ u: DEFAULT_LIVE_TRANSFER_PRICE_CENTS, credited: 2 }]);
    expect((await lots(buyer)).map((l) => l.u).sort()).toEqual([0, 3200]);
    const audits = (await fx.outbox('audit.record')).filter((e) => e.data.subjectId === fresh.userId);
    expect(audits.map((a) => a.data)).toEqual([
      expect.objectContaining({ action: 'transfer_credits.adjusted', subjectType: 'user', subjectLabel: `Fresh Agent (${fresh.username}@example.com)`, reason: 'Welcome gift', before: { balance: 0 }, after: { balance: 2, transfers: 2 } }),
    ]);
  });

  it('when an admin takes transfers back, then from the newest lots first, and never below zero (409, nothing changed)', async () => {
    const who = await newAgent('Taken', null);
    await fx.publish(paid(orderFacts(who.userId!, { count: 5, amountCents: 18_500 }), new Date(NOW.getTime() - 2 * HOUR)));
    await fx.publish(paid(orderFacts(who.userId!, { tier: 'special', count: 3, unitPriceCents: 3900, amountCents: 11_700 }), new Date(NOW.getTime() - HOUR)));

    const tooMany = await adjust(who, { transfers: -9, reason: 'Chargeback' });
    const four = await adjust(who, { transfers: -4, reason: 'Chargeback' });

    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error).toBe(ADJUSTMENT_BELOW_ZERO_MESSAGE);
    expect(four.body.balance).toBe(4);
    const { rows } = await fx.pool.query('SELECT unit_cents AS u, remaining FROM credit_lots WHERE agent_id = $1 ORDER BY credited_at', [who.userId]);
    expect(rows).toEqual([{ u: 3700, remaining: 4 }, { u: 3900, remaining: 0 }]);
    expect(await balanceOf(fx.pool, who.userId!)).toBe(4);
    expect(await ledgerMismatches(fx.pool)).toEqual([]);
  });

  it('when the body is wrong or the user unknown, then 400 naming the field or 404', async () => {
    const who = await newAgent('Wrong', null);

    const zero = await adjust(who, { transfers: 0, reason: 'x' });
    const noReason = await adjust(who, { transfers: 3, reason: '  ' });
    const unknown = await fx.call('POST', `/api/admin/users/${randomUUID()}/transfer-credits`, { body: { transfers: 3, reason: 'Gift' }, identity: admin });

    expect(zero.status).toBe(400);
    expect(zero.body.issues).toEqual([{ path: 'transfers', message: 'transfers must not be 0' }]);
    expect(noReason.status).toBe(400);
    expect(noReason.body.issues).toEqual([{ path: 'reason', message: 'Give a reason for the adjustment' }]);
    expect(unknown.status).toBe(404);
  });
});
