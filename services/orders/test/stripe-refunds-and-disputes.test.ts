import { randomBytes, randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOrdersFixture, type Answer, type OrdersFixture } from './orders-fixture';
import { startStripeStandIn, type StripeStandIn } from './stripe-stand-in';

/**
 * What Stripe reports after a payment (issue 12): `charge.refunded` (a refund made in Stripe's
 * dashboard, or one of ours heard about again) and `charge.dispute.created`, through the signed
 * webhook, each recorded once however often Stripe delivers it. Our own refunds go to Stripe's
 * Refunds API (the local stand-in).
 */

const WEBHOOK_SECRET = 'whsec_test_refund_webhooks';
const ADMIN = { userId: randomUUID(), username: 'root_admin', isAdmin: true };

let stripe: StripeStandIn;
let orders: OrdersFixture;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  orders = await startOrdersFixture({
    STRIPE_SECRET_KEY: 'sk_test_refunds',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_refunds',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stripe.url,
  });
});

afterAll(async () => {
  await orders?.cleanup();
  await stripe?.close();
});

const eventId = () => `evt_${randomBytes(12).toString('hex')}`;

function signedEvent(type: string, object: Record<string, unknown>, id = eventId()): { payload: string; signature: string } {
  const payload = JSON.stringify({
    id,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  });
  return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) };
}

function deliver(event: { payload: string; signature: string }): Promise<Answer> {
  return orders.call('POST', '/api/webhooks/stripe', { rawBody: event.payload, headers: { 'content-type': 'application/json', 'stripe-signature': event.signature } });
}

/** A Premium order of 60 transfers ($2,220.00) paid through Stripe's webhook, with a billing e-mail. */
async function paidOrder(): Promise<{ orderId: string; intentId: string; email: string }> {
  const email = `payer_${randomBytes(3).toString('hex')}@example.com`;
  const created = await orders.call('POST', '/api/create-payment-intent', { body: { amount: 2220, callCount: 60, tier: 'premium' } });
  expect(created.status).toBe(201);
  const orderId = String(created.body.orderId);
  const intentId = String(created.body.clientSecret).split('_secret_')[0]!;
  const held = stripe.intent(intentId)!;
  const paid = await deliver(signedEvent('payment_intent.succeeded', { ...held, status: 'succeeded', amount_received: held.amount, receipt_email: email }));
  expect(paid.body.outcome).toBe('recorded');
  return { orderId, intentId, email };
}

function chargeRefunded(intentId: string, amountRefunded: number, refunds: Array<{ id: string; amount: number; reason?: string | null }> | null) {
  return {
    id: `ch_${intentId.slice(3)}`,
    object: 'charge',
    amount: 222_000,
    amount_refunded: amountRefunded,
    currency: 'usd',
    payment_intent: intentId,
    refunded: amountRefunded >= 222_000,
    ...(refunds
      ? { refunds: { object: 'list', has_more: false, url: '/v1/refunds', data: refunds.map((r) => ({ object: 'refund', status: 'succeeded', currency: 'usd', payment_intent: intentId, reason: null, ...r })) } }
      : {}),
  };
}

async function refundRows(orderId: string) {
  const { rows } = await orders.pool.query<{ amount_cents: number; initiated_by: string; provider_refund_id: string; reason: string }>(
    'SELECT amount_cents, initiated_by, provider_refund_id, reason FROM refunds WHERE order_id = $1 ORDER BY created_at',
    [orderId],
  );
  return rows;
}

async function refundedCents(orderId: string): Promise<number> {
  const { rows } = await orders.pool.query<{ refunded_cents: number }>('SELECT refunded_cents FROM package_orders WHERE id = $1', [orderId]);
  return rows[0]!.refunded_cents;
}

const outboxFor = async (type: string, orderId: string) => (await orders.outbox(type)).filter((e) => e.data.orderId === orderId);

