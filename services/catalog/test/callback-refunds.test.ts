import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, EventData, MyCallbacks } from '@warmline/contracts';
import type { Identity } from '@warmline/platform';
import { waitFor } from '@warmline/platform/testing/index';
import { outboxEnvelopes } from '@warmline/platform/testing/system';
import type { GatewayFixture } from '../../gateway/test/gateway-fixture';
import { callBackAgent, startCallBackSystem } from './call-back-system';
import { callBacksPaid, testEnvelope, type CatalogFixture } from './catalog-fixture';

/**
 * A refunded Call-Backs order gives its call-backs back (issue 15, ADR 0020), against real
 * PostgreSQL and RabbitMQ: payments and refunds arrive on catalog.lead-payments as orders'
 * relay publishes them, agents' survey states come from the real gateway, and an aged-lead
 * order is bought and refunded at the real orders service.
 */

let fx: CatalogFixture;
let gw: GatewayFixture;

beforeAll(async () => {
  ({ fx, gw } = await startCallBackSystem());
});

afterAll(async () => {
  await fx?.cleanup();
  await gw?.cleanup();
});

function admin(): Identity {
  return { userId: randomUUID(), username: `admin_${randomUUID().slice(0, 6)}`, isAdmin: true };
}


function refunded(orderId: string, amountCents: number, refundedTotalCents: number): Envelope<EventData<'payment.refunded'>> {
  return testEnvelope('payment.refunded', {
    orderId,
    amountCents,
    refundedTotalCents,
    currency: 'usd',
    initiatedBy: 'admin',
    refundedAt: new Date().toISOString(),
  });
}

/** Publishes the event as orders' relay would, and waits until the catalog handled it (processed_events). */
async function deliver(event: Envelope<unknown>): Promise<void> {
  await fx.publishEvent(event);
  await handled(event.id);
}

async function handled(eventId: string): Promise<void> {
  await waitFor(`event ${eventId} handled`, async () => {
    const { rows } = await fx.pool.query('SELECT 1 FROM processed_events WHERE event_id = $1', [eventId]);
    return rows.length === 1;
  });
}

interface BalanceRow {
  balance: number;
  waiting: boolean;
}

async function balanceOf(userId: string): Promise<BalanceRow | null> {
  const { rows } = await fx.pool.query<BalanceRow>('SELECT balance, waiting_since IS NOT NULL AS waiting FROM callback_balances WHERE user_id = $1', [userId]);
  return rows[0] ?? null;
}

async function creditOf(orderId: string): Promise<{ taken_back: number; kept_delivered: number; amount_cents: number | null }> {
  const { rows } = await fx.pool.query<{ taken_back: number; kept_delivered: number; amount_cents: number | null }>(
    'SELECT taken_back, kept_delivered, amount_cents FROM callback_credits WHERE order_id = $1',
    [orderId],
  );
  return rows[0]!;
}

async function myCallbacks(identity: Identity): Promise<MyCallbacks> {
  const answer = await fx.call('GET', '/api/my-callbacks', { identity });
  expect(answer.status).toBe(200);
  return answer.body as unknown as MyCallbacks;
}

