import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HoursRange } from '@warmline/contracts';
import { lookAndLock } from '../src/db/routing';
import { withinHours } from '../src/domain/hours';
import { ALL_WEEK, NOON_CHICAGO, prospect, startTransfersFixture, type TransfersFixture } from './transfers-fixture';

/** Issue 23 §3: each routing rule alone. Every test starts with no agent but its own. */
let f: TransfersFixture;
let key: string;

beforeAll(async () => {
  f = await startTransfersFixture();
  key = (await f.vendorKey()).key;
}, 60_000);
afterAll(async () => f?.cleanup());
beforeEach(async () => {
  await f.pool.query('UPDATE agents SET deleted_at = now() WHERE deleted_at IS NULL');
  f.setNow(NOON_CHICAGO);
});

async function routed(body = prospect()): Promise<{ routed: boolean; transfer_id?: string; reason?: string; agent?: string }> {
  const answer = await f.route(key, body);
  expect(answer.status).toBe(200);
  if (!answer.body.routed) return answer.body as { routed: false; reason: string };
  const { rows } = await f.pool.query<{ agent_id: string }>('SELECT agent_id FROM transfers WHERE id = $1', [answer.body.transfer_id]);
  return { ...(answer.body as { routed: true; transfer_id: string }), agent: rows[0]!.agent_id };
}

const settle = (transferId: string | undefined, connected = true) => f.outcome(key, String(transferId), { connected, duration_seconds: connected ? 200 : 0 });

describe('a routed transfer', () => {
  it('keeps the states, hours and zone the agent had when it was routed (a dispute is decided by them)', async () => {
    const agent = await f.agent({ states: ['OK', 'TX'], timeZone: 'America/Denver' });
    await f.credit(agent, 1);
    const first = await routed();
    await f.pool.query("UPDATE agents SET states = '{FL}', time_zone = 'America/New_York', hours = '[]' WHERE user_id = $1", [agent]);
    const { rows } = await f.pool.query<{ agent_states: string[]; agent_hours: HoursRange[]; agent_time_zone: string }>(
      'SELECT agent_states, agent_hours, agent_time_zone FROM transfers WHERE id = $1',
      [first.transfer_id],
    );
    expect(rows[0]).toEqual({ agent_states: ['OK', 'TX'], agent_hours: ALL_WEEK, agent_time_zone: 'America/Denver' });
  });
});

