import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSFER_OUTCOME_CONFLICT_MESSAGE } from '@warmline/contracts';
import { outboxEnvelopes } from '@warmline/platform/testing/system';
import { ledgerMismatches } from '../src/db/ledger';
import { prospect, startTransfersFixture, type TransfersFixture } from './transfers-fixture';

/** Issue 23 §4: the outcome and the 120-second buffer. */
let f: TransfersFixture;
let key: { id: string; key: string };

beforeAll(async () => {
  f = await startTransfersFixture();
  key = await f.vendorKey();
}, 60_000);
afterAll(async () => f?.cleanup());

/** A fresh agent with `balance` transfers at $37 and one transfer routed to them. */
async function routedTransfer(balance = 3): Promise<{ agentId: string; transferId: string }> {
  const agentId = await f.agent({ states: ['TX'], atOnce: 5 });
  await f.credit(agentId, balance);
  // Only this agent works Vermont in this file.
  await f.pool.query("UPDATE agents SET states = '{VT}' WHERE user_id = $1", [agentId]);
  const routed = await f.route(key.key, prospect({ state: 'VT', phone_number: `802${String(Math.floor(2000000 + Math.random() * 7000000))}` }));
  expect(routed.body).toMatchObject({ success: true, routed: true });
  await f.pool.query("UPDATE agents SET states = '{}' WHERE user_id = $1", [agentId]);
  return { agentId, transferId: String(routed.body.transfer_id) };
}

describe('the 120-second buffer', () => {
  for (const seconds of [0, 119, 120]) {
    it(`connected for ${seconds} s is buffer-protected and not charged`, async () => {
      const { agentId, transferId } = await routedTransfer();
      const answer = await f.outcome(key.key, transferId, { connected: true, duration_seconds: seconds });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ success: true, transfer_id: transferId, status: 'buffer_protected', charged: false, charged_cents: 0 });
      expect(await f.balance(agentId)).toBe(3);
    });
  }

  it('connected for 121 s charges one transfer at its credit price, once', async () => {
    const { agentId, transferId } = await routedTransfer();
    const body = { connected: true, duration_seconds: 121, answered_at: '2026-11-27T18:00:05Z', recording_url: 'https://rec.example.com/1.mp3', transcript: 'Agent: hello', disposition: 'sold' };
    const answer = await f.outcome(key.key, transferId, body);
    expect(answer.body).toEqual({ success: true, transfer_id: transferId, status: 'charged', charged: true, charged_cents: 3700 });
    expect(await f.balance(agentId)).toBe(2);
    // The same outcome again (another offset, the same instant) answers the same and charges nothing.
    const again = await f.outcome(key.key, transferId, { ...body, answered_at: '2026-11-27T12:00:05-06:00' });
    expect(again.body).toEqual(answer.body);
    expect(await f.balance(agentId)).toBe(2);
    const { rows } = await f.pool.query('SELECT status, charged_cents, lot_id, recording_url, transcript, disposition, answered_at FROM transfers WHERE id = $1', [transferId]);
    expect(rows[0]).toMatchObject({ status: 'charged', charged_cents: 3700, recording_url: body.recording_url, transcript: 'Agent: hello', disposition: 'sold' });
    expect(rows[0].lot_id).not.toBeNull();
    expect((rows[0].answered_at as Date).toISOString()).toBe('2026-11-27T18:00:05.000Z');
  });

  it('not connected is not charged', async () => {
    const { agentId, transferId } = await routedTransfer();
    const answer = await f.outcome(key.key, transferId, { connected: false, duration_seconds: 0 });
    expect(answer.body).toMatchObject({ status: 'not_connected', charged: false, charged_cents: 0 });
    expect(await f.balance(agentId)).toBe(3);
  });
});

