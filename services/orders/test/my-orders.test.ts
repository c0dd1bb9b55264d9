import { createPublicKey, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyOf, publicKeyOf } from '@warmline/platform/keys';
import { TEST_KEYS } from '@warmline/platform/testing/index';
import { RINGCLOUD_PACKAGE_PREFIX, type MyOrder } from '@warmline/contracts';
import { CHECKOUT_TOKEN_TTL_SECONDS, signCheckoutToken, verifyCheckoutToken } from '@warmline/platform/checkout-token';
import type { Browser } from '../../gateway/test/gateway-fixture';
import { surveyAnswers } from '../../gateway/test/survey-answers';
import { testCard } from './orders-fixture';
import { startTransferSystem, XHR, type Agent, type TransferSystem } from './transfer-system';

/**
 * My Orders (issue 12) through the real gateway, orders service and notifications: an agent
 * sees every order of theirs — transfer orders, lead purchases, packages paid while logged in,
 * the second brand's order linked by its survey's one-time checkout token — with a receipt,
 * and nothing of anyone else's; an order is never linked by matching e-mail, and a forged or
 * reused token links nothing.
 */

let system: TransferSystem;

beforeAll(async () => {
  system = await startTransferSystem();
});

afterAll(async () => {
  await system?.cleanup();
});

async function loggedIn(agent: Agent): Promise<Browser> {
  const browser = system.browser();
  await browser.login(agent.username, agent.password);
  return browser;
}

async function myOrders(browser: Browser): Promise<MyOrder[]> {
  const answer = await browser.get('/api/my-orders');
  expect(answer.status).toBe(200);
  return (answer.json as { orders: MyOrder[] }).orders;
}

async function payPremium(browser: Browser, card = '5555 5555 5555 4444', billing?: Record<string, string>): Promise<string> {
  const intent = await browser.post('/api/create-payment-intent', { amount: 2220, callCount: 60, tier: 'premium' }, XHR);
  expect(intent.status).toBe(201);
  const paid = await browser.post('/api/payments/sandbox/confirm', testCard(String(intent.json.clientSecret), { cardNumber: card, ...(billing ? { billing } : {}) }), XHR);
  expect(paid.status).toBe(200);
  return String(intent.json.orderId);
}

async function buyerOf(orderId: string): Promise<string | null> {
  const { rows } = await system.ordersPool.query<{ buyer_user_id: string | null }>('SELECT buyer_user_id FROM package_orders WHERE id = $1', [orderId]);
  return rows[0]!.buyer_user_id;
}

/** A paid lead purchase as the catalog makes it (two age ranges), bought by `userId`. */
async function paidLeadOrder(userId: string): Promise<string> {
  const id = randomUUID();
  await system.ordersPool.query(
    `INSERT INTO package_orders (id, kind, tier, count, unit_price_cents, amount_cents, description, buyer_user_id, provider, status, paid_at)
     VALUES ($1, 'lead', 'aged-leads', 5, 0, 1250, 'Aged leads: 5 leads — 3 × 30-60 days, 2 × 90-180 days', $2, 'sandbox', 'paid', now())`,
    [id, userId],
  );
  await system.ordersPool.query(
    `INSERT INTO lead_order_lines (order_id, age_range, lead_count, unit_price_cents) VALUES ($1, '30-60', 3, 300), ($1, '90-180', 2, 175)`,
    [id],
  );
  return id;
}

function ringcloudSurvey() {
  return surveyAnswers(
    { firstName: 'Robin', lastName: 'Cloud', agencyName: 'Cloud Insurance', phone: '(555) 123-4567', stem: 'robin' },
    { workingStates: 'TX, FL', totalTransfers: '10', transfersPerDay: '5', callsPerDay: '120', transferHours: '9am-5pm CST', salesperson: 'RingCloud' },
  );
}

/** The body the SPA's RingCloud checkout sends for 10 live transfers at $37.00. */
const RINGCLOUD_INTENT = { amount: 370, packageType: `${RINGCLOUD_PACKAGE_PREFIX}Live Transfers`, calls: 10, callCount: 1, tier: 'ringcloud' };

