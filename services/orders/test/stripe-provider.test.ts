import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOrdersFixture, testCard, type OrdersFixture } from './orders-fixture';
import { startStripeStandIn, type StripeStandIn } from './stripe-stand-in';

let stripe: StripeStandIn;
let orders: OrdersFixture;

const SECRET_KEY = 'sk_test_warmline_orders';
const PUBLISHABLE_KEY = 'pk_test_warmline_orders';

beforeAll(async () => {
  stripe = await startStripeStandIn();
  orders = await startOrdersFixture({
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
    STRIPE_WEBHOOK_SECRET: 'whsec_test_provider',
    STRIPE_API_BASE: stripe.url,
  });
});

afterAll(async () => {
  await orders?.cleanup();
  await stripe?.close();
});

beforeEach(() => {
  stripe.requests.length = 0;
  stripe.failNext(0);
});

describe('the stripe payment provider', () => {
  it('when Stripe keys are set, then the SPA is given the publishable key (and never the secret one)', async () => {
    const answer = await orders.call('GET', '/api/config');

    expect(answer.body).toEqual({ paymentProvider: 'stripe', stripePublishableKey: PUBLISHABLE_KEY });
    expect(JSON.stringify(answer.body)).not.toContain(SECRET_KEY);
  });

  it('when a premium buyer asks to pay for 60, then Stripe gets a card PaymentIntent of 222000 cents in usd with the order in its metadata and an idempotency key', async () => {
    const answer = await orders.call('POST', '/api/create-payment-intent', {
      body: { amount: 2220, callCount: 60, tier: 'premium', billing: { email: 'buyer@example.com' } },
    });

    expect(answer.status).toBe(201);
    expect(stripe.requests).toHaveLength(1);
    const sent = stripe.requests[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/payment_intents');
    expect(sent.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(sent.headers['idempotency-key']).toBe(`warmline-order-${String(answer.body.orderId)}`);
    expect(sent.form).toMatchObject({
      amount: '222000',
      currency: 'usd',
      'metadata[orderId]': String(answer.body.orderId),
      'metadata[tier]': 'premium',
      'metadata[count]': '60',
      'allowed_payment_method_types[0]': 'card',
      receipt_email: 'buyer@example.com',
      description: 'Premium Volume Package: 60 transfers × $37.00',
    });

    const intentId = String(answer.body.clientSecret).split('_secret_')[0];
    expect(answer.body).toMatchObject({ amountCents: 222000, paymentProvider: 'stripe' });
    const { rows } = await orders.pool.query('SELECT provider, provider_intent_id, status FROM package_orders WHERE id = $1', [
      answer.body.orderId,
    ]);
    expect(rows[0]).toEqual({ provider: 'stripe', provider_intent_id: intentId, status: 'pending' });
  });

  it("when the second brand's aged leads are bought, then the lead type and age range travel in the metadata", async () => {
    await orders.call('POST', '/api/create-payment-intent', {
      body: { amount: 400, packageType: 'RingCloud Aged Leads', callCount: 1, tier: 'ringcloud', ageRange: '60-90' },
    });

    expect(stripe.requests[0]?.form).toMatchObject({
      amount: '40000',
      'metadata[tier]': 'ringcloud',
      'metadata[count]': '100',
      'metadata[leadType]': 'Aged Leads',
      'metadata[ageRange]': '60-90',
    });
  });

  it('when Stripe answers 500 once, then the SDK retries with the same idempotency key and one intent is made', async () => {
    stripe.failNext(1, 500);

    const answer = await orders.call('POST', '/api/create-payment-intent', { body: { amount: 37, callCount: 1, tier: 'premium' } });

    expect(answer.status).toBe(201);
    expect(stripe.requests).toHaveLength(2);
    expect(stripe.requests[1]?.headers['idempotency-key']).toBe(stripe.requests[0]?.headers['idempotency-key']);
  });

  it('when Stripe stays down, then the buyer gets a retryable 502 and the retry with the same key pays the same order', async () => {
    const key = randomUUID();
    const body = { amount: 74, callCount: 2, tier: 'premium', idempotencyKey: key };
    stripe.failNext(10, 503);

    const down = await orders.call('POST', '/api/create-payment-intent', { body });

    expect(down.status).toBe(502);
    expect(down.body.error).toBe('The payment service is unavailable, please try again shortly');
    expect(JSON.stringify(down.body)).not.toContain('stand-in');

    stripe.failNext(0);
    const retry = await orders.call('POST', '/api/create-payment-intent', { body });

    expect(retry.status).toBe(200);
    expect(retry.body.clientSecret).toMatch(/^pi_\w+_secret_\w+$/);
    const { rows } = await orders.pool.query('SELECT id FROM package_orders WHERE idempotency_key = $1', [key]);
    expect(rows).toEqual([{ id: retry.body.orderId }]);
    const keys = new Set(stripe.requests.map((r) => r.headers['idempotency-key']));
    expect(keys).toEqual(new Set([`warmline-order-${String(retry.body.orderId)}`]));
  });

  it('when Stripe is the provider, then the sandbox card form is not available', async () => {
    const created = await orders.call('POST', '/api/create-payment-intent', { body: { amount: 37, callCount: 1, tier: 'premium' } });

    const answer = await orders.call('POST', '/api/payments/sandbox/confirm', { body: testCard(String(created.body.clientSecret)) });

    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe('Sandbox payments are not enabled on this site');
  });
});