describe('settling', () => {
  it('a different outcome for a settled transfer is 409 and changes nothing', async () => {
    const { agentId, transferId } = await routedTransfer();
    await f.outcome(key.key, transferId, { connected: true, duration_seconds: 60 });
    const different = await f.outcome(key.key, transferId, { connected: true, duration_seconds: 300 });
    expect(different.status).toBe(409);
    expect(different.body).toEqual({ success: false, message: TRANSFER_OUTCOME_CONFLICT_MESSAGE });
    expect(await f.balance(agentId)).toBe(3);
  });

  it('an outcome after the reservation lapsed is still taken', async () => {
    const { agentId, transferId } = await routedTransfer();
    f.setNow(new Date(f.now().getTime() + 10 * 60_000));
    const answer = await f.outcome(key.key, transferId, { connected: true, duration_seconds: 400 });
    expect(answer.body).toMatchObject({ status: 'charged', charged: true });
    expect(await f.balance(agentId)).toBe(2);
  });

  it('with nothing left to charge the transfer is unbilled, the balance stays at zero', async () => {
    const { agentId, transferId } = await routedTransfer(1);
    // Taken back meanwhile (as a refund would).
    await f.pool.query('UPDATE credit_lots SET remaining = 0 WHERE agent_id = $1', [agentId]);
    await f.pool.query("INSERT INTO ledger_entries (agent_id, lot_id, kind, transfers, unit_cents, cause, cause_id, at) SELECT agent_id, id, 'refund_takeback', -1, unit_cents, 'Refund', 'r1', now() FROM credit_lots WHERE agent_id = $1", [agentId]);
    await f.pool.query('UPDATE agents SET balance = 0 WHERE user_id = $1', [agentId]);
    const answer = await f.outcome(key.key, transferId, { connected: true, duration_seconds: 400 });
    expect(answer.body).toMatchObject({ status: 'unbilled', charged: false, charged_cents: 0 });
    expect(await f.balance(agentId)).toBe(0);
  });

  it('a transfer is found only by the key that routed it; a bad id is 404', async () => {
    const { transferId } = await routedTransfer();
    const other = await f.vendorKey('Other vendor');
    const answer = await f.outcome(other.key, transferId, { connected: false, duration_seconds: 0 });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ success: false, message: 'Transfer not found' });
    // Refused by the route kit before the call is read, still in the webhook's shape.
    const malformed = await f.outcome(key.key, 'not-a-uuid', { connected: false, duration_seconds: 0 });
    expect([malformed.status, malformed.body]).toEqual([404, { success: false, message: 'Transfer not found' }]);
    expect((await f.outcome(key.key, crypto.randomUUID(), { connected: false, duration_seconds: 0 })).status).toBe(404);
  });

  it('a bad outcome is 400 naming the field', async () => {
    const { transferId } = await routedTransfer();
    const answer = await f.outcome(key.key, transferId, { connected: 'yes', duration_seconds: -1 });
    expect(answer.status).toBe(400);
    expect(answer.body.fields).toEqual(['connected', 'duration_seconds']);
  });

  it('100 concurrent outcomes (repeats among them) never charge a transfer twice nor go below zero', async () => {
    const agentId = await f.agent({ states: ['VT'], atOnce: 20 });
    await f.credit(agentId, 10);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      // Ten reservations take the whole balance; once they lapse, ten more are routed.
      if (i === 10) f.setNow(new Date(f.now().getTime() + 61_000));
      const routed = await f.route(key.key, prospect({ state: 'VT', phone_number: `80255${String(10000 + i)}` }));
      expect(routed.body).toMatchObject({ routed: true });
      ids.push(String(routed.body.transfer_id));
    }
    await f.pool.query("UPDATE agents SET states = '{}' WHERE user_id = $1", [agentId]);
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => f.outcome(key.key, ids[i % 20]!, { connected: true, duration_seconds: 200 })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const charged = new Set(answers.filter((a) => a.body.status === 'charged').map((a) => a.body.transfer_id));
    expect(charged.size).toBe(10);
    expect(new Set(answers.filter((a) => a.body.status === 'unbilled').map((a) => a.body.transfer_id)).size).toBe(10);
    expect(await f.balance(agentId)).toBe(0);
    const { rows } = await f.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM ledger_entries WHERE agent_id = $1 AND kind = 'charge'", [agentId]);
    expect(rows[0]!.n).toBe(10);
    expect(await ledgerMismatches(f.pool)).toEqual([]);
  });
});

describe("a 'dnc' outcome (issue 24)", () => {
  it("when the prospect said not to call again, then the phone is asked onto the suppression list once, naming the transfer and the vendor; other dispositions ask nothing", async () => {
    const { transferId } = await routedTransfer();
    const { rows } = await f.pool.query<{ phone: string }>('SELECT phone FROM transfers WHERE id = $1', [transferId]);
    const body = { connected: true, duration_seconds: 200, disposition: ' DNC ' };
    expect((await f.outcome(key.key, transferId, body)).status).toBe(200);
    // The vendor repeats itself: the same answer, no second request.
    expect((await f.outcome(key.key, transferId, body)).status).toBe(200);
    const asked = (await outboxEnvelopes(f.pool, 'lead_suppression.add')).filter((e) => e.data.transferId === transferId);
    expect(asked.map((e) => e.data)).toEqual([
      { phone: rows[0]!.phone, reason: "Transfer outcome 'DNC' (BrightCall)", transferId, requestedAt: f.now().toISOString() },
    ]);

    const other = await routedTransfer();
    expect((await f.outcome(key.key, other.transferId, { connected: true, duration_seconds: 200, disposition: 'sold' })).status).toBe(200);
    expect((await outboxEnvelopes(f.pool, 'lead_suppression.add')).filter((e) => e.data.transferId === other.transferId)).toEqual([]);
  });
});