describe('an agent is eligible when', () => {
  it('their balance minus their live reservations is positive (a lapsed or settled reservation frees it)', async () => {
    const agent = await f.agent({ atOnce: 10 });
    expect(await routed()).toMatchObject({ routed: false, reason: 'no_agent_available' });
    await f.credit(agent, 2);
    const first = await routed();
    expect(first).toMatchObject({ routed: true, agent });
    expect(await routed()).toMatchObject({ routed: true, agent });
    expect(await routed()).toMatchObject({ routed: false, reason: 'no_agent_available' });
    // Not connected: the slot is free again, nothing charged.
    await settle(first.transfer_id, false);
    expect(await routed()).toMatchObject({ routed: true, agent });
    // Both reservations lapse after 60 s unreported.
    f.setNow(new Date(f.now().getTime() + 61_000));
    expect(await routed()).toMatchObject({ routed: true, agent });
  });

  it('they work the prospect’s state (from the area code when the vendor sends none)', async () => {
    const agent = await f.agent({ states: ['FL'] });
    await f.credit(agent, 5);
    expect(await routed(prospect({ state: 'TX' }))).toMatchObject({ routed: false, reason: 'no_agent_available' });
    const { state: _none, ...miami } = prospect({ phone_number: '(305) 555-0143' });
    expect(await routed(miami)).toMatchObject({ routed: true, agent });
    const { rows } = await f.pool.query("SELECT state FROM transfers WHERE call_id = $1", [miami.call_id]);
    expect(rows[0]).toEqual({ state: 'FL' });
  });

  it('now is inside their hours in their zone, across a DST change', async () => {
    // Mondays 9–10 am New York time: 13:00–14:00 UTC before 1 Nov 2026 (EDT), 14:00–15:00 after (EST).
    const agent = await f.agent({ states: ['NY'], timeZone: 'America/New_York', hours: [{ day: 'mon', from: '09:00', to: '10:00' }], atOnce: 10 });
    await f.credit(agent, 10);
    const ny = () => prospect({ state: 'NY', phone_number: `212${String(2000000 + Math.floor(Math.random() * 7000000))}` });
    f.setNow('2026-10-26T13:30:00Z');
    expect(await routed(ny())).toMatchObject({ routed: true, agent });
    f.setNow('2026-10-26T14:30:00Z');
    expect(await routed(ny())).toMatchObject({ routed: false, reason: 'no_agent_available' });
    f.setNow('2026-11-02T13:30:00Z');
    expect(await routed(ny())).toMatchObject({ routed: false, reason: 'no_agent_available' });
    f.setNow('2026-11-02T14:30:00Z');
    expect(await routed(ny())).toMatchObject({ routed: true, agent });
  });

  it('the database’s reading of their hours agrees with domain/hours.ts at every half hour around both DST changes', async () => {
    const hours: HoursRange[] = [
      { day: 'sun', from: '00:30', to: '03:30' },
      { day: 'sun', from: '22:00', to: '24:00' },
      { day: 'mon', from: '00:00', to: '01:00' },
      { day: 'sat', from: '23:30', to: '24:00' },
    ];
    const agent = await f.agent({ states: ['NY'], timeZone: 'America/New_York', hours });
    await f.credit(agent, 1);
    const seen = new Set<boolean>();
    for (const start of ['2026-03-07T12:00:00Z', '2026-10-31T12:00:00Z']) {
      for (let step = 0; step < 96; step++) {
        const at = new Date(new Date(start).getTime() + step * 30 * 60_000);
        const { candidates: found } = await lookAndLock(f.pool, { now: at, state: 'NY', phone: '2125550000', repeatSince: at }, 5, []);
        expect({ at: at.toISOString(), eligible: found.includes(agent) }).toEqual({ at: at.toISOString(), eligible: withinHours(hours, 'America/New_York', at) });
        seen.add(found.includes(agent));
      }
    }
    expect([...seen].sort()).toEqual([false, true]);
  });

  it('today’s transfers in their own day are under their cap', async () => {
    // A Puerto Rico agent's day turns at 04:00 UTC; a Hawaii prospect is in calling hours then.
    const agent = await f.agent({ states: ['HI'], timeZone: 'America/Puerto_Rico', dailyCap: 2, atOnce: 10 });
    await f.credit(agent, 10);
    const hi = () => prospect({ state: 'HI', phone_number: `808${String(2000000 + Math.floor(Math.random() * 7000000))}` });
    f.setNow('2026-11-27T03:50:00Z');
    const first = await routed(hi());
    expect(first).toMatchObject({ routed: true, agent });
    expect(await routed(hi())).toMatchObject({ routed: true, agent });
    expect(await routed(hi())).toMatchObject({ routed: false, reason: 'no_agent_available' });
    const { rows } = await f.pool.query('SELECT agent_date::text AS d FROM transfers WHERE id = $1', [first.transfer_id]);
    expect(rows[0]).toEqual({ d: '2026-11-26' });
    f.setNow('2026-11-27T04:10:00Z');
    expect(await routed(hi())).toMatchObject({ routed: true, agent });
  });

  it('they are not paused', async () => {
    const agent = await f.agent({ paused: true });
    await f.credit(agent, 5);
    expect(await routed()).toMatchObject({ routed: false, reason: 'no_agent_available' });
    await f.pool.query('UPDATE agents SET paused = false WHERE user_id = $1', [agent]);
    expect(await routed()).toMatchObject({ routed: true, agent });
  });

  it('they are under their at-once limit', async () => {
    const agent = await f.agent({ atOnce: 1 });
    await f.credit(agent, 5);
    const first = await routed();
    expect(first).toMatchObject({ routed: true, agent });
    expect(await routed()).toMatchObject({ routed: false, reason: 'no_agent_available' });
    await settle(first.transfer_id);
    expect(await routed()).toMatchObject({ routed: true, agent });
  });

  it('they were not sent this phone within 30 days', async () => {
    const agent = await f.agent({ atOnce: 10 });
    await f.credit(agent, 5);
    const first = await routed(prospect({ phone_number: '5125550177' }));
    expect(first).toMatchObject({ routed: true, agent });
    await settle(first.transfer_id);
    expect(await routed(prospect({ phone_number: '5125550177' }))).toMatchObject({ routed: false, reason: 'no_agent_available' });
    const other = await f.agent({ atOnce: 10 });
    await f.credit(other, 5);
    expect(await routed(prospect({ phone_number: '5125550177' }))).toMatchObject({ routed: true, agent: other });
    await f.pool.query('UPDATE agents SET deleted_at = now() WHERE user_id = $1', [other]);
    f.setNow(new Date(f.now().getTime() + 31 * 86_400_000));
    expect(await routed(prospect({ phone_number: '5125550177' }))).toMatchObject({ routed: true, agent });
  });
});