describe('GET /api/my-orders', () => {
  it('when an agent bought a package while logged in, ordered transfers and bought leads, then all are there newest first with receipts, and no one else’s', async () => {
    const agent = await system.createAgent({ firstName: 'Dana', lastName: 'Cole' });
    const other = await system.createAgent();
    const browser = await loggedIn(agent);
    const otherBrowser = await loggedIn(other);

    const leadOrderId = await paidLeadOrder(agent.id);
    const packageId = await payPremium(browser);
    const transfer = await browser.post(
      '/api/call-transfer-order',
      { totalTransfers: 10, callsPerDay: 5, transferHours: '9am-5pm CST', transferPhone: '(405) 555-0199', workingStates: ['TX', 'OK'], leadType: 'Live Transfers', price: 350 },
      XHR,
    );
    expect(transfer.status).toBe(201);
    // Someone else's purchase, and an anonymous one billed to the agent's own e-mail: neither is the agent's.
    const othersId = await payPremium(otherBrowser);
    const anonymousId = await payPremium(system.browser(), '4242 4242 4242 4242', { name: 'Dana Cole', email: agent.email });

    const orders = await myOrders(browser);

    expect(orders.map((o) => o.id)).toEqual([transfer.json.orderId, packageId, leadOrderId]);
    expect(orders.map((o) => o.id)).not.toContain(othersId);
    expect(orders.map((o) => o.id)).not.toContain(anonymousId);
    expect(await buyerOf(anonymousId)).toBeNull();
    const [transferOrder, pkg, leads] = orders;
    expect(transferOrder).toMatchObject({
      product: 'transfer',
      status: 'pending',
      amountCents: 35_000,
      paidAt: null,
      receipt: null,
      transfer: { totalTransfers: 10, transfersPerDay: 5, transferHours: '9am-5pm CST', selectedStates: ['TX', 'OK'], transferNumber: expect.any(String) },
    });
    expect(pkg).toMatchObject({
      product: 'package',
      status: 'paid',
      amountCents: 222_000,
      refundedCents: 0,
      description: 'Premium Volume Package: 60 transfers × $37.00',
      transfer: null,
      receipt: {
        lines: [{ item: 'Premium Volume Package', quantity: 60, unitPriceCents: 3700, amountCents: 222_000 }],
        paidAt: pkg!.paidAt,
        amountCents: 222_000,
        refundedCents: 0,
        cardLast4: '4444',
      },
    });
    expect(leads).toMatchObject({
      product: 'aged-leads',
      status: 'paid',
      receipt: {
        lines: [
          { item: 'Aged leads (30-60 days)', quantity: 3, unitPriceCents: 300, amountCents: 900 },
          { item: 'Aged leads (90-180 days)', quantity: 2, unitPriceCents: 175, amountCents: 350 },
        ],
        amountCents: 1250,
        cardLast4: null,
      },
    });
    // Nothing of the card but its last four digits, anywhere in the answer.
    expect(JSON.stringify(orders)).not.toMatch(/5555555555554444|5555 5555/);

    expect((await myOrders(otherBrowser)).map((o) => o.id)).toEqual([othersId]);
  });

  it('when the agent pays the transfer order and the team completes it, then My Orders says completed with its receipt', async () => {
    const agent = await system.createAgent();
    const browser = await loggedIn(agent);
    const transfer = await browser.post(
      '/api/call-transfer-order',
      { totalTransfers: 4, callsPerDay: 2, transferHours: '9am-5pm CST', transferPhone: '(405) 555-0199', workingStates: ['TX'], leadType: 'Live Transfers', price: 140 },
      XHR,
    );
    expect(transfer.status).toBe(201);
    expect((await browser.post('/api/payments/sandbox/confirm', testCard(String(transfer.json.clientSecret)), XHR)).status).toBe(200);
    const admin = await system.adminBrowser();
    expect((await admin.patch(`/api/transfer-orders/${transfer.json.orderId}/status`, { status: 'completed' }, XHR)).status).toBe(200);

    const [order] = await myOrders(browser);

    expect(order).toMatchObject({
      id: transfer.json.orderId,
      product: 'transfer',
      status: 'completed',
      receipt: { lines: [{ item: 'Live transfers', quantity: 4, unitPriceCents: 3500, amountCents: 14_000 }], amountCents: 14_000, cardLast4: '4242' },
    });
  });

  it('when an agent has more orders than a page, then they come 25 at a time, newest first, with the total, and a disputed one says so', async () => {
    const agent = await system.createAgent();
    const browser = await loggedIn(agent);
    const ids: string[] = [];
    for (let i = 0; i < 27; i += 1) ids.push(await paidLeadOrder(agent.id));
    // Distinct times, so newest first is one order: the last made is the newest.
    await system.ordersPool.query(
      `UPDATE package_orders o SET created_at = now() - make_interval(mins => (100 - n.i)::int)
         FROM unnest($1::uuid[]) WITH ORDINALITY AS n(id, i) WHERE o.id = n.id`,
      [ids],
    );
    await system.ordersPool.query('UPDATE package_orders SET disputed_at = now() WHERE id = $1', [ids[26]]);
    const newestFirst = [...ids].reverse();

    const first = await browser.get('/api/my-orders');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-total-count')).toBe('27');
    expect(first.json).toMatchObject({ total: 27, page: 1, pageSize: 25 });
    const firstOrders = first.json.orders as MyOrder[];
    expect(firstOrders.map((o) => o.id)).toEqual(newestFirst.slice(0, 25));
    expect(firstOrders.map((o) => o.disputed)).toEqual([true, ...Array<boolean>(24).fill(false)]);

    const second = await browser.get('/api/my-orders?page=2');
    expect((second.json.orders as MyOrder[]).map((o) => o.id)).toEqual(newestFirst.slice(25));
    const past = await browser.get('/api/my-orders?page=9');
    expect(past.json).toMatchObject({ orders: [], total: 27, page: 9 });

    for (const bad of ['0', 'two', '1.5']) {
      const refused = await browser.get(`/api/my-orders?page=${bad}`);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.json)).toContain('page must be a whole number from 1');
    }
  });

  it('when no one is logged in, then the answer is 401', async () => {
    const answer = await system.browser().get('/api/my-orders');
    expect(answer.status).toBe(401);
    expect(answer.json.error).toEqual(expect.any(String));
  });
});

