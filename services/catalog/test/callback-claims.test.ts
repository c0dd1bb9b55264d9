import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, EventData } from '@warmline/contracts';
import { waitFor } from '@warmline/platform/testing/index';
import { outboxEnvelopes } from '@warmline/platform/testing/system';
import type { GatewayFixture } from '../../gateway/test/gateway-fixture';
import { callBackAgent, startCallBackSystem } from './call-back-system';
import { callBacksPaid, testCard, testEnvelope, type CatalogFixture } from './catalog-fixture';

/**
 * A Call-Backs order paid without an account is credited once its buyer claims it (ADR 0022,
 * ADR 0020), against real PostgreSQL and RabbitMQ: the payment and the claim are made at the
 * real orders service, whose relay publishes payment.succeeded and order.claimed to the catalog;
 * the agent's survey states come from the real gateway.
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


async function handled(eventId: string): Promise<void> {
  await waitFor(`event ${eventId} handled`, async () => {
    const { rows } = await fx.pool.query('SELECT 1 FROM processed_events WHERE event_id = $1', [eventId]);
    return rows.length === 1;
  });
}

/** Publishes the event as orders' relay would, and waits until the catalog handled it. */
async function deliver(event: Envelope<unknown>): Promise<void> {
  await fx.publishEvent(event);
  await handled(event.id);
}

/** The one envelope of `type` about `orderId` that orders wrote to its outbox, once the catalog handled it. */
async function announcedByOrders(type: string, orderId: string): Promise<Envelope<Record<string, unknown>>> {
  let found: Envelope<Record<string, unknown>> | undefined;
  await waitFor(`${type} of ${orderId} in orders' outbox`, async () => {
    const matching = (await outboxEnvelopes(fx.ordersPool, type)).filter((e) => e.data.orderId === orderId);
    found = matching[0];
    return matching.length === 1;
  });
  await handled(found!.id);
  return found!;
}

async function balanceOf(userId: string): Promise<number | null> {
  const { rows } = await fx.pool.query<{ balance: number }>('SELECT balance FROM callback_balances WHERE user_id = $1', [userId]);
  return rows[0]?.balance ?? null;
}

async function creditsOf(orderId: string): Promise<Array<{ user_id: string; count: number; taken_back: number }>> {
  const { rows } = await fx.pool.query<{ user_id: string; count: number; taken_back: number }>(
    'SELECT user_id, count, taken_back FROM callback_credits WHERE order_id = $1',
    [orderId],
  );
  return rows;
}