describe('the prospect', () => {
  it('is only routed inside 8 am–9 pm of their own zone, by area code in split states', async () => {
    const agent = await f.agent({ states: ['TX', 'FL', 'NY'], atOnce: 20, hours: ALL_WEEK });
    await f.credit(agent, 20);
    // 13:30 UTC: 8:30 am in New York and Miami, 7:30 am in Austin and in the Central panhandle (850).
    f.setNow('2026-11-27T13:30:00Z');
    expect(await routed(prospect({ state: 'NY', phone_number: '2125550101' }))).toMatchObject({ routed: true });
    expect(await routed(prospect({ state: 'FL', phone_number: '3055550101' }))).toMatchObject({ routed: true });
    expect(await routed(prospect({ state: 'TX', phone_number: '5125550101' }))).toMatchObject({ routed: false, reason: 'outside_calling_hours' });
    expect(await routed(prospect({ state: 'FL', phone_number: '8505550101' }))).toMatchObject({ routed: false, reason: 'outside_calling_hours' });
    // 03:30 UTC: 9:30 pm in Austin, 8:30 pm in El Paso (915, Mountain).
    f.setNow('2026-11-28T03:30:00Z');
    expect(await routed(prospect({ state: 'TX', phone_number: '5125550102' }))).toMatchObject({ routed: false, reason: 'outside_calling_hours' });
    expect(await routed(prospect({ state: 'TX', phone_number: '9155550102' }))).toMatchObject({ routed: true, agent });
  });

  it('is never routed when the phone is on the suppression list', async () => {
    const agent = await f.agent();
    await f.credit(agent, 5);
    await f.suppress('5125550199');
    expect(await routed(prospect({ phone_number: '512-555-0199' }))).toMatchObject({ routed: false, reason: 'suppressed' });
    await f.suppress('5125550199', false, new Date(f.now().getTime() + 1000));
    expect(await routed(prospect({ phone_number: '512-555-0199' }))).toMatchObject({ routed: true, agent });
  });
});

describe('fair rotation', () => {
  it('30 routes over three equal agents give each 10, the longest waiting first', async () => {
    const agents = [await f.agent({ atOnce: 30 }), await f.agent({ atOnce: 30 }), await f.agent({ atOnce: 30 })];
    for (const a of agents) await f.credit(a, 30);
    const got = new Map<string, number>();
    const order: string[] = [];
    for (let i = 0; i < 30; i++) {
      const r = await routed(prospect({ phone_number: `51255${String(20000 + i)}` }));
      expect(r.routed).toBe(true);
      got.set(r.agent!, (got.get(r.agent!) ?? 0) + 1);
      order.push(r.agent!);
      f.setNow(new Date(f.now().getTime() + 1000));
    }
    expect([...got.values()]).toEqual([10, 10, 10]);
    // Never routed agents first, by id; then round and round.
    expect(order.slice(0, 3)).toEqual([...agents].sort());
    expect(order.slice(3, 6)).toEqual(order.slice(0, 3));
  });

  it('the answer names the agent and the number to dial', async () => {
    const agent = await f.agent({ displayName: 'Dana Smith', transferPhone: '5125550143' });
    await f.credit(agent, 1);
    const answer = await f.route(key, prospect());
    expect(answer.body).toEqual({
      success: true,
      routed: true,
      transfer_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      transfer_phone: '5125550143',
      agent_name: 'Dana Smith',
      expires_at: new Date(f.now().getTime() + 60_000).toISOString(),
    });
    const unnamed = await f.agent({ displayName: '' });
    await f.credit(unnamed, 1);
    expect((await f.route(key, prospect())).body).toMatchObject({ routed: true, agent_name: 'Your agent' });
  });
});
