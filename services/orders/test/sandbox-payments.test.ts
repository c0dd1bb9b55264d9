import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, ConfigError } from '@warmline/platform';
import { TEST_KEYS } from '@warmline/platform/testing/index';
import { ordersEnv, resolvePaymentProvider } from '../src/config';
import { customer, startOrdersFixture, testCard, type OrdersFixture } from './orders-fixture';

let orders: OrdersFixture;

beforeAll(async () => {
  orders = await startOrdersFixture();
});

afterAll(async () => {
  await orders?.cleanup();
});

/** A premium order of 60 transfers ($2,220.00), ready to pay. */
async function pendingPremiumOrder(extra: Record<string, unknown> = {}) {
  const answer = await orders.call('POST', '/api/create-payment-intent', {
    body: { amount: 2220, callCount: 60, tier: 'premium', ...extra },
  });
  expect(answer.status).toBe(201);
  return { orderId: String(answer.body.orderId), clientSecret: String(answer.body.clientSecret) };
}

const confirm = (card: Record<string, unknown>) => orders.call('POST', '/api/payments/sandbox/confirm', { body: card });

async function orderRow(orderId: string) {
  const { rows } = await orders.pool.query(
    'SELECT status, paid_at, failure_message, billing_name, billing_email, billing_phone FROM package_orders WHERE id = $1',
    [orderId],
  );
  return rows[0];
}

const eventsFor = async (type: string, orderId: string) =>
  (await orders.outbox(type)).filter((e) => e.data.orderId === orderId);