describe('charge.refunded', () => {
  it('when a refund made in Stripe\'s dashboard is reported twice (same event, then another event naming it), then it is recorded once as the provider\'s, announced once and the buyer told', async () => {
    const { orderId, intentId, email } = await paidOrder();
    const refundId = `re_${randomBytes(10).toString('hex')}`;
    const first = signedEvent('charge.refunded', chargeRefunded(intentId, 50_000, [{ id: refundId, amount: 50_000, reason: 'requested_by_customer' }]));

    expect((await deliver(first)).body).toEqual({ received: true, outcome: 'recorded' });
    expect((await deliver(first)).body.outcome).toBe('duplicate-event');
    const again = signedEvent('charge.refunded', chargeRefunded(intentId, 50_000, [{ id: refundId, amount: 50_000, reason: 'requested_by_customer' }]));
    expect((await deliver(again)).body.outcome).toBe('nothing-new');

    expect(await refundRows(orderId)).toEqual([
      { amount_cents: 50_000, initiated_by: 'provider', provider_refund_id: refundId, reason: 'Refunded in Stripe (requested by customer)' },
    ]);
    expect(await refundedCents(orderId)).toBe(50_000);
    expect((await outboxFor('payment.refunded', orderId)).map((e) => e.data)).toEqual([
      expect.objectContaining({ amountCents: 50_000, refundedTotalCents: 50_000, initiatedBy: 'provider', currency: 'usd' }),
    ]);
    expect((await outboxFor('email.refund_issued', orderId)).map((e) => e.data)).toEqual([expect.objectContaining({ to: email, amountCents: 50_000 })]);
  });

  it('when an admin refund we made through Stripe is reported back by charge.refunded, then it is not counted twice', async () => {
    const { orderId, intentId } = await paidOrder();
    const ours = await orders.call('POST', `/api/admin/orders/${orderId}/refund`, {
      body: { amountCents: 22_000, reason: 'Goodwill' },
      headers: { 'idempotency-key': randomUUID() },
      identity: ADMIN,
    });
    expect(ours.status).toBe(201);
    // Stripe's Refunds API was asked with the intent, the amount and an idempotency key.
    const asked = stripe.requests.filter((r) => r.path === '/v1/refunds' && r.form.payment_intent === intentId);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.form).toMatchObject({ amount: '22000', 'metadata[orderId]': orderId, 'metadata[initiatedBy]': 'admin' });
    expect(asked[0]!.headers['idempotency-key']).toMatch(/^refund:admin:/);
    const [made] = stripe.refundsOf(intentId);

    const reported = signedEvent('charge.refunded', chargeRefunded(intentId, 22_000, [{ id: String(made!.id), amount: 22_000 }]));
    expect((await deliver(reported)).body.outcome).toBe('nothing-new');

    expect((await refundRows(orderId)).map((r) => r.initiated_by)).toEqual(['admin']);
    expect(await refundedCents(orderId)).toBe(22_000);
    expect(await outboxFor('payment.refunded', orderId)).toHaveLength(1);
  });

  it('when Stripe lists no refunds but its total is above ours, then the difference is recorded once', async () => {
    const { orderId, intentId } = await paidOrder();
    const first = signedEvent('charge.refunded', chargeRefunded(intentId, 222_000, null));
    expect((await deliver(first)).body.outcome).toBe('recorded');
    const sameTotalAgain = signedEvent('charge.refunded', chargeRefunded(intentId, 222_000, null));
    expect((await deliver(sameTotalAgain)).body.outcome).toBe('nothing-new');

    expect((await refundRows(orderId)).map((r) => [r.amount_cents, r.initiated_by])).toEqual([[222_000, 'provider']]);
    expect(await refundedCents(orderId)).toBe(222_000);
    // Refunded in full at Stripe: nothing is left for an admin to refund.
    const more = await orders.call('POST', `/api/admin/orders/${orderId}/refund`, { body: { reason: 'again' }, headers: { 'idempotency-key': randomUUID() }, identity: ADMIN });
    expect(more.status).toBe(409);
    expect(more.body.error).toBe('This order has already been refunded in full');
  });

  it('when Stripe is down for our refund, then the answer is a 502 and nothing is recorded as refunded', async () => {
    const { orderId } = await paidOrder();
    stripe.failNext(3, 500);
    const answer = await orders.call('POST', `/api/admin/orders/${orderId}/refund`, { body: { reason: 'Goodwill' }, headers: { 'idempotency-key': randomUUID() }, identity: ADMIN });
    expect(answer.status).toBe(502);
    expect(answer.body.error).toBe('The payment service is unavailable, please try again shortly');
    expect(await refundRows(orderId)).toEqual([]);
    expect(await refundedCents(orderId)).toBe(0);
    expect(await outboxFor('payment.refunded', orderId)).toHaveLength(0);
  });
});

