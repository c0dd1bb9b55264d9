import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOrdersFixture, type Answer, type OrdersFixture } from './orders-fixture';
import { startStripeStandIn, type StripeStandIn } from './stripe-stand-in';

const WEBHOOK_SECRET = 'whsec_test_orders_webhook';

let stripe: StripeStandIn;
let orders: OrdersFixture;
/** The orders service's log lines at warn and above. */
const logLines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  stripe = await startStripeStandIn();
  orders = await startOrdersFixture({
    STRIPE_SECRET_KEY: 'sk_test_webhooks',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_webhooks',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stripe.url,
  }, { log: { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) } });
});

afterAll(async () => {
  await orders?.cleanup();
  await stripe?.close();
});

/** An enterprise order of 100 transfers with its Stripe intent. */
async function pendingOrder() {
  const answer = await orders.call('POST', '/api/create-payment-intent', {
    body: { amount: 3500, callCount: 100, tier: 'enterprise' },
  });
  expect(answer.status).toBe(201);
  return { orderId: String(answer.body.orderId), intentId: String(answer.body.clientSecret).split('_secret_')[0]! };
}

/**
 * A Stripe event as Stripe would send it (the JSON text is what gets signed). The payment
 * intent is the one the stand-in holds (amount, currency, metadata the service gave it), with
 * `intent`'s fields over it; a success has received the whole amount unless `intent` says otherwise.
 */
function stripeEvent(type: string, intent: Record<string, unknown> & { id: string }, id = `evt_${randomBytes(12).toString('hex')}`): string {
  const held = stripe.intent(intent.id) ?? { object: 'payment_intent', amount: 350000, currency: 'usd', metadata: {} };
  const received = type === 'payment_intent.succeeded' ? { amount_received: held.amount } : { amount_received: 0 };
  return JSON.stringify({
    id,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object: { ...held, ...received, ...intent } },
  });
}

function deliver(payload: string, signature: string | undefined, options: { identity?: null } = {}): Promise<Answer> {
  return orders.call('POST', '/api/webhooks/stripe', {
    rawBody: payload,
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    ...options,
  });
}

const sign = (payload: string, secret = WEBHOOK_SECRET, timestamp?: number) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });

async function orderStatus(orderId: string) {
  const { rows } = await orders.pool.query('SELECT status, failure_message, billing_email FROM package_orders WHERE id = $1', [orderId]);
  return rows[0];
}

const eventsFor = async (type: string, orderId: string) =>
  (await orders.outbox(type)).filter((e) => e.data.orderId === orderId);