describe('a refunded Call-Backs order gives its call-backs back', () => {
  it('when a 10 × $15 order is refunded in full, then the balance is 0, the agent stops waiting, and My Call-backs shows 0', async () => {
    const agent = await callBackAgent(gw, 'Texas');
    const paid = callBacksPaid(agent.userId, 10);
    await deliver(paid);
    expect(await balanceOf(agent.userId)).toEqual({ balance: 10, waiting: true });

    await deliver(refunded(paid.data.orderId, 15_000, 15_000));

    expect(await balanceOf(agent.userId)).toEqual({ balance: 0, waiting: false });
    expect(await creditOf(paid.data.orderId)).toEqual({ taken_back: 10, kept_delivered: 0, amount_cents: 15_000 });
    expect((await myCallbacks(agent.identity)).balance).toBe(0);
  });

  it('when $30 of a 10 × $15 order is refunded, then 2 call-backs are taken back (8 left, still waiting); the same refund again, under another id or the same, takes nothing more', async () => {
    const agent = await callBackAgent(gw, 'Ohio');
    const paid = callBacksPaid(agent.userId, 10);
    await deliver(paid);

    const refund = refunded(paid.data.orderId, 3_000, 3_000);
    await deliver(refund);
    expect(await balanceOf(agent.userId)).toEqual({ balance: 8, waiting: true });

    // Heard again: the same message redelivered, and the same refund announced in a new message.
    await fx.publishEvent(refund);
    await deliver({ ...refund, id: randomUUID() });
    expect(await balanceOf(agent.userId)).toEqual({ balance: 8, waiting: true });
    expect(await creditOf(paid.data.orderId)).toMatchObject({ taken_back: 2, kept_delivered: 0 });
    expect((await myCallbacks(agent.identity)).balance).toBe(8);

    // $20 more (refunded total $50) covers 3 whole call-backs: one more goes.
    await deliver(refunded(paid.data.orderId, 2_000, 5_000));
    expect(await balanceOf(agent.userId)).toEqual({ balance: 7, waiting: true });
  });

  it('when two partial refunds arrive out of order, then only what the larger refunded total covers is taken back', async () => {
    const agent = await callBackAgent(gw, 'Georgia');
    const paid = callBacksPaid(agent.userId, 10);
    await deliver(paid);

    // $30 then $45 were refunded (totals $30, $75); the second one's event is handled first.
    await deliver(refunded(paid.data.orderId, 4_500, 7_500));
    expect(await balanceOf(agent.userId)).toEqual({ balance: 5, waiting: true });
    await deliver(refunded(paid.data.orderId, 3_000, 3_000));

    expect(await balanceOf(agent.userId)).toEqual({ balance: 5, waiting: true });
    expect(await creditOf(paid.data.orderId)).toMatchObject({ taken_back: 5, kept_delivered: 0 });
  });

  it('when the order is refunded after some of its call-backs were delivered, then the balance stops at zero and the delivered ones are recorded as kept', async () => {
    const agent = await callBackAgent(gw, 'Nevada');
    const paid = callBacksPaid(agent.userId, 3);
    await deliver(paid);
    const delivered: string[] = [];
    // Two prospects (one phone is one sale since issue 22).
    for (const [firstName, phone] of [['Nora', '(702) 555-0101'], ['Nate', '(702) 555-0102']]) {
      const created = await fx.call('POST', '/api/callback-opportunities', {
        identity: admin(),
        body: { firstName, lastName: 'Vega', phone, state: 'NV', price: '15.00' },
      });
      expect(created.status).toBe(201);
      delivered.push(String(created.body.id));
    }
    const { rows } = await fx.pool.query<{ status: string; assigned_user_id: string }>(
      'SELECT status, assigned_user_id FROM callback_opportunities WHERE id = ANY ($1::uuid[])',
      [delivered],
    );
    expect(rows).toEqual([
      { status: 'assigned', assigned_user_id: agent.userId },
      { status: 'assigned', assigned_user_id: agent.userId },
    ]);
    expect(await balanceOf(agent.userId)).toEqual({ balance: 1, waiting: true });

    await deliver(refunded(paid.data.orderId, 4_500, 4_500));

    expect(await balanceOf(agent.userId)).toEqual({ balance: 0, waiting: false });
    expect(await creditOf(paid.data.orderId)).toMatchObject({ taken_back: 1, kept_delivered: 2 });
    const mine = await myCallbacks(agent.identity);
    expect(mine.balance).toBe(0);
    expect(mine.callbacks.map((c) => c.id).sort()).toEqual([...delivered].sort());
  });

  it('when the refund is heard before the payment (a retried payment.succeeded), then the credit gives back what the refund covers', async () => {
    const agent = await callBackAgent(gw, 'Iowa');
    const paid = callBacksPaid(agent.userId, 4);

    await deliver(refunded(paid.data.orderId, 3_000, 3_000));
    expect(await balanceOf(agent.userId)).toBeNull();
    await deliver(paid);

    expect(await balanceOf(agent.userId)).toEqual({ balance: 2, waiting: true });
    expect(await creditOf(paid.data.orderId)).toMatchObject({ taken_back: 2, kept_delivered: 0 });
  });

  it('when an order credited before its amount was stored is refunded, then the list price of a call-back counts', async () => {
    const agent = await callBackAgent(gw, 'Kansas');
    const paid = callBacksPaid(agent.userId, 5);
    await deliver(paid);
    await fx.pool.query('UPDATE callback_credits SET amount_cents = NULL WHERE order_id = $1', [paid.data.orderId]);

    await deliver(refunded(paid.data.orderId, 4_400, 4_400));

    // $44.00 at $15.00 a call-back pays for 2 whole ones.
    expect(await balanceOf(agent.userId)).toEqual({ balance: 3, waiting: true });
  });

  it('when an aged-lead order is refunded at orders, then no call-back balance changes', async () => {
    const agent = await callBackAgent(gw, 'Oregon');
    const callBacks = callBacksPaid(agent.userId, 2);
    await deliver(callBacks);
    const before = await fx.pool.query('SELECT user_id, balance, waiting_since, updated_at FROM callback_balances ORDER BY user_id');
    const creditsBefore = await fx.pool.query('SELECT * FROM callback_credits ORDER BY order_id');

    const [lead] = await fx.addLeads([{ ageDays: 45 }]);
    const { orderId } = await fx.buy(agent.identity, [lead!.id]);
    const refund = await fx.callOrders('POST', `/api/admin/orders/${orderId}/refund`, {
      identity: admin(),
      body: { reason: 'Wrong number' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(refund.status).toBe(201);
    const [announced] = (await outboxEnvelopes(fx.ordersPool, 'payment.refunded')).filter((e) => e.data.orderId === orderId);
    expect(announced?.data).toMatchObject({ orderId, initiatedBy: 'admin' });
    await handled(announced!.id);

    expect((await fx.pool.query('SELECT user_id, balance, waiting_since, updated_at FROM callback_balances ORDER BY user_id')).rows).toEqual(before.rows);
    expect((await fx.pool.query('SELECT * FROM callback_credits ORDER BY order_id')).rows).toEqual(creditsBefore.rows);
  });
});
