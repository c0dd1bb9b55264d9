import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MyTransfersAnswer } from '@warmline/contracts';
import { ANONYMOUS } from '@warmline/platform/identity';
import { agent, chargeTransfer, insertTransfer, orderFacts, paid, startLedgerFixture, type LedgerFixture } from './ledger-fixture';

/**
 * My Transfers (issue 23 §5): the balance by price (oldest lot first) and in flight, today in the
 * agent's zone against their cap, the log newest first 50 a page with filters by status and
 * dates in the agent's zone, its CSV — and never another agent's transfers.
 */

// Wednesday 25 November 2026, noon in Chicago.
const NOW = new Date('2026-11-25T18:00:00Z');
const HOUR = 3_600_000;

let fx: LedgerFixture;
const me = agent();
const other = agent();

beforeAll(async () => {
  fx = await startLedgerFixture(NOW);
  for (const who of [me, other]) {
    const saved = await fx.call('PUT', '/api/my-transfers/settings', {
      body: { transferPhone: '5125550143', states: ['TX'], timeZone: 'America/Chicago', hours: [{ day: 'wed', from: '09:00', to: '17:00' }], dailyCap: 30, atOnce: 1 },
      identity: who,
    });
    expect(saved.status).toBe(200);
  }
  // Two lots: 3 at $39.00 first, then 100 at $37.00.
  await fx.publish(paid(orderFacts(me.userId!, { tier: 'special', count: 3, unitPriceCents: 3900, amountCents: 11_700 }), new Date(NOW.getTime() - 48 * HOUR)));
  await fx.publish(paid(orderFacts(me.userId!, { count: 100 }), new Date(NOW.getTime() - 24 * HOUR)));
  await fx.publish(paid(orderFacts(other.userId!, { count: 10 })));
  // 55 transfers of mine over the last 55 hours, charged oldest first; one still in flight now; one of another agent.
  for (let i = 55; i >= 1; i--) {
    const id = await insertTransfer(fx.pool, { agentId: me.userId!, routedAt: new Date(NOW.getTime() - i * HOUR) });
    await chargeTransfer(fx.pool, me.userId!, id, new Date(NOW.getTime() - i * HOUR));
  }
  await insertTransfer(fx.pool, { agentId: me.userId!, routedAt: new Date(NOW.getTime() - 10_000), agentDate: '2026-11-25' });
  await insertTransfer(fx.pool, { agentId: other.userId!, routedAt: new Date(NOW.getTime() - 30 * 60_000) });
});

afterAll(async () => {
  await fx?.cleanup();
});

async function myTransfers(query = ''): Promise<MyTransfersAnswer> {
  const answer = await fx.call('GET', `/api/my-transfers${query}`, { identity: me });
  expect(answer.status).toBe(200);
  return answer.body as unknown as MyTransfersAnswer;
}

describe('My Transfers', () => {
  it('when the agent opens it, then the balance by price (the next charged first), in flight, and today in their zone are shown', async () => {
    const answer = await myTransfers();

    // 103 bought, 55 charged (3 at $39.00, then 52 at $37.00).
    expect(answer.balance.transfers).toBe(48);
    expect(answer.balance.inFlight).toBe(1);
    expect(answer.balance.lots).toEqual([{ unitCents: 3700, transfersLeft: 48, creditedAt: new Date(NOW.getTime() - 24 * HOUR).toISOString(), source: 'order' }]);
    expect(answer.today).toEqual({
      date: '2026-11-25',
      timeZone: 'America/Chicago',
      timeZoneName: 'Central Time',
      count: 13,
      cap: 30,
      paused: false,
      withinHours: true,
      nextHours: 'Wed 9:00 AM – 5:00 PM Central Time',
    });
  });

  it('when the log is read, then only own transfers come, newest first, 50 a page, each with its price', async () => {
    const first = await myTransfers();
    const second = await myTransfers('?page=2');

    expect(first.total).toBe(56);
    expect(first.pageSize).toBe(50);
    expect(first.transfers).toHaveLength(50);
    expect(second.transfers).toHaveLength(6);
    const all = [...first.transfers, ...second.transfers];
    expect(all.map((t) => t.routedAt)).toEqual([...all.map((t) => t.routedAt)].sort().reverse());
    expect(first.transfers[0]).toMatchObject({ status: 'routed', chargedCents: null, disputable: false });
    expect(first.transfers[1]).toMatchObject({ status: 'charged', chargedCents: 3700, disputable: true, firstName: 'Maria', phone: expect.stringMatching(/^\d{10}$/) });
    // The oldest three were charged from the $39.00 lot.
    expect(second.transfers.slice(-3).map((t) => t.chargedCents)).toEqual([3900, 3900, 3900]);
    const { rows } = await fx.pool.query('SELECT id FROM transfers WHERE agent_id = $1', [other.userId]);
    expect(all.map((t) => t.id)).not.toContain(rows[0].id);
  });

  it("when filtered by status and by dates, then the dates are the agent's own days (Chicago's midnight)", async () => {
    const routed = await myTransfers('?status=routed');
    expect(routed.total).toBe(1);

    // Since midnight in Chicago (06:00 UTC): transfers 1–12 hours ago and the one in flight.
    const today = await myTransfers('?from=2026-11-25&to=2026-11-25');
    expect(today.total).toBe(13);
    const tuesday = await myTransfers('?from=2026-11-24&to=2026-11-24');
    expect(tuesday.total).toBe(24);
    expect(tuesday.transfers.every((t) => t.routedAt >= '2026-11-24T06:00:00.000Z' && t.routedAt < '2026-11-25T06:00:00.000Z')).toBe(true);
  });

  it('when a filter is wrong, then it answers 400 naming it', async () => {
    const answer = await fx.call('GET', '/api/my-transfers?status=lost&from=yesterday', { identity: me });

    expect(answer.status).toBe(400);
    expect((answer.body.issues as Array<{ path: string }>).map((i) => i.path).sort()).toEqual(['from', 'status']);
  });

  it('when the agent exports the filtered log, then the CSV has times in their zone (named) and only their transfers', async () => {
    const answer = await fx.call('GET', '/api/my-transfers/export.csv?from=2026-11-25&to=2026-11-25', { identity: me });

    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/csv');
    const lines = answer.text.trim().split('\r\n');
    expect(lines[0]).toBe('Time (Central Time),Transfer ID,First name,Last name,Phone,State,Lead type,Duration (seconds),Status,Charged,Disposition,Recording,Do Not Call');
    expect(lines).toHaveLength(14);
    // One hour before noon in Chicago.
    expect(lines[2]).toMatch(/^2026-11-25 11:00,[0-9a-f-]{36},Maria,Lopez,\d{10},TX,,300,Charged \$37\.00,\$37\.00,,,$/);
  });

  it('when another agent or nobody asks, then they see only their own or get 401', async () => {
    const theirs = await fx.call('GET', '/api/my-transfers', { identity: other });
    expect((theirs.body as unknown as MyTransfersAnswer).total).toBe(1);
    expect((theirs.body as unknown as MyTransfersAnswer).balance.transfers).toBe(10);
    expect((await fx.call('GET', '/api/my-transfers', { identity: ANONYMOUS })).status).toBe(401);
    expect((await fx.call('GET', '/api/my-transfers/export.csv', { identity: ANONYMOUS })).status).toBe(401);
  });
});
