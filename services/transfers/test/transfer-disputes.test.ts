import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISPUTE_MESSAGES } from '@warmline/contracts';
import type { Identity } from '@warmline/platform/identity';
import { ledgerMismatches } from '../src/db/ledger';
import { adminIdentity, agent, balanceOf, chargeTransfer, insertTransfer, orderFacts, paid, profileOf, startLedgerFixture, type LedgerFixture } from './ledger-fixture';

/**
 * Disputes (issue 23 §6): wrong state, out of hours and duplicate decided at once from the
 * records (the agent's settings when the transfer was routed); the others wait for an admin who
 * accepts once or refuses with a reason; one dispute per transfer, within 7 days, own transfers only.
 */

// Wednesday 25 November 2026, noon in Chicago.
const NOW = new Date('2026-11-25T18:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let fx: LedgerFixture;
const admin = adminIdentity();

beforeAll(async () => {
  fx = await startLedgerFixture(NOW);
});

afterAll(async () => {
  await fx?.cleanup();
});

/** An agent with 10 transfers at $37.00 and their e-mail known to the gateway. */
async function newAgent(): Promise<Identity> {
  const who = agent();
  fx.profiles.set(who.userId!, profileOf({ firstName: 'Avery', email: `${who.username}@example.com` }));
  await fx.publish(paid(orderFacts(who.userId!)));
  return who;
}

/** A transfer routed at `routedAt` (Wed 11:00 Chicago by default) and charged. */
async function charged(who: Identity, t: Partial<Parameters<typeof insertTransfer>[1]> = {}): Promise<string> {
  const id = await insertTransfer(fx.pool, { agentId: who.userId!, routedAt: new Date(NOW.getTime() - HOUR), ...t });
  expect(await chargeTransfer(fx.pool, who.userId!, id)).toBe(3700);
  return id;
}

async function dispute(who: Identity, transferId: string, reason: string, note?: string) {
  return fx.call('POST', `/api/my-transfers/${transferId}/dispute`, { body: { reason, ...(note ? { note } : {}) }, identity: who });
}

async function statusOf(transferId: string): Promise<string> {
  const { rows } = await fx.pool.query('SELECT status FROM transfers WHERE id = $1', [transferId]);
  return rows[0].status;
}

async function decidedEvents(transferId: string) {
  return (await fx.outbox('transfer_dispute.decided')).filter((e) => e.data.transferId === transferId).map((e) => e.data);
}

describe('disputes decided from the records', () => {
  it("when the prospect's state was not one of the agent's states at routing, then wrong state is accepted: credited at the charged price, told by event and e-mail", async () => {
    const me = await newAgent();
    const id = await charged(me, { state: 'FL', agentStates: ['TX', 'OK'] });

    const answer = await dispute(me, id, 'wrong_state');

    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ reason: 'wrong_state', status: 'accepted', decisionReason: null });
    expect(await statusOf(id)).toBe('credited');
    expect(await balanceOf(fx.pool, me.userId!)).toBe(10);
    const { rows } = await fx.pool.query("SELECT source, unit_cents AS \"unitCents\", credited FROM credit_lots WHERE agent_id = $1 AND source = 'dispute'", [me.userId]);
    expect(rows).toEqual([{ source: 'dispute', unitCents: 3700, credited: 1 }]);
    expect(await decidedEvents(id)).toEqual([expect.objectContaining({ decision: 'accepted', by: 'automatic', creditedCents: 3700, reason: 'wrong_state' })]);
    const mails = (await fx.outbox('email.transfer_dispute_decided')).filter((e) => e.data.transferId === id);
    expect(mails.map((m) => m.data)).toEqual([
      expect.objectContaining({ to: `${me.username}@example.com`, firstName: 'Avery', reasonLabel: 'Wrong state', decision: 'accepted', creditedCents: 3700, balanceAfter: 10, prospect: expect.stringMatching(/^Maria Lopez, \(512\) 555-\d{4}$/) }),
    ]);
    expect(await ledgerMismatches(fx.pool)).toEqual([]);
  });

  it("when the state was one of the agent's states, then wrong state is refused with the record's words and stays charged", async () => {
    const me = await newAgent();
    const id = await charged(me, { state: 'TX', agentStates: ['OK', 'TX'] });

    const answer = await dispute(me, id, 'wrong_state');

    expect(answer.body).toMatchObject({ status: 'refused', decisionReason: 'The prospect was in TX, one of your working states (OK, TX) when the transfer was routed' });
    expect(await statusOf(id)).toBe('charged');
    expect(await balanceOf(fx.pool, me.userId!)).toBe(9);
    expect(await decidedEvents(id)).toEqual([expect.objectContaining({ decision: 'refused', creditedCents: 0 })]);
  });

  it('when routing kept no settings on the transfer, then the current settings decide', async () => {
    const me = await newAgent();
    await fx.call('PUT', '/api/my-transfers/settings', {
      body: { transferPhone: '5125550143', states: ['TX'], timeZone: 'America/Chicago', hours: [{ day: 'wed', from: '09:00', to: '17:00' }], dailyCap: 10 },
      identity: me,
    });
    const id = await charged(me, { state: 'OK', agentStates: null, agentHours: null, agentTimeZone: null });

    expect((await dispute(me, id, 'wrong_state')).body.status).toBe('accepted');
  });

  it("when the transfer came outside the agent's hours in their zone, then out of hours is accepted; inside, refused with the time", async () => {
    const me = await newAgent();
    // Saturday 21 November, 10:00 in Chicago; the agent works Mon–Fri 9–5.
    const saturday = await charged(me, { routedAt: new Date('2026-11-21T16:00:00Z') });
    const wednesday = await charged(me, { routedAt: new Date('2026-11-25T17:00:00Z') });

    const accepted = await dispute(me, saturday, 'out_of_hours');
    const refused = await dispute(me, wednesday, 'out_of_hours');

    expect(accepted.body.status).toBe('accepted');
    expect(refused.body).toMatchObject({ status: 'refused', decisionReason: 'The transfer came Wed 11:00 AM Central Time, inside your hours (9:00 AM – 5:00 PM)' });
  });

  it('when the same phone was transferred to the agent within 30 days before, then duplicate is accepted; otherwise refused', async () => {
    const me = await newAgent();
    await insertTransfer(fx.pool, { agentId: me.userId!, routedAt: new Date(NOW.getTime() - 3 * DAY), phone: '5125550777', status: 'buffer_protected' });
    await insertTransfer(fx.pool, { agentId: me.userId!, routedAt: new Date(NOW.getTime() - 40 * DAY), phone: '5125550888', status: 'buffer_protected' });
    const repeat = await charged(me, { phone: '5125550777' });
    const longAgo = await charged(me, { phone: '5125550888' });

    expect((await dispute(me, repeat, 'duplicate')).body.status).toBe('accepted');
    const refused = await dispute(me, longAgo, 'duplicate');
    expect(refused.body).toMatchObject({ status: 'refused', decisionReason: '(512) 555-0888 was not transferred to you in the 30 days before this transfer' });
  });
});