describe('the second brand’s checkout right after its survey', () => {
  it('when the visitor pays with the survey’s checkout token, then the order is the new account’s; the same token again links nothing', async () => {
    const survey = ringcloudSurvey();
    const visitor = system.browser();
    const submitted = await visitor.post('/api/ringcloud-survey', survey, XHR);
    expect(submitted.status).toBe(201);
    const checkoutToken = String(submitted.json.checkoutToken);
    expect(checkoutToken).toMatch(/^ct1\./);
    expect(visitor.sessionCookie).toBeUndefined(); // the checkout is paid without a session

    const checkoutKey = randomUUID();
    const intent = await visitor.post('/api/create-payment-intent', { ...RINGCLOUD_INTENT, idempotencyKey: checkoutKey, checkoutToken }, XHR);
    expect(intent.status).toBe(201);
    // The checkout page reloaded (the SPA keeps one key per survey answer): the same linked order back.
    const reloaded = await visitor.post('/api/create-payment-intent', { ...RINGCLOUD_INTENT, idempotencyKey: checkoutKey, checkoutToken }, XHR);
    expect(reloaded.status).toBe(200);
    expect(reloaded.json.orderId).toBe(intent.json.orderId);
    const paid = await visitor.post(
      '/api/payments/sandbox/confirm',
      testCard(String(intent.json.clientSecret), { billing: { name: 'Robin Cloud', email: survey.email, phone: '(555) 123-4567' } }),
      XHR,
    );
    expect(paid.status).toBe(200);
    expect(await buyerOf(String(intent.json.orderId))).toBe(submitted.json.userId);

    // A retry of the same attempt (same key, same token) is the same order, not a conflict.
    const key = randomUUID();
    const reused = await visitor.post('/api/create-payment-intent', { ...RINGCLOUD_INTENT, idempotencyKey: key, checkoutToken }, XHR);
    expect(reused.status).toBe(201);
    expect(await buyerOf(String(reused.json.orderId))).toBeNull();
    const retried = await visitor.post('/api/create-payment-intent', { ...RINGCLOUD_INTENT, idempotencyKey: key, checkoutToken }, XHR);
    expect(retried.status).toBe(200);
    expect(retried.json.orderId).toBe(reused.json.orderId);

    const account = system.browser();
    await account.login(survey.username, survey.password);
    const orders = await myOrders(account);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      id: intent.json.orderId,
      product: 'second-brand',
      status: 'paid',
      amountCents: 37_000,
      receipt: { lines: [{ item: 'RingCloud Live Transfers', quantity: 10, unitPriceCents: 3700, amountCents: 37_000 }], cardLast4: '4242' },
    });
  });

  it('when the token is forged, signed with another key, for a logged-in visitor or for another checkout, then it links nothing to the survey’s account', async () => {
    const survey = ringcloudSurvey();
    const submitted = await system.browser().post('/api/ringcloud-survey', survey, XHR);
    expect(submitted.status).toBe(201);
    const genuine = String(submitted.json.checkoutToken);
    const [prefix, payload, signature] = genuine.split('.');
    const victim = await system.createAgent();
    // The payload rewritten to name someone else's account, the signature kept.
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>;
    const rewritten = Buffer.from(JSON.stringify({ ...claims, userId: victim.id })).toString('base64url');
    const forged = [
      `${prefix}.${rewritten}.${signature}`,
      signCheckoutToken(privateKeyOf(TEST_KEYS.CATALOG_SERVICE_KEY), { userId: victim.id, purpose: 'ringcloud-checkout' }),
      'ct1.bm90LWpzb24.c2ln',
      'garbage',
    ];
    for (const checkoutToken of forged) {
      const intent = await system.browser().post('/api/create-payment-intent', { ...RINGCLOUD_INTENT, checkoutToken }, XHR);
      expect(intent.status).toBe(201);
      expect(await buyerOf(String(intent.json.orderId))).toBeNull();
    }

    // A genuine token on another product's checkout links nothing either (and is not used up by it).
    const premium = await system.browser().post('/api/create-payment-intent', { amount: 2220, callCount: 60, tier: 'premium', checkoutToken: genuine }, XHR);
    expect(premium.status).toBe(201);
    expect(await buyerOf(String(premium.json.orderId))).toBeNull();

    // A logged-in visitor's order is theirs, whatever token comes with it.
    const other = await system.createAgent();
    const browser = await loggedIn(other);
    const own = await browser.post('/api/create-payment-intent', { ...RINGCLOUD_INTENT, checkoutToken: genuine }, XHR);
    expect(own.status).toBe(201);
    expect(await buyerOf(String(own.json.orderId))).toBe(other.id);

    const victimOrders = await myOrders(await loggedIn(victim));
    expect(victimOrders).toEqual([]);
    const { rows } = await system.ordersPool.query('SELECT count(*)::int AS n FROM checkout_token_uses WHERE user_id = ANY($1)', [[victim.id, submitted.json.userId]]);
    expect(rows[0].n).toBe(0);
  });

  it('when a token is older than its time limit or checked with another key, then it does not verify', () => {
    const gatewayKey = privateKeyOf(TEST_KEYS.IDENTITY_PRIVATE_KEY);
    const gatewayPublic = publicKeyOf(TEST_KEYS.IDENTITY_PUBLIC_KEY);
    const userId = randomUUID();
    const issuedAt = Date.now();
    const token = signCheckoutToken(gatewayKey, { userId, purpose: 'ringcloud-checkout' }, issuedAt);

    expect(verifyCheckoutToken(gatewayPublic, token, 'ringcloud-checkout', issuedAt + 60_000)).toMatchObject({ userId, purpose: 'ringcloud-checkout' });
    expect(verifyCheckoutToken(gatewayPublic, token, 'ringcloud-checkout', issuedAt + (CHECKOUT_TOKEN_TTL_SECONDS + 1) * 1000)).toBeNull();
    expect(verifyCheckoutToken(createPublicKey(privateKeyOf(TEST_KEYS.ORDERS_SERVICE_KEY)), token, 'ringcloud-checkout', issuedAt)).toBeNull();
  });
});
