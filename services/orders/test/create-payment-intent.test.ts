import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customer, startOrdersFixture, type OrdersFixture } from './orders-fixture';

let orders: OrdersFixture;

beforeAll(async () => {
  orders = await startOrdersFixture();
});

afterAll(async () => {
  await orders?.cleanup();
});

const createIntent = (body: unknown, options: { headers?: Record<string, string> } = {}) =>
  orders.call('POST', '/api/create-payment-intent', { body, ...options });

async function storedOrder(id: unknown) {
  const { rows } = await orders.pool.query(
    `SELECT tier, lead_type, age_range, count, unit_price_cents, amount_cents, currency, status, buyer_user_id,
            billing_email, provider, provider_intent_id
       FROM package_orders WHERE id = $1`,
    [id],
  );
  return rows[0];
}

describe('POST /api/create-payment-intent: every checkout of spec §7', () => {
  const variants = [
    { name: 'the special-pricing checkout', body: { amount: 975, callCount: 25 }, tier: 'special', count: 25, unit: 3900 },
    { name: 'the high-volume checkout', body: { amount: 3000, callCount: 100, tier: 'high-volume' }, tier: 'high-volume', count: 100, unit: 3000 },
    { name: 'the premium checkout', body: { amount: 2220, callCount: 60, tier: 'premium' }, tier: 'premium', count: 60, unit: 3700 },
    { name: 'the enterprise checkout', body: { amount: 3500, callCount: 100, tier: 'enterprise' }, tier: 'enterprise', count: 100, unit: 3500 },
    { name: 'the ultimate checkout', body: { amount: 6400, callCount: 200, tier: 'ultimate' }, tier: 'ultimate', count: 200, unit: 3200 },
    {
      name: "the second brand's live transfers",
      body: { amount: 370, packageType: 'RingCloud Live Transfers', calls: 10, callCount: 1, tier: 'ringcloud' },
      tier: 'ringcloud',
      count: 10,
      unit: 3700,
    },
    {
      name: "the second brand's call-backs",
      body: { amount: 300, packageType: 'RingCloud Call-Backs', calls: 20, callCount: 1, tier: 'ringcloud' },
      tier: 'ringcloud',
      count: 20,
      unit: 1500,
    },
    {
      name: "the second brand's aged leads",
      body: { amount: 300, packageType: 'RingCloud Aged Leads', callCount: 1, tier: 'ringcloud', ageRange: '90-180' },
      tier: 'ringcloud',
      count: 100,
      unit: 300,
    },
  ];

  for (const v of variants) {
    it(`when ${v.name} asks to pay the right amount, then a pending order is recorded at the server price`, async () => {
      const answer = await createIntent(v.body);

      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({
        amount: (v.count * v.unit) / 100,
        amountCents: v.count * v.unit,
        currency: 'usd',
        paymentProvider: 'sandbox',
      });
      expect(answer.body.clientSecret).toMatch(/^pi_sandbox_\w+_secret_\w+$/);
      const order = await storedOrder(answer.body.orderId);
      expect(order).toMatchObject({
        tier: v.tier,
        count: v.count,
        unit_price_cents: v.unit,
        amount_cents: v.count * v.unit,
        currency: 'usd',
        status: 'pending',
        buyer_user_id: null,
        provider: 'sandbox',
      });
      expect(String(answer.body.clientSecret).startsWith(`${order.provider_intent_id}_secret_`)).toBe(true);
    });
  }

  it('when premium 60 is bought, then the order is 222000 cents and order.created says so once', async () => {
    const answer = await createIntent({ amount: 2220, callCount: 60, tier: 'premium', billing: { email: 'buyer@example.com' } });

    expect(answer.body.amountCents).toBe(222000);
    const created = (await orders.outbox('order.created')).filter((e) => e.data.orderId === answer.body.orderId);
    expect(created).toHaveLength(1);
    expect(created[0]?.data).toMatchObject({
      kind: 'package',
      tier: 'premium',
      count: 60,
      unitPriceCents: 3700,
      amountCents: 222000,
      currency: 'usd',
      buyerUserId: null,
      hasBillingEmail: true,
      description: 'Premium Volume Package: 60 transfers × $37.00',
    });
  });

  it('when a logged-in customer buys, then the order is theirs', async () => {
    const agent = customer();
    const answer = await orders.call('POST', '/api/create-payment-intent', {
      body: { amount: 3500, callCount: 100, tier: 'enterprise' },
      identity: agent,
    });

    expect(answer.status).toBe(201);
    expect((await storedOrder(answer.body.orderId)).buyer_user_id).toBe(agent.userId);
  });
});

