import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MyTransfersAnswer } from '@warmline/contracts';
import { agent, insertTransfer, startLedgerFixture, type LedgerFixture } from './ledger-fixture';

/** Issue 24 §3: every row of My Transfers says the prospect's local time and whether a call is allowed now. */

// Saturday 28 November 2026, 01:30 UTC: 8:30 pm in Miami, 7:30 pm in Austin.
const NOW = new Date('2026-11-28T01:30:00Z');
let fx: LedgerFixture;
const me = agent();

beforeAll(async () => {
  fx = await startLedgerFixture(NOW);
  const saved = await fx.call('PUT', '/api/my-transfers/settings', {
    body: { transferPhone: '5125550143', states: ['FL', 'TX'], timeZone: 'America/Chicago', hours: [{ day: 'fri', from: '09:00', to: '17:00' }], dailyCap: 30, atOnce: 1 },
    identity: me,
  });
  expect(saved.status).toBe(200);
  await insertTransfer(fx.pool, { agentId: me.userId!, routedAt: new Date(NOW.getTime() - 3_600_000), state: 'FL', phone: '3055550188' });
  await insertTransfer(fx.pool, { agentId: me.userId!, routedAt: new Date(NOW.getTime() - 2 * 3_600_000), state: 'TX', phone: '5125550188' });
});
afterAll(async () => fx?.cleanup());

describe('My Transfers and calling hours', () => {
  it("when the agent opens My Transfers at 8:30 pm Eastern, then the Florida prospect is not callable (Florida's 8 pm) and the Texas one is", async () => {
    const answer = await fx.call('GET', '/api/my-transfers', { identity: me });
    expect(answer.status).toBe(200);
    const rows = (answer.body as unknown as MyTransfersAnswer).transfers;
    const fl = rows.find((t) => t.state === 'FL')!;
    const tx = rows.find((t) => t.state === 'TX')!;
    expect(fl).toMatchObject({ localTime: '8:30 PM EST', callableNow: false, callingHoursNote: 'Opens 8:00 AM (Florida: 8:00 AM–8:00 PM)' });
    expect(tx).toMatchObject({ localTime: '7:30 PM CST', callableNow: true, callingHoursNote: null });
  });

  it('when the clock moves to the next morning, then the same rows read anew (computed per request, not stored)', async () => {
    fx.setNow(new Date('2026-11-28T14:00:00Z'));
    const answer = await fx.call('GET', '/api/my-transfers', { identity: me });
    const rows = (answer.body as unknown as MyTransfersAnswer).transfers;
    expect(rows.find((t) => t.state === 'FL')).toMatchObject({ localTime: '9:00 AM EST', callableNow: true });
    expect(rows.find((t) => t.state === 'TX')).toMatchObject({ localTime: '8:00 AM CST', callableNow: true });
  });
});