describe('refunds asked for by an admin', () => {
  const ask = (orderId: string, body: unknown, identity: { userId: string; username: string; isAdmin: boolean } = ADMIN) =>
    orders.call('POST', `/api/admin/orders/${orderId}/refund`, { body, headers: { 'idempotency-key': randomUUID() }, identity });

  it('when a customer asks to refund an order, then 403 and nothing is refunded', async () => {
    const { orderId } = await paidOrder();
    const answer = await ask(orderId, { reason: 'Please' }, { userId: randomUUID(), username: 'agent_x', isAdmin: false });
    expect(answer.status).toBe(403);
    expect(await refundRows(orderId)).toEqual([]);
  });

  it('when the same refund request arrives twice at once (a double click), then it refunds once and both answers say so', async () => {
    const { orderId, intentId } = await paidOrder();
    const key = randomUUID();
    const send = () => orders.call('POST', `/api/admin/orders/${orderId}/refund`, { body: { amountCents: 10_000, reason: 'Goodwill' }, headers: { 'idempotency-key': key }, identity: ADMIN });
    const answers = await Promise.all([send(), send()]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
    for (const a of answers) expect(a.body).toEqual({ orderId, refundedCents: 10_000, refundedTotalCents: 10_000 });
    expect(await refundRows(orderId)).toHaveLength(1);
    expect(stripe.refundsOf(intentId)).toHaveLength(1);
  });

  it('when two admins refund most of an order at the same moment, then one succeeds and the other is refused: never more than was paid', async () => {
    const { orderId, intentId } = await paidOrder();
    const answers = await Promise.all([ask(orderId, { amountCents: 150_000, reason: 'First' }), ask(orderId, { amountCents: 150_000, reason: 'Second' })]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.status === 409)!.body.error).toBe('At most $720.00 is left to refund on this order');
    expect(await refundedCents(orderId)).toBe(150_000);
    expect(stripe.refundsOf(intentId)).toHaveLength(1);
  });
});

describe('charge.dispute.created', () => {
  function dispute(intentId: string, id = `dp_${randomBytes(10).toString('hex')}`) {
    return {
      id,
      object: 'dispute',
      amount: 222_000,
      currency: 'usd',
      charge: `ch_${intentId.slice(3)}`,
      payment_intent: intentId,
      reason: 'product_not_received',
      status: 'needs_response',
      evidence_details: { due_by: Math.floor(Date.UTC(2026, 11, 8, 23, 59, 59) / 1000), has_evidence: false, past_due: false, submission_count: 0 },
    };
  }

  it('when a buyer disputes a payment and Stripe delivers it twice, then the order is flagged once and the team e-mailed once, with no audit entry', async () => {
    const { orderId, intentId, email } = await paidOrder();
    const opened = dispute(intentId);
    const first = signedEvent('charge.dispute.created', opened);

    expect((await deliver(first)).body).toEqual({ received: true, outcome: 'recorded' });
    expect((await deliver(first)).body.outcome).toBe('duplicate-event');
    expect((await deliver(signedEvent('charge.dispute.created', opened))).body.outcome).toBe('nothing-new');

    const { rows } = await orders.pool.query('SELECT dispute_id, dispute_reason, disputed_cents, disputed_at IS NOT NULL AS flagged, status, refunded_cents FROM package_orders WHERE id = $1', [orderId]);
    expect(rows[0]).toEqual({ dispute_id: opened.id, dispute_reason: 'product_not_received', disputed_cents: 222_000, flagged: true, status: 'paid', refunded_cents: 0 });
    const notices = await outboxFor('email.dispute_opened', orderId);
    expect(notices.map((e) => e.data)).toEqual([
      expect.objectContaining({ disputeId: opened.id, disputedCents: 222_000, reason: 'product_not_received', buyerEmail: email, evidenceDueBy: '2026-12-08T23:59:59.000Z' }),
    ]);
    expect((await orders.outbox('audit.record')).filter((e) => e.data.subjectId === orderId)).toEqual([]);
  });

  it('when a dispute names an intent this service never made, then it is acknowledged and nothing changes', async () => {
    const answer = await deliver(signedEvent('charge.dispute.created', dispute(`pi_${randomBytes(12).toString('hex')}`)));
    expect(answer.status).toBe(200);
    expect(answer.body.outcome).toBe('unknown-intent');
  });
});