describe('POST /api/create-payment-intent: what is refused', () => {
  const refusals: Array<[string, unknown, string]> = [
    ['a tampered amount', { amount: 100, callCount: 60, tier: 'premium' }, 'Amount does not match the price: expected $2,220.00'],
    ['the pricing page rate instead of the checkout rate (60 × $35)', { amount: 2100, callCount: 60, tier: 'premium' }, 'Amount does not match the price: expected $2,220.00'],
    ['a special count above 1000', { amount: 39039, callCount: 1001 }, 'The Special Pricing Package allows 1 to 1000 transfers'],
    ['a premium count above 2000', { amount: 74037, callCount: 2001, tier: 'premium' }, 'The Premium Volume Package allows 1 to 2000 transfers'],
    ['an enterprise count above 5000', { amount: 175035, callCount: 5001, tier: 'enterprise' }, 'The Enterprise Volume Package allows 1 to 5000 transfers'],
    ['an ultimate count above 10000', { amount: 320032, callCount: 10001, tier: 'ultimate' }, 'The Ultimate Volume Package allows 1 to 10000 transfers'],
    ['a count of 0', { amount: 0.5, callCount: 0, tier: 'premium' }, 'The Premium Volume Package allows 1 to 2000 transfers'],
    ['a high-volume count of 49', { amount: 1568, callCount: 49, tier: 'high-volume' }, 'The High Volume Package allows 50 to 10000 transfers'],
    ['a count that is not a number', { amount: 2220, callCount: 'sixty', tier: 'premium' }, 'Count must be a whole number'],
    ['a fractional count', { amount: 2220, callCount: 60.5, tier: 'premium' }, 'Count must be a whole number'],
    ["a count typed as '2.5' (issue 17: never rounded to 2)", { amount: 74, callCount: '2.5', tier: 'premium' }, 'Count must be a whole number'],
    ['a count of 99999 at its price', { amount: 3899961, callCount: 99999 }, 'The Special Pricing Package allows 1 to 1000 transfers'],
    ['a missing count', { amount: 2220, tier: 'premium' }, 'Count is required'],
    ['an unknown tier', { amount: 2220, callCount: 60, tier: 'platinum' }, 'Unknown package tier: platinum'],
    ['a missing amount', { callCount: 60, tier: 'premium' }, 'Amount is required'],
    ['an amount that is not a number', { amount: 'lots', callCount: 60, tier: 'premium' }, 'Amount must be a number in dollars'],
    ['a negative amount', { amount: -2220, callCount: 60, tier: 'premium' }, 'Amount must be greater than 0'],
    ['aged leads without an age range', { amount: 300, packageType: 'RingCloud Aged Leads', callCount: 1, tier: 'ringcloud' }, 'Please select an age range for Aged Leads (30-60, 60-90 or 90-180 days)'],
    ['a second-brand product that does not exist', { amount: 300, packageType: 'RingCloud Recruiting', calls: 1, callCount: 1, tier: 'ringcloud' }, 'Unknown RingCloud lead type: Recruiting'],
    ['a billing e-mail that is not an address', { amount: 2220, callCount: 60, tier: 'premium', billing: { email: 'nope' } }, 'Invalid email address'],
  ];

  for (const [what, body, message] of refusals) {
    it(`when a checkout sends ${what}, then it gets 400 '${message}' and no order is recorded`, async () => {
      const before = await orders.pool.query('SELECT count(*)::int AS n FROM package_orders');

      const answer = await createIntent(body);

      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe(message);
      const after = await orders.pool.query('SELECT count(*)::int AS n FROM package_orders');
      expect(after.rows[0].n).toBe(before.rows[0].n);
    });
  }

  it('when the body is not JSON, then it gets 400 and no order', async () => {
    const answer = await orders.call('POST', '/api/create-payment-intent', {
      rawBody: '{"amount": 2220,',
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('Request body is not valid JSON');
  });

  it('when the request does not come through the gateway, then it is refused with 401', async () => {
    const answer = await orders.call('POST', '/api/create-payment-intent', {
      body: { amount: 2220, callCount: 60, tier: 'premium' },
      identity: null,
    });
    expect(answer.status).toBe(401);
  });
});

describe('idempotent retries', () => {
  it('when the same request is retried with the same key, then one order exists and the same client secret comes back', async () => {
    const key = randomUUID();
    const body = { amount: 2220, callCount: 60, tier: 'premium', idempotencyKey: key };

    const first = await createIntent(body);
    const second = await createIntent(body);
    const viaHeader = await createIntent({ amount: 2220, callCount: 60, tier: 'premium' }, { headers: { 'Idempotency-Key': key } });

    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(viaHeader.body).toEqual(first.body);
    const { rows } = await orders.pool.query('SELECT id FROM package_orders WHERE idempotency_key = $1', [key]);
    expect(rows).toHaveLength(1);
    const intents = await orders.pool.query('SELECT id FROM payment_intents WHERE order_id = $1', [first.body.orderId]);
    expect(intents.rows).toHaveLength(1);
    const created = (await orders.outbox('order.created')).filter((e) => e.data.orderId === first.body.orderId);
    expect(created).toHaveLength(1);
  });

  it('when several retries with one key race each other, then still one order and one intent are made', async () => {
    const key = randomUUID();
    const body = { amount: 3500, callCount: 100, tier: 'enterprise', idempotencyKey: key };

    const answers = await Promise.all(Array.from({ length: 6 }, () => createIntent(body)));

    expect(answers.every((a) => a.status === 201 || a.status === 200)).toBe(true);
    expect(new Set(answers.map((a) => a.body.clientSecret)).size).toBe(1);
    const { rows } = await orders.pool.query('SELECT id FROM package_orders WHERE idempotency_key = $1', [key]);
    expect(rows).toHaveLength(1);
  });

  it('when a key is reused for a different purchase, then it is refused with 409', async () => {
    const key = randomUUID();
    await createIntent({ amount: 2220, callCount: 60, tier: 'premium', idempotencyKey: key });

    const other = await createIntent({ amount: 2257, callCount: 61, tier: 'premium', idempotencyKey: key });

    expect(other.status).toBe(409);
    expect(other.body.error).toBe('This idempotency key was already used for a different order');
  });

  it('when the header and the body carry different keys or the key is not a UUID, then 400 says so', async () => {
    const mismatch = await createIntent(
      { amount: 2220, callCount: 60, tier: 'premium', idempotencyKey: randomUUID() },
      { headers: { 'Idempotency-Key': randomUUID() } },
    );
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error).toBe('The Idempotency-Key header and the idempotencyKey in the body differ');

    const notUuid = await createIntent({ amount: 2220, callCount: 60, tier: 'premium' }, { headers: { 'Idempotency-Key': 'abc' } });
    expect(notUuid.status).toBe(400);
    expect(notUuid.body.error).toBe('Idempotency key must be a UUID');
  });

  it('without a key, then each request is a new order', async () => {
    const body = { amount: 37, callCount: 1, tier: 'premium' };
    const a = await createIntent(body);
    const b = await createIntent(body);
    expect(a.body.orderId).not.toBe(b.body.orderId);
  });
});

describe('GET /api/config', () => {
  it('when no Stripe keys are configured, then the SPA is told to show the sandbox card form', async () => {
    const answer = await orders.call('GET', '/api/config');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ paymentProvider: 'sandbox' });
    expect((await orders.call('GET', '/api/payments/config')).body).toEqual({ paymentProvider: 'sandbox' });
  });
});