describe('the rules of disputing', () => {
  it('when the agent disputes a transfer twice, then the second is 409 and nothing more is credited', async () => {
    const me = await newAgent();
    const id = await charged(me, { state: 'FL', agentStates: ['TX'] });
    await dispute(me, id, 'wrong_state');

    const again = await dispute(me, id, 'wrong_state');

    expect(again.status).toBe(409);
    expect(again.body.error).toBe(DISPUTE_MESSAGES.already);
    expect(await balanceOf(fx.pool, me.userId!)).toBe(10);
  });

  it('when the transfer is more than 7 days old, then the dispute is refused with 409', async () => {
    const me = await newAgent();
    const id = await charged(me, { routedAt: new Date(NOW.getTime() - 7 * DAY - HOUR), state: 'FL' });

    const answer = await dispute(me, id, 'wrong_state');

    expect(answer.status).toBe(409);
    expect(answer.body.error).toBe(DISPUTE_MESSAGES.tooLate);
    expect(await statusOf(id)).toBe('charged');
  });

  it("when the transfer is another agent's, unknown or not charged, then 404, 404 and 409", async () => {
    const me = await newAgent();
    const someoneElse = await newAgent();
    const theirs = await charged(someoneElse);
    const protectedOne = await insertTransfer(fx.pool, { agentId: me.userId!, routedAt: new Date(NOW.getTime() - HOUR), status: 'buffer_protected' });

    expect((await dispute(me, theirs, 'wrong_number')).status).toBe(404);
    expect((await dispute(me, randomUUID(), 'wrong_number')).status).toBe(404);
    expect((await dispute(me, 'not-an-id', 'wrong_number')).status).toBe(404);
    const notCharged = await dispute(me, protectedOne, 'wrong_number');
    expect(notCharged.status).toBe(409);
    expect(notCharged.body.error).toBe(DISPUTE_MESSAGES.notCharged);
    expect(await statusOf(theirs)).toBe('charged');
  });

  it('when the reason is unknown, then 400 names it', async () => {
    const me = await newAgent();
    const id = await charged(me);

    const answer = await dispute(me, id, 'bored');

    expect(answer.status).toBe(400);
    expect(answer.body.issues).toEqual([{ path: 'reason', message: expect.stringContaining('reason must be one of') }]);
  });
});