describe('sandbox card payments', () => {
  it('when the buyer pays with 4242 4242 4242 4242, then the order is paid and payment.succeeded is enqueued once', async () => {
    const { orderId, clientSecret } = await pendingPremiumOrder({ billing: { email: 'buyer@example.com' } });

    const answer = await confirm(testCard(clientSecret));

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'succeeded', orderId });
    const order = await orderRow(orderId);
    expect(order.status).toBe('paid');
    expect(order.paid_at).toBeInstanceOf(Date);
    const succeeded = await eventsFor('payment.succeeded', orderId);
    expect(succeeded).toHaveLength(1);
    expect(succeeded[0]?.data).toMatchObject({
      kind: 'package',
      tier: 'premium',
      count: 60,
      amountCents: 222000,
      currency: 'usd',
      provider: 'sandbox',
      hasBillingEmail: true,
      buyerUserId: null,
    });
    // Events never carry card data, nor the buyer's address: that travels only in the e-mail command.
    expect(JSON.stringify(succeeded[0])).not.toContain('4242');
    expect(JSON.stringify(succeeded[0])).not.toContain('buyer@example.com');
    // The receipt and sales notice are asked for in the same transaction: the payment's facts and the address.
    const asked = await eventsFor('email.order_paid', orderId);
    const { hasBillingEmail: _fact, ...facts } = succeeded[0]!.data;
    expect(asked.map((e) => e.data)).toEqual([{ ...facts, billingEmail: 'buyer@example.com' }]);
  });

  it('when the same payment is confirmed again, then nothing happens twice', async () => {
    const { orderId, clientSecret } = await pendingPremiumOrder();
    await confirm(testCard(clientSecret));
    const paidAt = (await orderRow(orderId)).paid_at;

    const again = await confirm(testCard(clientSecret));
    const declinedCardAfterwards = await confirm(testCard(clientSecret, { cardNumber: '4000000000000002' }));

    expect(again.status).toBe(200);
    expect(again.body.status).toBe('succeeded');
    expect(declinedCardAfterwards.status).toBe(200);
    expect((await orderRow(orderId)).paid_at).toEqual(paidAt);
    expect(await eventsFor('payment.succeeded', orderId)).toHaveLength(1);
    expect(await eventsFor('email.order_paid', orderId)).toHaveLength(1);
    expect(await eventsFor('payment.failed', orderId)).toHaveLength(0);
  });

  it('when two confirmations of one payment race, then the order is paid once', async () => {
    const { orderId, clientSecret } = await pendingPremiumOrder();

    const answers = await Promise.all(Array.from({ length: 5 }, () => confirm(testCard(clientSecret))));

    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await eventsFor('payment.succeeded', orderId)).toHaveLength(1);
  });

  it('when a purchase is opened and then paid in another request (issue 22), then order.created, payment.failed, payment.succeeded and the receipt command all carry the purchase\'s correlation id', async () => {
    const purchase = `purchase-${crypto.randomUUID()}`;
    const created = await orders.call('POST', '/api/create-payment-intent', { body: { amount: 2220, callCount: 60, tier: 'premium' }, headers: { 'x-request-id': purchase } });
    expect(created.status).toBe(201);
    const orderId = String(created.body.orderId);
    const clientSecret = String(created.body.clientSecret);
    const declined = await orders.call('POST', '/api/payments/sandbox/confirm', { body: testCard(clientSecret, { cardNumber: '4000 0000 0000 0002' }), headers: { 'x-request-id': 'confirm-1' } });
    expect(declined.status).toBe(402);
    const paid = await orders.call('POST', '/api/payments/sandbox/confirm', { body: testCard(clientSecret), headers: { 'x-request-id': 'confirm-2' } });
    expect(paid.status).toBe(200);

    for (const type of ['order.created', 'payment.failed', 'payment.succeeded', 'email.order_paid']) {
      const envelopes = await eventsFor(type, orderId);
      expect(envelopes.map((e) => e.correlationId), type).toEqual([purchase]);
    }
  });

  it("when the card is declined, then 402 'Your card was declined.', payment.failed, and a retry with 4242 succeeds", async () => {
    const { orderId, clientSecret } = await pendingPremiumOrder();

    const declined = await confirm(testCard(clientSecret, { cardNumber: '4000 0000 0000 0002' }));

    expect(declined.status).toBe(402);
    expect(declined.body).toMatchObject({ error: 'Your card was declined.', code: 'card_declined', declineCode: 'generic_decline' });
    expect(await orderRow(orderId)).toMatchObject({ status: 'failed', failure_message: 'Your card was declined.' });
    const failed = await eventsFor('payment.failed', orderId);
    expect(failed).toHaveLength(1);
    expect(failed[0]?.data).toMatchObject({ failureMessage: 'Your card was declined.', failureCode: 'generic_decline', amountCents: 222000 });

    const retry = await confirm(testCard(clientSecret));

    expect(retry.status).toBe(200);
    expect(await orderRow(orderId)).toMatchObject({ status: 'paid', failure_message: null });
    expect(await eventsFor('payment.succeeded', orderId)).toHaveLength(1);
  });

  it("when the card has insufficient funds, then 402 says so and the order stays payable", async () => {
    const { orderId, clientSecret } = await pendingPremiumOrder();

    const answer = await confirm(testCard(clientSecret, { cardNumber: '4000000000009995' }));

    expect(answer.status).toBe(402);
    expect(answer.body).toMatchObject({ error: 'Your card has insufficient funds.', declineCode: 'insufficient_funds' });
    expect((await orderRow(orderId)).status).toBe('failed');
  });

  const malformed: Array<[string, Record<string, unknown>, string]> = [
    ['a number that fails the Luhn check', { cardNumber: '4242 4242 4242 4241' }, 'Your card number is invalid.'],
    ['a number that is too short', { cardNumber: '4242 4242' }, 'Your card number is incomplete.'],
    ['an expiry in the past', { expMonth: 1, expYear: 2020 }, "Your card's expiration date is in the past."],
    ['a two-digit CVC', { cvc: '12' }, "Your card's security code is incomplete."],
  ];
  for (const [what, change, message] of malformed) {
    it(`when the card has ${what}, then 400 '${message}' and the order is untouched`, async () => {
      const { orderId, clientSecret } = await pendingPremiumOrder();

      const answer = await confirm(testCard(clientSecret, change));

      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe(message);
      expect((await orderRow(orderId)).status).toBe('pending');
      expect(await eventsFor('payment.failed', orderId)).toHaveLength(0);
    });
  }

  it('when a number is valid but not a test card, then the sandbox declines it', async () => {
    const { clientSecret } = await pendingPremiumOrder();
    const answer = await confirm(testCard(clientSecret, { cardNumber: '4111 1111 1111 1111' }));
    expect(answer.status).toBe(402);
    expect(String(answer.body.error)).toMatch(/^Your card was declined\./);
  });

  it('when the client secret is wrong or unknown, then 404 and nothing is paid', async () => {
    const { orderId, clientSecret } = await pendingPremiumOrder();

    const forged = await confirm(testCard(`${clientSecret.split('_secret_')[0]}_secret_guess`));
    const unknown = await confirm(testCard('pi_sandbox_nothing_secret_nothing'));
    const garbage = await confirm(testCard('garbage'));

    expect([forged.status, unknown.status, garbage.status]).toEqual([404, 404, 404]);
    expect(forged.body.error).toBe('Payment session not found; please start the payment again');
    expect((await orderRow(orderId)).status).toBe('pending');
  });

  it('when the second brand confirms with billing details, then the order keeps them for the receipt', async () => {
    const created = await orders.call('POST', '/api/create-payment-intent', {
      body: { amount: 370, packageType: 'RingCloud Live Transfers', calls: 10, callCount: 1, tier: 'ringcloud' },
    });
    const orderId = String(created.body.orderId);

    const answer = await confirm(
      testCard(String(created.body.clientSecret), { billing: { name: 'Ann Agent', email: 'ann@example.com', phone: '5551234567' } }),
    );

    expect(answer.status).toBe(200);
    expect(await orderRow(orderId)).toMatchObject({
      status: 'paid',
      billing_name: 'Ann Agent',
      billing_email: 'ann@example.com',
      billing_phone: '5551234567',
    });
    const [succeeded] = await eventsFor('payment.succeeded', orderId);
    expect(succeeded?.data).toMatchObject({ tier: 'ringcloud', count: 10, amountCents: 37000, hasBillingEmail: true });
    // The receipt goes to the address given at payment time.
    const [asked] = await eventsFor('email.order_paid', orderId);
    expect(asked?.data).toMatchObject({ tier: 'ringcloud', amountCents: 37000, billingEmail: 'ann@example.com' });
  });
});

