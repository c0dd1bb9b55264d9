import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandData, MyTransfersAnswer } from '@warmline/contracts';
import { enqueue } from '@warmline/platform/bus/index';
import { withTransaction } from '@warmline/platform/db/index';
import { waitFor } from '@warmline/platform/testing/index';
import { ensureAgent } from '../src/db/ledger';
import { changeSuppressionCopy } from '../src/domain/opt-outs';
import { TRANSFER_MIRRORS_QUEUE } from '../src/events/consumers';
import { agent, insertTransfer, profileOf, startLedgerFixture, type LedgerFixture } from './ledger-fixture';

/**
 * Issue 24: a phone that opts out after it was transferred. The copy of the suppression list
 * changes; My Transfers and its CSV mark the phone 'Do not call — opted out on …'; each agent who
 * received a transfer of it is e-mailed once (through the outbox, the broker and the gateway),
 * however often the change or the notice is delivered, and not when the phone was released since.
 */

const NOW = new Date('2026-11-25T18:00:00Z');
const HOUR = 3_600_000;
let fx: LedgerFixture;

beforeAll(async () => {
  fx = await startLedgerFixture(NOW);
}, 60_000);
afterAll(async () => fx?.cleanup());

let phoneSerial = 0;
const freshPhone = () => `737555${String(1000 + (phoneSerial += 1)).slice(-4)}`;

/** An agent the transfers service knows (as a paid order or their settings would make them). */
async function knownAgent() {
  const who = agent();
  await ensureAgent(fx.pool, who.userId!);
  return who;
}

async function suppressCopy(phone: string, at: Date, suppressed = true, reason = 'Asked to stop') {
  await withTransaction(fx.pool, (db) => changeSuppressionCopy(db, { phone, suppressed, at: at.toISOString(), reason }, randomUUID()));
}

async function noticesFor(phone: string) {
  return (await fx.outbox('email.lead_opt_out')).filter((e) => (e.data.transfers as Array<{ phone: string }> | undefined)?.some((t) => t.phone.replace(/\D/g, '') === phone));
}

/** Every notice command about the phone handled by the consumer (processed_events). */
async function noticeCommandsHandled(phone: string): Promise<boolean> {
  const ids = (await fx.outbox('transfer_opt_out.notify_agent')).filter((e) => e.data.phone === phone).map((e) => e.id);
  const { rows } = await fx.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM processed_events WHERE consumer = $1 AND event_id = ANY($2::uuid[])', [TRANSFER_MIRRORS_QUEUE, ids]);
  return ids.length > 0 && rows[0]!.n === ids.length;
}

