import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyOf } from '@warmline/platform/keys';
import { TEST_KEYS } from '@warmline/platform/testing/index';
import { signCheckoutToken } from '@warmline/platform/checkout-token';
import { insertTransferOrder } from '../src/db/transfer-orders';
import { customer, startOrdersFixture, testCard, type OrdersFixture } from './orders-fixture';

/**
 * `GET /api/orders/{id}/status` as the success pages read it (issue 17): what was bought, its
 * amount, when it was paid and under which brand; never who bought it. Only a paid order says
 * 'paid'; an unknown id is not found.
 */

let orders: OrdersFixture;

beforeAll(async () => {
  orders = await startOrdersFixture();
});

afterAll(async () => {
  await orders?.cleanup();
});

async function pendingOrder(body: Record<string, unknown>) {
  const answer = await orders.call('POST', '/api/create-payment-intent', { body });
  expect(answer.status).toBe(201);
  return { orderId: String(answer.body.orderId), clientSecret: String(answer.body.clientSecret) };
}

const premium = {
  amount: 2220,
  callCount: 60,
  tier: 'premium',
  billing: { name: 'Pat Buyer', email: 'pat.buyer@example.com', phone: '405-555-0100' },
};
const pay = (clientSecret: string, overrides: Record<string, unknown> = {}) =>
  orders.call('POST', '/api/payments/sandbox/confirm', { body: testCard(clientSecret, overrides) });
const statusOf = (orderId: string, identity?: ReturnType<typeof customer>) =>
  orders.call('GET', `/api/orders/${orderId}/status`, identity ? { identity } : {});

describe('the order status the success pages read', () => {
  it('when an anonymous package order is paid, then anyone with its id sees what was bought, the amount and when, but no billing details', async () => {
    const { orderId, clientSecret } = await pendingOrder(premium);
    expect((await pay(clientSecret)).status).toBe(200);

    const answer = await statusOf(orderId);

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      orderId,
      brand: 'WarmLine',
      kind: 'package',
      status: 'paid',
      amountCents: 222000,
      description: expect.stringContaining('60 transfers'),
      transfer: null,
    });
    expect(Date.parse(String(answer.body.paidAt))).not.toBeNaN();
    const text = JSON.stringify(answer.body);
    for (const personal of ['Pat Buyer', 'pat.buyer@example.com', '405-555-0100', '4242']) expect(text).not.toContain(personal);
  });

  it('when the order is not paid yet, then it says pending with no paid time', async () => {
    const { orderId } = await pendingOrder(premium);

    const answer = await statusOf(orderId);

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'pending', paidAt: null });
  });

  it('when the card was declined, then it says failed with the reason, not paid', async () => {
    const { orderId, clientSecret } = await pendingOrder(premium);
    expect((await pay(clientSecret, { cardNumber: '4000000000000002' })).status).toBe(402);

    const answer = await statusOf(orderId);

    expect(answer.body).toMatchObject({ status: 'failed', paidAt: null, failureMessage: 'Your card was declined.' });
  });

  it('when the id was made up, then the order is not found', async () => {
    const answer = await statusOf(randomUUID());

    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe('Order not found');
    expect(JSON.stringify(answer.body)).not.toContain('paid');
  });

  it('when the order came from the RingCloud checkout, then its brand is RingCloud', async () => {
    const { orderId, clientSecret } = await pendingOrder({
      amount: 300,
      packageType: 'RingCloud Call-Backs',
      calls: 20,
      callCount: 1,
      tier: 'ringcloud',
    });
    await pay(clientSecret);

    const answer = await statusOf(orderId);

    expect(answer.body).toMatchObject({ brand: 'RingCloud', status: 'paid', description: expect.stringContaining('RingCloud Call-Backs') });
  });

  it('when the RingCloud checkout token linked the order to the new account, then the still logged-out buyer reads it on /thank-you; a customer’s own order stays private', async () => {
    const newAccount = customer('ringcloud-signup');
    const checkoutToken = signCheckoutToken(privateKeyOf(TEST_KEYS.IDENTITY_PRIVATE_KEY), { userId: newAccount.userId!, purpose: 'ringcloud-checkout' });
    const { orderId, clientSecret } = await pendingOrder({
      amount: 370,
      packageType: 'RingCloud Live Transfers',
      calls: 10,
      callCount: 1,
      tier: 'ringcloud',
      checkoutToken,
    });
    await pay(clientSecret);
    const { rows } = await orders.pool.query<{ buyer_user_id: string }>('SELECT buyer_user_id FROM package_orders WHERE id = $1', [orderId]);
    expect(rows[0]?.buyer_user_id).toBe(newAccount.userId);

    const loggedOut = await statusOf(orderId);

    expect(loggedOut.status).toBe(200);
    expect(loggedOut.body).toMatchObject({ brand: 'RingCloud', status: 'paid' });
    const owned = await orders.call('POST', '/api/create-payment-intent', { body: { amount: 37, callCount: 1, tier: 'premium' }, identity: customer('owner') });
    expect((await statusOf(String(owned.body.orderId))).status).toBe(404);
  });

  it("when a transfer order's agent asks, then the answer carries its summary; anyone else gets not found", async () => {
    const agent = customer('agent');
    const id = randomUUID();
    await insertTransferOrder(orders.pool, {
      id,
      userId: agent.userId!,
      firstName: 'Ada',
      lastName: 'Agent',
      phone: '(405) 555-0111',
      email: 'ada.agent@example.com',
      transferNumber: '(405) 555-0199',
      totalTransfers: 20,
      transfersPerDay: 5,
      transferHours: '9am-5pm CST',
      selectedStates: ['TX', 'OK'],
      unitPriceCents: 3150,
      totalCents: 63000,
      description: 'Live Transfers: 20 transfers × $31.50',
      provider: 'sandbox',
    });

    const mine = await statusOf(id, agent);
    const someoneElse = await statusOf(id, customer('other'));
    const anonymous = await statusOf(id);

    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({
      kind: 'transfer',
      brand: 'WarmLine',
      status: 'pending',
      amountCents: 63000,
      transfer: { totalTransfers: 20, transfersPerDay: 5, states: ['TX', 'OK'], transferHours: '9am-5pm CST', transferPhone: '(405) 555-0199' },
    });
    expect([someoneElse.status, anonymous.status]).toEqual([404, 404]);
  });
});