describe('Stripe webhooks without a webhook secret', () => {
  it('when STRIPE_WEBHOOK_SECRET is not set, then the webhook answers 503 so Stripe retries later', async () => {
    const answer = await orders.call('POST', '/api/webhooks/stripe', {
      rawBody: '{"id":"evt_1"}',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc' },
    });
    expect(answer.status).toBe(503);
    expect(answer.body.error).toBe('Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET)');
  });
});

describe("the buyer's order status", () => {
  it('when the success page asks for an anonymous order, then it sees it paid', async () => {
    const { orderId, clientSecret } = await pendingPremiumOrder();
    await confirm(testCard(clientSecret));

    const answer = await orders.call('GET', `/api/orders/${orderId}/status`);

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ orderId, status: 'paid', tier: 'premium', count: 60, amountCents: 222000 });
  });

  it("when someone else asks for a customer's order, then it is not found; the buyer and admins see it", async () => {
    const buyer = customer('buyer');
    const created = await orders.call('POST', '/api/create-payment-intent', {
      body: { amount: 37, callCount: 1, tier: 'premium' },
      identity: buyer,
    });
    const path = `/api/orders/${String(created.body.orderId)}/status`;

    expect((await orders.call('GET', path, { identity: customer('other') })).status).toBe(404);
    expect((await orders.call('GET', path)).status).toBe(404);
    expect((await orders.call('GET', path, { identity: buyer })).status).toBe(200);
    expect((await orders.call('GET', path, { identity: { ...customer('admin'), isAdmin: true } })).status).toBe(200);
    // An id that is no UUID names no order: the same 404 as an unknown one.
    const malformed = await orders.call('GET', '/api/orders/not-a-uuid/status');
    expect([malformed.status, malformed.body.error]).toEqual([404, 'Order not found']);
  });
});

