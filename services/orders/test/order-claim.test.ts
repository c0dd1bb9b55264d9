import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customer, startOrdersFixture, testCard, type OrdersFixture } from './orders-fixture';

/**
 * A package bought without a session is attached to the buyer's account by the claim token its
 * payment intent gave that browser (issue 17, ADR 0022) — once, to one account, and only when
 * paid; a forged or borrowed token attaches nothing. Never by e-mail.
 */

let orders: OrdersFixture;

beforeAll(async () => {
  orders = await startOrdersFixture();
});

afterAll(async () => {
  await orders?.cleanup();
});

async function anonymousOrder() {
  const answer = await orders.call('POST', '/api/create-payment-intent', {
    body: { amount: 370, callCount: 10, tier: 'premium', billing: { email: 'same.address@example.com' } },
  });
  expect(answer.status).toBe(201);
  return { orderId: String(answer.body.orderId), clientSecret: String(answer.body.clientSecret), claimToken: answer.body.claimToken as string | undefined };
}

const claim = (orderId: string, claimToken: unknown, identity?: ReturnType<typeof customer>) =>
  orders.call('POST', `/api/orders/${orderId}/claim`, { body: { claimToken }, ...(identity ? { identity } : {}) });

const buyerOf = async (orderId: string) =>
  (await orders.pool.query<{ buyer_user_id: string | null }>('SELECT buyer_user_id FROM package_orders WHERE id = $1', [orderId])).rows[0]?.buyer_user_id;

describe('claiming an order paid without a session', () => {
  it('when an anonymous buyer pays and then claims with their token while logged in, then the order is theirs and in My Orders', async () => {
    const { orderId, clientSecret, claimToken } = await anonymousOrder();
    expect(claimToken).toMatch(/^oc1\./);
    await orders.call('POST', '/api/payments/sandbox/confirm', { body: testCard(clientSecret) });
    const agent = customer('claimer');

    const answer = await claim(orderId, claimToken, agent);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ orderId, claimed: true });
    expect(await buyerOf(orderId)).toBe(agent.userId);
    const mine = await orders.call('GET', '/api/my-orders', { identity: agent });
    expect((mine.body.orders as { id: string }[]).map((o) => o.id)).toContain(orderId);
    // Clicking again answers the same; another account with the same token is refused.
    expect((await claim(orderId, claimToken, agent)).status).toBe(200);
    const other = await claim(orderId, claimToken, customer('other'));
    expect(other.status).toBe(409);
    expect(other.body.error).toBe('This order already belongs to another account');
    expect(await buyerOf(orderId)).toBe(agent.userId);
  });

  it('when the order is claimed, then order.claimed is written once with the new buyer; claiming again by the same account writes nothing more', async () => {
    const answer = await orders.call('POST', '/api/create-payment-intent', {
      body: { amount: 150, packageType: 'RingCloud Call-Backs', calls: 10, callCount: 1, tier: 'ringcloud' },
    });
    expect(answer.status).toBe(201);
    const orderId = String(answer.body.orderId);
    await orders.call('POST', '/api/payments/sandbox/confirm', {
      body: testCard(String(answer.body.clientSecret), { billing: { name: 'Casey Agent', email: 'casey@example.com', phone: '5125550100' } }),
    });
    const claimedEvents = async () => (await orders.outbox('order.claimed')).filter((e) => e.data.orderId === orderId);
    expect(await claimedEvents()).toHaveLength(0);
    const agent = customer('call-backs');

    expect((await claim(orderId, answer.body.claimToken, agent)).status).toBe(200);
    expect((await claim(orderId, answer.body.claimToken, agent)).status).toBe(200);
    expect((await claim(orderId, answer.body.claimToken, customer('late'))).status).toBe(409);

    const events = await claimedEvents();
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({
      orderId,
      buyerUserId: agent.userId,
      kind: 'package',
      tier: 'ringcloud',
      leadType: 'Call-Backs',
      count: 10,
      unitPriceCents: 1500,
      amountCents: 15_000,
    });
    expect(Date.parse(String(events[0]!.data.claimedAt))).not.toBeNaN();
    // The payment itself was announced without a buyer: the claim is what names one.
    const [paid] = (await orders.outbox('payment.succeeded')).filter((e) => e.data.orderId === orderId);
    expect(paid?.data.buyerUserId).toBeNull();
  });

  it('when the order is not paid yet, then it cannot be claimed', async () => {
    const { orderId, claimToken } = await anonymousOrder();

    const answer = await claim(orderId, claimToken, customer('early'));

    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('Only a paid order can be added to your account');
    expect(await buyerOf(orderId)).toBeNull();
  });

  it("when the token is forged, another order's, or missing, then nothing is attached", async () => {
    const first = await anonymousOrder();
    const second = await anonymousOrder();
    for (const o of [first, second]) await orders.call('POST', '/api/payments/sandbox/confirm', { body: testCard(o.clientSecret) });
    const agent = customer('guesser');
    const [prefix, id, expires] = first.claimToken!.split('.');

    const answers = [
      await claim(first.orderId, second.claimToken, agent),
      await claim(first.orderId, `${prefix}.${id}.${Number(expires) + 86_400}.${first.claimToken!.split('.')[3]}`, agent),
      await claim(first.orderId, 'oc1.not.a.token', agent),
    ];
    const missing = await claim(first.orderId, undefined, agent);

    expect(answers.map((a) => a.status)).toEqual([403, 403, 403]);
    expect(answers[0]!.body.error).toMatch(/claim link is not valid or has expired/);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('Claim token is required');
    expect(await buyerOf(first.orderId)).toBeNull();
  });

  it('when nobody is logged in, then claiming is refused; a buyer with a session gets no claim token at all', async () => {
    const { orderId, clientSecret, claimToken } = await anonymousOrder();
    await orders.call('POST', '/api/payments/sandbox/confirm', { body: testCard(clientSecret) });

    expect((await claim(orderId, claimToken)).status).toBe(401);
    const withSession = await orders.call('POST', '/api/create-payment-intent', {
      body: { amount: 370, callCount: 10, tier: 'premium' },
      identity: customer('in-session'),
    });
    expect(withSession.status).toBe(201);
    expect(withSession.body).not.toHaveProperty('claimToken');
  });
});
