import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, createPool, parseConfig, type Pool } from '@warmline/platform';
import { startTestSystem, type TestSystem } from '@warmline/platform/testing/system';
import { ordersEnv } from '@warmline/orders/config';
import { ORDERS_SCHEMA, startOrders } from '@warmline/orders/service';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/**
 * The public checkouts reach the orders service only through the gateway: an anonymous
 * visitor buys a package with no session, and the gateway forwards the request (and the
 * server's refusal of a price the browser made up) untouched. The real orders service runs
 * in-process with the sandbox provider, on the same database and broker namespace.
 */

let system: TestSystem;
let gw: GatewayFixture;
let ordersPool: Pool;

beforeAll(async () => {
  system = await startTestSystem({ databasePrefix: 'wl_gateway_checkout' });
  const orders = await startOrders(
    parseConfig(ordersEnv, { ...system.env, ORDERS_PORT: '0', PAYMENT_PROVIDER: 'sandbox' }),
    createLogger('orders', 'silent'),
  );
  system.stops.push('orders', orders.stop);
  gw = await startGatewayFixture({ db: system.db, env: { ORDERS_URL: orders.url } });
  ordersPool = createPool(system.db.url, ORDERS_SCHEMA);
  system.stops.push('orders pool', () => ordersPool.end());
});

afterAll(async () => {
  await gw?.cleanup();
  await system?.cleanup();
});

describe('package checkout through the gateway', () => {
  it('when an anonymous visitor asks for a premium payment intent at the right amount, then the order is created and a client secret returned', async () => {
    const visitor = gw.browser();
    const idempotencyKey = randomUUID();

    const answer = await visitor.post('/api/create-payment-intent', { amount: 2220, callCount: 60, tier: 'premium' }, {
      headers: { 'Idempotency-Key': idempotencyKey },
    });

    expect(answer.status).toBe(201);
    expect(answer.json).toMatchObject({
      clientSecret: expect.stringMatching(/_secret_/),
      amount: 2220,
      amountCents: 222000,
      currency: 'usd',
      paymentProvider: 'sandbox',
    });
    expect(visitor.sessionCookie).toBeUndefined();
    const { rows } = await ordersPool.query(
      'SELECT tier, count, unit_price_cents, amount_cents, status, buyer_user_id FROM package_orders WHERE id = $1',
      [answer.json.orderId],
    );
    expect(rows).toEqual([
      { tier: 'premium', count: 60, unit_price_cents: 3700, amount_cents: 222000, status: 'pending', buyer_user_id: null },
    ]);

    const again = await visitor.post('/api/create-payment-intent', { amount: 2220, callCount: 60, tier: 'premium' }, {
      headers: { 'Idempotency-Key': idempotencyKey },
    });
    expect(again.status).toBe(200);
    expect(again.json.orderId).toBe(answer.json.orderId);
  });

  it('when the amount was tampered with in the browser, then the gateway passes on the 400 saying the expected price and nothing is recorded', async () => {
    const before = await ordersPool.query('SELECT count(*)::int AS n FROM package_orders');

    const answer = await gw.browser().post('/api/create-payment-intent', { amount: 60, callCount: 60, tier: 'premium' });

    expect(answer.status).toBe(400);
    expect(answer.json.error).toEqual(expect.any(String));
    expect(JSON.stringify(answer.json)).toContain('Amount does not match the price: expected $2,220.00');
    const after = await ordersPool.query('SELECT count(*)::int AS n FROM package_orders');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('when the page price is sent instead of the checkout price, then it is refused too', async () => {
    // /premium-pricing advertises $35; the premium checkout charges $37.
    const answer = await gw.browser().post('/api/create-payment-intent', { amount: 60 * 35, callCount: 60, tier: 'premium' });

    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.json)).toContain('expected $2,220.00');
  });

  it('when the SPA asks which card form to show, then the orders service answers through the gateway', async () => {
    const answer = await gw.browser().get('/api/config');

    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ paymentProvider: 'sandbox' });
  });

  it('when the visitor pays with the sandbox test card through the gateway, then the order is paid', async () => {
    const visitor = gw.browser();
    const intent = await visitor.post('/api/create-payment-intent', { amount: 1600, callCount: 50, tier: 'high-volume' });
    expect(intent.status).toBe(201);

    const paid = await visitor.post('/api/payments/sandbox/confirm', {
      clientSecret: intent.json.clientSecret,
      cardNumber: '4242 4242 4242 4242',
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 2,
      cvc: '123',
      billing: { name: 'Pat Buyer', email: 'pat@example.com' },
    });

    expect(paid.status).toBe(200);
    const status = await visitor.get(`/api/orders/${intent.json.orderId}/status`);
    expect(status.json).toMatchObject({ status: 'paid', tier: 'high-volume', count: 50, amountCents: 160000 });
  });
});