describe('choosing the payment provider', () => {
  const env = (extra: Record<string, string>) =>
    parseConfig(ordersEnv, { ...TEST_KEYS, ...extra });

  it('when nothing is configured outside production, then the sandbox is used', () => {
    expect(resolvePaymentProvider(env({ NODE_ENV: 'development' }))).toBe('sandbox');
  });

  it('when production has no Stripe keys and the sandbox was not chosen, then the service refuses to start', () => {
    expect(() => resolvePaymentProvider(env({ NODE_ENV: 'production' }))).toThrow(ConfigError);
    expect(() => resolvePaymentProvider(env({ NODE_ENV: 'production' }))).toThrow(/STRIPE_SECRET_KEY/);
    expect(() => resolvePaymentProvider(env({ NODE_ENV: 'production' }))).toThrow(/ALLOW_TEST_PAYMENTS=true/);
  });

  it('when production asks for the sandbox without ALLOW_TEST_PAYMENTS=true, then the service refuses to start with one line naming it', () => {
    for (const allow of [{}, { ALLOW_TEST_PAYMENTS: '' }, { ALLOW_TEST_PAYMENTS: 'false' }] as Array<Record<string, string>>) {
      const config = env({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox', ...allow });
      expect(() => resolvePaymentProvider(config)).toThrow(ConfigError);
      expect(() => resolvePaymentProvider(config)).toThrow(/^Invalid configuration: [^\n]*ALLOW_TEST_PAYMENTS=true[^\n]*$/);
    }
    // Unset, the sandbox is refused in production whether it was chosen or fallen back to.
    expect(() => resolvePaymentProvider(env({ NODE_ENV: 'production', STRIPE_PUBLISHABLE_KEY: 'pk_test_x' }))).toThrow(/ALLOW_TEST_PAYMENTS/);
  });

  it('when production sets ALLOW_TEST_PAYMENTS=true on purpose, then the sandbox is used', () => {
    expect(resolvePaymentProvider(env({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox', ALLOW_TEST_PAYMENTS: 'true' }))).toBe('sandbox');
    expect(env({ NODE_ENV: 'production' }).ALLOW_TEST_PAYMENTS).toBe(false);
  });

  it('when outside production, then the sandbox needs no ALLOW_TEST_PAYMENTS (the local demo keeps it)', () => {
    expect(resolvePaymentProvider(env({ NODE_ENV: 'development', PAYMENT_PROVIDER: 'sandbox' }))).toBe('sandbox');
    expect(resolvePaymentProvider(env({ NODE_ENV: 'test' }))).toBe('sandbox');
  });

  it('when ALLOW_TEST_PAYMENTS is neither true nor false, then the configuration names it', () => {
    expect(() => env({ ALLOW_TEST_PAYMENTS: 'yes' })).toThrow(/ALLOW_TEST_PAYMENTS: must be 'true' or 'false'/);
  });

  it('when a Stripe secret key is set, then Stripe is used, and it needs its publishable key', () => {
    expect(
      resolvePaymentProvider(env({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PUBLISHABLE_KEY: 'pk_test_x' })),
    ).toBe('stripe');
    expect(() => resolvePaymentProvider(env({ STRIPE_SECRET_KEY: 'sk_test_x' }))).toThrow(/STRIPE_PUBLISHABLE_KEY/);
    expect(() => resolvePaymentProvider(env({ PAYMENT_PROVIDER: 'stripe' }))).toThrow(/STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY/);
    expect(() =>
      resolvePaymentProvider(
        env({ NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_test_production_x', STRIPE_PUBLISHABLE_KEY: 'pk_test_production_x' }),
      ),
    ).toThrow(/STRIPE_WEBHOOK_SECRET/);
  });

  it('when a key has the wrong shape, then the configuration names it', () => {
    expect(() => env({ STRIPE_SECRET_KEY: 'pk_test_x' })).toThrow(/STRIPE_SECRET_KEY: must start with 'sk_'/);
  });
});