describe('disputes an admin decides', () => {
  it('when the reason needs an admin, then it waits (Disputed) in the queue, oldest first, with its label, note and agent', async () => {
    const me = await newAgent();
    const first = await charged(me);
    const second = await charged(me);
    await dispute(me, first, 'wrong_number', 'A fax machine answered');
    fx.setNow(new Date(NOW.getTime() + 1000));
    await dispute(me, second, 'call_dropped');
    fx.setNow(NOW);

    const queue = await fx.call('GET', '/api/admin/transfer-disputes?status=pending', { identity: admin });

    expect(queue.status).toBe(200);
    const mine = (queue.body.disputes as Array<Record<string, unknown>>).filter((d) => (d.agent as { id: string }).id === me.userId);
    expect(mine.map((d) => [d.reasonLabel, d.note, (d.transfer as { id: string; status: string }).status])).toEqual([
      ['Not the prospect / wrong number', 'A fax machine answered', 'disputed'],
      ['Call dropped', null, 'disputed'],
    ]);
    expect(await decidedEvents(first)).toEqual([]);
  });

  it('when an admin accepts, then the transfer is credited once: a second decision is 409, the decision audited and the agent told', async () => {
    const me = await newAgent();
    const id = await charged(me);
    const opened = await dispute(me, id, 'not_shopping');
    const disputeId = String(opened.body.id);

    const accepted = await fx.call('POST', `/api/admin/transfer-disputes/${disputeId}`, { body: { decision: 'accept' }, identity: admin });
    const again = await fx.call('POST', `/api/admin/transfer-disputes/${disputeId}`, { body: { decision: 'accept' }, identity: admin });
    const refuseAfter = await fx.call('POST', `/api/admin/transfer-disputes/${disputeId}`, { body: { decision: 'refuse', reason: 'Changed my mind' }, identity: admin });

    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'accepted' });
    expect([again.status, refuseAfter.status]).toEqual([409, 409]);
    expect(again.body.error).toBe(DISPUTE_MESSAGES.decided);
    expect(await statusOf(id)).toBe('credited');
    expect(await balanceOf(fx.pool, me.userId!)).toBe(10);
    expect(await decidedEvents(id)).toEqual([expect.objectContaining({ decision: 'accepted', by: 'admin', creditedCents: 3700 })]);
    const audits = (await fx.outbox('audit.record')).filter((e) => e.data.subjectId === disputeId);
    expect(audits.map((a) => a.data)).toEqual([
      expect.objectContaining({ actorId: admin.userId, action: 'transfer_dispute.decided', subjectType: 'transfer_dispute', before: { status: 'pending' }, after: { status: 'accepted', creditedCents: 3700 } }),
    ]);
    expect(await ledgerMismatches(fx.pool)).toEqual([]);
  });

  it('when an admin refuses, then a reason is required (400), and with one the transfer is charged again', async () => {
    const me = await newAgent();
    const id = await charged(me);
    const disputeId = String((await dispute(me, id, 'call_dropped')).body.id);

    const noReason = await fx.call('POST', `/api/admin/transfer-disputes/${disputeId}`, { body: { decision: 'refuse' }, identity: admin });
    const refused = await fx.call('POST', `/api/admin/transfer-disputes/${disputeId}`, { body: { decision: 'refuse', reason: 'The call ran 6 minutes' }, identity: admin });

    expect(noReason.status).toBe(400);
    expect(noReason.body.issues).toEqual([{ path: 'reason', message: DISPUTE_MESSAGES.refuseReason }]);
    expect(refused.body).toMatchObject({ status: 'refused', decisionReason: 'The call ran 6 minutes' });
    expect(await statusOf(id)).toBe('charged');
    expect(await balanceOf(fx.pool, me.userId!)).toBe(9);
    const mail = (await fx.outbox('email.transfer_dispute_decided')).find((e) => e.data.transferId === id);
    expect(mail?.data).toMatchObject({ decision: 'refused', decisionReason: 'The call ran 6 minutes', reasonLabel: 'Call dropped' });
  });

  it('when the dispute is unknown, then 404', async () => {
    const answer = await fx.call('POST', `/api/admin/transfer-disputes/${randomUUID()}`, { body: { decision: 'accept' }, identity: admin });

    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe(DISPUTE_MESSAGES.notFound);
  });
});