describe('POST /api/webhooks/stripe', () => {
  it('when Stripe reports payment_intent.succeeded with a valid signature, then the order is paid and payment.succeeded enqueued', async () => {
    const { orderId, intentId } = await pendingOrder();
    const payload = stripeEvent('payment_intent.succeeded', { id: intentId, status: 'succeeded', receipt_email: 'payer@example.com' });

    const answer = await deliver(payload, sign(payload));

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ received: true, outcome: 'recorded' });
    expect(await orderStatus(orderId)).toMatchObject({ status: 'paid', billing_email: 'payer@example.com' });
    const succeeded = await eventsFor('payment.succeeded', orderId);
    expect(succeeded).toHaveLength(1);
    expect(succeeded[0]?.data).toMatchObject({
      provider: 'stripe',
      paymentIntentId: intentId,
      amountCents: 350000,
      tier: 'enterprise',
      count: 100,
      hasBillingEmail: true,
    });
    const asked = await eventsFor('email.order_paid', orderId);
    expect(asked.map((e) => e.data)).toEqual([expect.objectContaining({ paymentIntentId: intentId, billingEmail: 'payer@example.com' })]);
  });

  it('when Stripe repeats an event id, then it gets 200 and nothing happens again', async () => {
    const { orderId, intentId } = await pendingOrder();
    const payload = stripeEvent('payment_intent.succeeded', { id: intentId, status: 'succeeded' });
    await deliver(payload, sign(payload));

    const repeat = await deliver(payload, sign(payload));
    const anotherEventSameIntent = stripeEvent('payment_intent.succeeded', { id: intentId, status: 'succeeded' });
    const second = await deliver(anotherEventSameIntent, sign(anotherEventSameIntent));

    expect(repeat.status).toBe(200);
    expect(repeat.body.outcome).toBe('duplicate-event');
    expect(second.status).toBe(200);
    expect(second.body.outcome).toBe('already-paid');
    expect(await eventsFor('payment.succeeded', orderId)).toHaveLength(1);
  });

  it('when the signature is made with another secret, then 400 and the order stays pending', async () => {
    const { orderId, intentId } = await pendingOrder();
    const payload = stripeEvent('payment_intent.succeeded', { id: intentId, status: 'succeeded' });

    const answer = await deliver(payload, sign(payload, 'whsec_not_ours'));

    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('Invalid Stripe signature: No signatures found matching the expected signature for payload.');
    expect((await orderStatus(orderId)).status).toBe('pending');
    expect(await eventsFor('payment.succeeded', orderId)).toHaveLength(0);
  });

  it('when the body was changed after signing, then 400', async () => {
    const { orderId, intentId } = await pendingOrder();
    const signed = stripeEvent('payment_intent.payment_failed', { id: intentId, status: 'requires_payment_method' });
    const tampered = signed.replace('payment_intent.payment_failed', 'payment_intent.succeeded');

    const answer = await deliver(tampered, sign(signed));

    expect(answer.status).toBe(400);
    expect((await orderStatus(orderId)).status).toBe('pending');
  });

  it('when the signature timestamp is older than the tolerance, then 400 even though the signature matches', async () => {
    const { orderId, intentId } = await pendingOrder();
    const payload = stripeEvent('payment_intent.succeeded', { id: intentId, status: 'succeeded' });
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;

    const answer = await deliver(payload, sign(payload, WEBHOOK_SECRET, tenMinutesAgo));

    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('Invalid Stripe signature: Timestamp outside the tolerance zone');
    expect((await orderStatus(orderId)).status).toBe('pending');
  });

  it('when the signature header is missing, then 400 says so', async () => {
    const payload = stripeEvent('payment_intent.succeeded', { id: 'pi_x', status: 'succeeded' });
    const answer = await deliver(payload, undefined);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('Missing Stripe-Signature header');
  });

  it('when a signed event has no data.object, or one that is not an object, then 400 says so and the order stays pending (issue 26: was a 500)', async () => {
    const { orderId, intentId } = await pendingOrder();
    const full = JSON.parse(stripeEvent('payment_intent.succeeded', { id: intentId, status: 'succeeded' })) as Record<string, unknown>;
    const { data: _data, ...noData } = full;
    const bodies = [noData, { ...full, data: null }, { ...full, data: {} }, { ...full, data: { object: null } }, { ...full, data: { object: [] } }].map((b) => JSON.stringify(b));

    const answers = await Promise.all(bodies.map((payload) => deliver(payload, sign(payload))));

    expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400, 400]);
    expect(new Set(answers.map((a) => a.body.error))).toEqual(new Set(['Not a Stripe event: it needs an id, a type and a data.object']));
    expect((await orderStatus(orderId)).status).toBe('pending');
    expect(await eventsFor('payment.succeeded', orderId)).toHaveLength(0);
  });

  it('when the call does not come through the gateway, then 401 before the body is read', async () => {
    const payload = stripeEvent('payment_intent.succeeded', { id: 'pi_x', status: 'succeeded' });
    const answer = await deliver(payload, sign(payload), { identity: null });
    expect(answer.status).toBe(401);
  });

  it('when a payment fails, then the order is failed with Stripe\'s message, payment.failed is enqueued, and a later success pays it', async () => {
    const { orderId, intentId } = await pendingOrder();
    const failure = stripeEvent('payment_intent.payment_failed', {
      id: intentId,
      status: 'requires_payment_method',
      last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
    });

    const failedAnswer = await deliver(failure, sign(failure));

    expect(failedAnswer.status).toBe(200);
    expect(await orderStatus(orderId)).toMatchObject({ status: 'failed', failure_message: 'Your card has insufficient funds.' });
    const failed = await eventsFor('payment.failed', orderId);
    expect(failed).toHaveLength(1);
    expect(failed[0]?.data).toMatchObject({ failureMessage: 'Your card has insufficient funds.', failureCode: 'insufficient_funds', provider: 'stripe' });

    const success = stripeEvent('payment_intent.succeeded', { id: intentId, status: 'succeeded' });
    await deliver(success, sign(success));

    expect((await orderStatus(orderId)).status).toBe('paid');
    expect(await eventsFor('payment.succeeded', orderId)).toHaveLength(1);
  });

  it('when a failure of an earlier attempt arrives after the order was paid, then the order stays paid', async () => {
    const { orderId, intentId } = await pendingOrder();
    const success = stripeEvent('payment_intent.succeeded', { id: intentId, status: 'succeeded' });
    await deliver(success, sign(success));

    const lateFailure = stripeEvent('payment_intent.payment_failed', { id: intentId, last_payment_error: { message: 'Your card was declined.' } });
    const answer = await deliver(lateFailure, sign(lateFailure));

    expect(answer.body.outcome).toBe('already-paid');
    expect((await orderStatus(orderId)).status).toBe('paid');
    expect(await eventsFor('payment.failed', orderId)).toHaveLength(0);
  });

  it.each([
    ['the amount received is less than the order\'s', { amount_received: 100 }, 'amount_received'],
    ['the currency is another', { currency: 'eur' }, 'currency'],
    ['metadata.orderId names another order', { metadata: { orderId: '00000000-0000-4000-8000-000000000000' } }, 'metadata.orderId'],
    ['metadata.orderId is missing', { metadata: {} }, 'metadata.orderId'],
  ])(
    'when a signed payment_intent.succeeded does not match the locked order (%s), then the order is not paid, an alert is logged and Stripe gets 200',
    async (_case, change, field) => {
      const { orderId, intentId } = await pendingOrder();
      const payload = stripeEvent('payment_intent.succeeded', { id: intentId, status: 'succeeded', receipt_email: 'someone@example.com', ...change });

      const answer = await deliver(payload, sign(payload));

      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ received: true, outcome: 'mismatch' });
      expect(await orderStatus(orderId)).toMatchObject({ status: 'pending', billing_email: null });
      expect(await eventsFor('payment.succeeded', orderId)).toHaveLength(0);
      expect(await eventsFor('email.order_paid', orderId)).toHaveLength(0);
      const alert = logLines.find((l) => l.alert === 'stripe-payment-mismatch' && l.orderId === orderId);
      expect(alert).toMatchObject({ level: 50, intentId, mismatched: [field] });
      // Stripe's retry of the same event changes nothing either.
      expect((await deliver(payload, sign(payload))).body.outcome).toBe('duplicate-event');
      expect((await orderStatus(orderId)).status).toBe('pending');
    },
  );

  it('when Stripe sends an event this service does not handle, or for an intent it does not know, then 200 without effect', async () => {
    const other = stripeEvent('payment_intent.created', { id: 'pi_unrelated' });
    const unknown = stripeEvent('payment_intent.succeeded', { id: 'pi_from_another_system', status: 'succeeded' });

    const ignored = await deliver(other, sign(other));
    const unknownIntent = await deliver(unknown, sign(unknown));

    expect(ignored.status).toBe(200);
    expect(ignored.body.outcome).toBe('ignored');
    expect(unknownIntent.status).toBe(200);
    expect(unknownIntent.body.outcome).toBe('unknown-intent');
  });
});