describe('a transferred phone that opts out', () => {
  it("when the suppression copy arrives, then My Transfers and its CSV mark it 'Do not call', and each agent who received it is e-mailed once, naming their transfers", async () => {
    const phone = freshPhone();
    const dana = await knownAgent();
    const omar = await knownAgent();
    fx.profiles.set(dana.userId!, profileOf({ email: `dana-${phone}@example.com`, firstName: 'Dana' }));
    fx.profiles.set(omar.userId!, profileOf({ email: `omar-${phone}@example.com`, firstName: 'Omar' }));
    const first = await insertTransfer(fx.pool, { agentId: dana.userId!, routedAt: new Date(NOW.getTime() - 3 * HOUR), phone, status: 'charged' });
    const second = await insertTransfer(fx.pool, { agentId: dana.userId!, routedAt: new Date(NOW.getTime() - 2 * HOUR), phone, status: 'buffer_protected' });
    await insertTransfer(fx.pool, { agentId: omar.userId!, routedAt: new Date(NOW.getTime() - HOUR), phone, status: 'charged' });
    const untouched = await insertTransfer(fx.pool, { agentId: dana.userId!, routedAt: new Date(NOW.getTime() - HOUR), phone: freshPhone(), status: 'charged' });

    const optedOutAt = new Date(NOW.getTime() - 30 * 60_000);
    await suppressCopy(phone, optedOutAt);
    // A redelivered copy of the same change asks for nothing more.
    await suppressCopy(phone, optedOutAt);

    const mine = await fx.call('GET', '/api/my-transfers', { identity: dana });
    const log = (mine.body as unknown as MyTransfersAnswer).transfers;
    expect(new Map(log.map((t) => [t.id, t.optedOutAt]))).toEqual(
      new Map([
        [first, optedOutAt.toISOString()],
        [second, optedOutAt.toISOString()],
        [untouched, null],
      ]),
    );
    // Never callable again, whatever the prospect's clock says.
    expect(log.filter((t) => t.optedOutAt !== null).map((t) => [t.callableNow, t.callingHoursNote])).toEqual([
      [false, 'Opted out'],
      [false, 'Opted out'],
    ]);
    const csv = await fx.call('GET', '/api/my-transfers/export.csv', { identity: dana });
    const [header, ...rows] = csv.text.trim().split('\r\n');
    expect(header!.split(',').at(-1)).toBe('Do Not Call');
    expect(rows.find((r) => r.includes(first))!.endsWith(',Do not call — opted out on 2026-11-25')).toBe(true);
    expect(rows.find((r) => r.includes(untouched))!.endsWith(',')).toBe(true);

    await waitFor('both agents e-mailed', async () => (await noticesFor(phone)).length >= 2, { timeoutMs: 20_000 });
    await waitFor('every notice command handled', () => noticeCommandsHandled(phone), { timeoutMs: 20_000 });
    const notices = await noticesFor(phone);
    expect(notices).toHaveLength(2);
    const byRecipient = new Map(notices.map((n) => [n.data.to, n.data]));
    expect(byRecipient.get(`dana-${phone}@example.com`)).toEqual({
      to: `dana-${phone}@example.com`,
      name: 'Dana',
      leads: [],
      transfers: [
        { transferId: second, name: 'Maria Lopez', phone: `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`, routedAt: new Date(NOW.getTime() - 2 * HOUR).toISOString() },
        { transferId: first, name: 'Maria Lopez', phone: `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`, routedAt: new Date(NOW.getTime() - 3 * HOUR).toISOString() },
      ],
      reason: 'Asked to stop',
      at: optedOutAt.toISOString(),
    });
    expect(byRecipient.get(`omar-${phone}@example.com`)).toMatchObject({ name: 'Omar', transfers: [expect.objectContaining({ phone: expect.any(String) })] });
  });

  it('when the gateway is down, then the notice waits and is sent once it is back; a notice delivered twice e-mails once', async () => {
    const phone = freshPhone();
    const dana = await knownAgent();
    fx.profiles.set(dana.userId!, profileOf({ email: `dana-${phone}@example.com`, firstName: 'Dana' }));
    await insertTransfer(fx.pool, { agentId: dana.userId!, routedAt: new Date(NOW.getTime() - HOUR), phone, status: 'charged' });
    fx.outages.gateway = true;
    try {
      await suppressCopy(phone, new Date(NOW.getTime() - 10 * 60_000));
      await waitFor('the notice command queued', async () => (await fx.outbox('transfer_opt_out.notify_agent')).some((e) => e.data.phone === phone));
      expect(await noticesFor(phone)).toEqual([]);
    } finally {
      fx.outages.gateway = false;
    }
    await waitFor('the agent e-mailed after the retry', async () => (await noticesFor(phone)).length === 1, { timeoutMs: 60_000 });
    // The same notice queued again (a second replica, a replay): claimed already, no second e-mail.
    const [command] = (await fx.outbox('transfer_opt_out.notify_agent')).filter((e) => e.data.phone === phone);
    await withTransaction(fx.pool, (db) =>
      enqueue(db, { type: 'transfer_opt_out.notify_agent', source: 'transfers', correlationId: randomUUID(), data: command!.data as CommandData<'transfer_opt_out.notify_agent'> }),
    );
    await waitFor('both notice commands handled', () => noticeCommandsHandled(phone), { timeoutMs: 20_000 });
    expect(await noticesFor(phone)).toHaveLength(1);
  });

  it('when the phone was released before the notice ran, or a copy arrives older than the one kept, then nobody is e-mailed', async () => {
    const phone = freshPhone();
    const dana = await knownAgent();
    fx.profiles.set(dana.userId!, profileOf({ email: `dana-${phone}@example.com` }));
    await insertTransfer(fx.pool, { agentId: dana.userId!, routedAt: new Date(NOW.getTime() - HOUR), phone, status: 'charged' });
    // Released at 11:00, then a late copy of a suppression at 10:00 arrives: the copy stays released, nothing queued.
    await suppressCopy(phone, new Date('2026-11-25T11:00:00Z'), false);
    await suppressCopy(phone, new Date('2026-11-25T10:00:00Z'));
    expect((await fx.outbox('transfer_opt_out.notify_agent')).filter((e) => e.data.phone === phone)).toEqual([]);
    const mine = await fx.call('GET', '/api/my-transfers', { identity: dana });
    expect((mine.body as unknown as MyTransfersAnswer).transfers.map((t) => t.optedOutAt)).toEqual([null]);
  });
});