/** orders' order.claimed for the anonymous Call-Backs order `paid`, claimed by `buyerUserId`. */
function claimed(paid: EventData<'payment.succeeded'>, buyerUserId: string): Envelope<EventData<'order.claimed'>> {
  const { provider: _p, paymentIntentId: _i, paidAt: _a, ...facts } = paid;
  return testEnvelope('order.claimed', { ...facts, buyerUserId, claimedAt: new Date().toISOString() });
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

describe('a Call-Backs order paid without an account is credited when its buyer claims it', () => {
  it('when 6 call-backs are paid anonymously at orders, then no balance; once the buyer claims the order, the balance is 6, and a second delivery of the claim adds nothing', async () => {
    const intent = await fx.callOrders('POST', '/api/create-payment-intent', {
      body: { amount: 90, packageType: 'RingCloud Call-Backs', calls: 6, callCount: 1, tier: 'ringcloud' },
    });
    expect(intent.status).toBe(201);
    const orderId = String(intent.body.orderId);
    const paid = await fx.callOrders('POST', '/api/payments/sandbox/confirm', {
      body: { ...testCard(String(intent.body.clientSecret)), billing: { name: 'Robin Agent', email: 'robin@example.com', phone: '5125550100' } },
    });
    expect(paid.status).toBe(200);
    const payment = await announcedByOrders('payment.succeeded', orderId);
    expect(payment.data.buyerUserId).toBeNull();
    expect(await creditsOf(orderId)).toEqual([]);

    const agent = await callBackAgent(gw, 'Texas', 'Robin');
    expect(await balanceOf(agent.userId)).toBeNull();
    const claim = await fx.callOrders('POST', `/api/orders/${orderId}/claim`, { body: { claimToken: intent.body.claimToken }, identity: agent.identity });
    expect(claim.status).toBe(200);
    const claimEvent = await announcedByOrders('order.claimed', orderId);

    expect(await balanceOf(agent.userId)).toBe(6);
    expect(await creditsOf(orderId)).toEqual([{ user_id: agent.userId, count: 6, taken_back: 0 }]);
    const mine = await fx.call('GET', '/api/my-callbacks', { identity: agent.identity });
    expect(mine.body).toMatchObject({ balance: 6, states: ['TX'] });

    // Heard again: the same message redelivered, and the same claim in a message of its own.
    await fx.publishEvent(claimEvent);
    await deliver({ ...claimEvent, id: randomUUID() });
    // And the payment heard again after the claim credits nobody either.
    await deliver({ ...payment, id: randomUUID() });
    expect(await balanceOf(agent.userId)).toBe(6);
    expect(await creditsOf(orderId)).toHaveLength(1);
  });

  it('when $30 of an anonymous 5 × $15 order is refunded before the claim, then the claim credits 3', async () => {
    const agent = await callBackAgent(gw, 'Ohio', 'Robin');
    const paid = callBacksPaid(null, 5);
    await deliver(paid);
    await deliver(refunded(paid.data.orderId, 3_000, 3_000));
    expect(await creditsOf(paid.data.orderId)).toEqual([]);

    await deliver(claimed(paid.data, agent.userId));

    expect(await balanceOf(agent.userId)).toBe(3);
    expect(await creditsOf(paid.data.orderId)).toEqual([{ user_id: agent.userId, count: 5, taken_back: 2 }]);
  });

  it('when the claim is heard before the anonymous payment (a retried payment.succeeded), then the claim credits and the payment adds nothing', async () => {
    const agent = await callBackAgent(gw, 'Iowa', 'Robin');
    const paid = callBacksPaid(null, 4);

    await deliver(claimed(paid.data, agent.userId));
    await deliver(paid);

    expect(await balanceOf(agent.userId)).toBe(4);
    expect(await creditsOf(paid.data.orderId)).toHaveLength(1);
  });

  it('when a claimed order is not Call-Backs (RingCloud Live Transfers), then no balance is made', async () => {
    const agent = await callBackAgent(gw, 'Utah', 'Robin');
    const paid = callBacksPaid(null, 4);
    const liveTransfers = { ...paid.data, leadType: 'Live Transfers', description: 'RingCloud Live Transfers: 4 transfers × $37.00' };

    await deliver(claimed(liveTransfers, agent.userId));

    expect(await balanceOf(agent.userId)).toBeNull();
    expect(await creditsOf(paid.data.orderId)).toEqual([]);
  });
});

describe("WarmLine's own Call-Backs, bought in the dashboard (issue 22)", () => {
  it('when a logged-in agent buys 4 call-backs, then the order is WarmLine Call-Backs at $15.00 each, never a RingCloud package, and the agent is credited 4', async () => {
    const agent = await callBackAgent(gw, 'Ohio', 'Wren');
    const intent = await fx.callOrders('POST', '/api/create-payment-intent', {
      body: { amount: 60, callCount: 4, tier: 'callbacks', idempotencyKey: randomUUID() },
      identity: agent.identity,
    });
    expect(intent.status).toBe(201);
    // Bought in a session: nothing to claim.
    expect(intent.body.claimToken).toBeUndefined();
    const orderId = String(intent.body.orderId);
    const paid = await fx.callOrders('POST', '/api/payments/sandbox/confirm', {
      body: { ...testCard(String(intent.body.clientSecret)), billing: { name: 'Wren Agent', email: 'wren@example.com' } },
      identity: agent.identity,
    });
    expect(paid.status).toBe(200);
    const payment = await announcedByOrders('payment.succeeded', orderId);
    expect(payment.data).toMatchObject({ tier: 'callbacks', leadType: 'Call-Backs', count: 4, amountCents: 6000, description: 'WarmLine Call-Backs: 4 call-backs × $15.00', buyerUserId: agent.userId });

    expect(await balanceOf(agent.userId)).toBe(4);
    expect(await creditsOf(orderId)).toEqual([{ user_id: agent.userId, count: 4, taken_back: 0 }]);
    const status = await fx.callOrders('GET', `/api/orders/${orderId}/status`, { identity: agent.identity });
    expect(status.body).toMatchObject({ brand: 'WarmLine', tier: 'callbacks', description: 'WarmLine Call-Backs: 4 call-backs × $15.00' });
    const mine = await fx.callOrders('GET', '/api/my-orders', { identity: agent.identity });
    expect(mine.body.orders).toEqual([expect.objectContaining({ id: orderId, product: 'callbacks', status: 'paid' })]);
    // The receipt is WarmLine's: the command names the tier the notifications worker brands it by.
    const [receipt] = (await outboxEnvelopes(fx.ordersPool, 'email.order_paid')).filter((e) => e.data.orderId === orderId);
    expect(receipt?.data).toMatchObject({ tier: 'callbacks', billingEmail: 'wren@example.com' });
  });

  it('when the amount is not the server price, or nobody is logged in, then 400 or 401 and no order', async () => {
    const agent = await callBackAgent(gw, 'Iowa', 'Ash');
    const wrong = await fx.callOrders('POST', '/api/create-payment-intent', { body: { amount: 50, callCount: 4, tier: 'callbacks' }, identity: agent.identity });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('Amount does not match the price: expected $60.00');
    const anonymous = await fx.callOrders('POST', '/api/create-payment-intent', { body: { amount: 60, callCount: 4, tier: 'callbacks' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).toContain('Please log in to buy call-backs');
    const none = await fx.ordersPool.query("SELECT count(*)::int AS n FROM package_orders WHERE tier = 'callbacks' AND (buyer_user_id IS NULL OR buyer_user_id = $1)", [agent.userId]);
    expect(none.rows[0]).toEqual({ n: 0 });
  });
});
