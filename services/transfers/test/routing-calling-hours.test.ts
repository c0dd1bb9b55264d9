import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALL_WEEK, prospect, startTransfersFixture, type TransfersFixture } from './transfers-fixture';

/**
 * Issue 24 §3: routing applies the state rules of the one calling-hours table — 8 pm in Florida,
 * Oklahoma and Maryland — and, where the state caps calls, refuses a phone that had 3 transfers
 * in the last 24 hours (the vendor contract's one reason, outside_calling_hours).
 */
let f: TransfersFixture;
let key: string;

beforeAll(async () => {
  f = await startTransfersFixture();
  key = (await f.vendorKey()).key;
}, 60_000);
afterAll(async () => f?.cleanup());
beforeEach(async () => {
  await f.pool.query('UPDATE agents SET deleted_at = now() WHERE deleted_at IS NULL');
});

async function routed(body = prospect()): Promise<{ routed: boolean; reason?: string; transfer_id?: string }> {
  const answer = await f.route(key, body);
  expect(answer.status).toBe(200);
  return answer.body as { routed: boolean; reason?: string };
}

describe('routing and the state calling-hours rules', () => {
  it('when it is 8:30 pm in Miami, then a Florida prospect is refused while a New York one at 8:30 pm is routed', async () => {
    const agent = await f.agent({ states: ['FL', 'NY', 'OK', 'MD'], atOnce: 20, hours: ALL_WEEK });
    await f.credit(agent, 20);
    // Friday 27 Nov 2026, 01:30 UTC Saturday: 8:30 pm EST.
    f.setNow('2026-11-28T01:30:00Z');
    expect(await routed(prospect({ state: 'FL', phone_number: '3055550131' }))).toEqual({ success: true, routed: false, reason: 'outside_calling_hours' });
    expect(await routed(prospect({ state: 'MD', phone_number: '4105550131' }))).toMatchObject({ routed: false, reason: 'outside_calling_hours' });
    expect(await routed(prospect({ state: 'NY', phone_number: '2125550131' }))).toMatchObject({ routed: true });
    // 7:59 pm in Miami: routed.
    f.setNow('2026-11-28T00:59:00Z');
    expect(await routed(prospect({ state: 'FL', phone_number: '3055550132' }))).toMatchObject({ routed: true });
    // 8:00 pm in Oklahoma City (Central) is 02:00 UTC.
    f.setNow('2026-11-28T01:59:00Z');
    expect(await routed(prospect({ state: 'OK', phone_number: '4055550131' }))).toMatchObject({ routed: true });
    f.setNow('2026-11-28T02:00:00Z');
    expect(await routed(prospect({ state: 'OK', phone_number: '4055550132' }))).toMatchObject({ routed: false, reason: 'outside_calling_hours' });
  });

  it('when a Florida phone had 3 transfers in the last 24 hours, then a fourth is refused until the first is 24 hours old; Texas has no cap', async () => {
    // Three agents: no agent is sent the same phone twice in 30 days.
    const agents = [await f.agent({ states: ['FL', 'TX'], atOnce: 5 }), await f.agent({ states: ['FL', 'TX'], atOnce: 5 }), await f.agent({ states: ['FL', 'TX'], atOnce: 5 }), await f.agent({ states: ['FL', 'TX'], atOnce: 5 })];
    for (const a of agents) await f.credit(a, 5);
    const start = new Date('2026-11-27T15:00:00Z'); // 10:00 am in Miami
    for (let i = 0; i < 3; i++) {
      f.setNow(new Date(start.getTime() + i * 3_600_000));
      expect(await routed(prospect({ state: 'FL', phone_number: '3055550177' }))).toMatchObject({ routed: true });
    }
    f.setNow(new Date(start.getTime() + 3 * 3_600_000));
    expect(await routed(prospect({ state: 'FL', phone_number: '3055550177' }))).toMatchObject({ routed: false, reason: 'outside_calling_hours' });
    // The next morning, 24 hours after the first: the first no longer counts.
    f.setNow(new Date(start.getTime() + 24 * 3_600_000 + 60_000));
    expect(await routed(prospect({ state: 'FL', phone_number: '3055550177' }))).toMatchObject({ routed: true });

    // Texas: no state cap; the same number of transfers leaves it routable.
    for (let i = 0; i < 4; i++) {
      f.setNow(new Date(start.getTime() + 48 * 3_600_000 + i * 60_000));
      expect(await routed(prospect({ state: 'TX', phone_number: '5125550177' }))).toMatchObject({ routed: true });
    }
  });
});
