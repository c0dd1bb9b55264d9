import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_HEADER, signIdentity } from '@warmline/platform/http/identity';
import { privateKeyOf } from '@warmline/platform/keys';
import { signTestIdentity, TEST_KEYS } from '@warmline/platform/testing/index';
import { customer, startOrdersFixture, testCard, type OrdersFixture } from './orders-fixture';

/** POST /api/internal/lead-orders: the catalog asks for the payment of reserved aged leads. */

let orders: OrdersFixture;

beforeAll(async () => {
  orders = await startOrdersFixture();
});

afterAll(async () => {
  await orders?.cleanup();
});

const buyer = customer('lead_buyer');

/** 3 leads aged 30-60 ($2.50) and 2 aged 90-180 ($1.50): $10.50. */
function leadOrder(overrides: Record<string, unknown> = {}) {
  return {
    orderId: randomUUID(),
    lines: [
      { ageRange: '30-60', count: 3, unitPriceCents: 250 },
      { ageRange: '90-180', count: 2, unitPriceCents: 150 },
    ],
    amountCents: 1050,
    ...overrides,
  };
}

describe('lead orders for the catalog', () => {
  it('when the catalog asks for a lead order, then it is recorded as a pending lead order with a payment intent and order.created', async () => {
    const body = leadOrder();

    const answer = await orders.call('POST', '/api/internal/lead-orders', { body, identity: buyer, caller: 'catalog' });

    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ orderId: body.orderId, amountCents: 1050, leadCount: 5, paymentProvider: 'sandbox' });
    expect(String(answer.body.clientSecret)).toMatch(/^pi_sandbox_\w+_secret_\w+$/);
    const { rows } = await orders.pool.query(
      'SELECT kind, tier, count, unit_price_cents, amount_cents, status, buyer_user_id, description FROM package_orders WHERE id = $1',
      [body.orderId],
    );
    expect(rows[0]).toMatchObject({
      kind: 'lead',
      tier: 'aged-leads',
      count: 5,
      unit_price_cents: 0,
      amount_cents: 1050,
      status: 'pending',
      buyer_user_id: buyer.userId,
    });
    expect(rows[0].description).toBe('Aged leads: 5 leads — 3 × $2.50 (30-60 days), 2 × $1.50 (90-180 days)');
    const lines = await orders.pool.query('SELECT age_range, lead_count, unit_price_cents FROM lead_order_lines WHERE order_id = $1 ORDER BY age_range', [
      body.orderId,
    ]);
    expect(lines.rows).toEqual([
      { age_range: '30-60', lead_count: 3, unit_price_cents: 250 },
      { age_range: '90-180', lead_count: 2, unit_price_cents: 150 },
    ]);
    const created = (await orders.outbox('order.created')).filter((e) => e.data.orderId === body.orderId);
    expect(created).toHaveLength(1);
    expect(created[0]?.data).toMatchObject({ kind: 'lead', tier: 'aged-leads', count: 5, amountCents: 1050, buyerUserId: buyer.userId });
  });

  it('when the same order is asked for again, then the same order and client secret come back', async () => {
    const body = leadOrder();
    const first = await orders.call('POST', '/api/internal/lead-orders', { body, identity: buyer, caller: 'catalog' });

    const again = await orders.call('POST', '/api/internal/lead-orders', { body, identity: buyer, caller: 'catalog' });

    expect(again.status).toBe(200);
    expect(again.body.clientSecret).toBe(first.body.clientSecret);
    expect((await orders.outbox('order.created')).filter((e) => e.data.orderId === body.orderId)).toHaveLength(1);
  });

  it('when another buyer reuses the order id, then it is refused with 409', async () => {
    const body = leadOrder();
    await orders.call('POST', '/api/internal/lead-orders', { body, identity: buyer, caller: 'catalog' });

    const answer = await orders.call('POST', '/api/internal/lead-orders', { body, identity: customer('other'), caller: 'catalog' });

    expect(answer.status).toBe(409);
  });

  it('when a line is priced otherwise than the pricing table, or the total differs, then 400 and nothing is recorded', async () => {
    const cheap = leadOrder({ lines: [{ ageRange: '30-60', count: 4, unitPriceCents: 100 }], amountCents: 400 });
    const wrongTotal = leadOrder({ amountCents: 999 });

    const a = await orders.call('POST', '/api/internal/lead-orders', { body: cheap, identity: buyer, caller: 'catalog' });
    const b = await orders.call('POST', '/api/internal/lead-orders', { body: wrongTotal, identity: buyer, caller: 'catalog' });

    expect(a.status).toBe(400);
    expect(a.body.error).toBe('Leads aged 30-60 days cost $2.50 each, not $1.00');
    expect(b.status).toBe(400);
    expect(b.body.error).toBe('Amount does not match the price: expected $10.50');
    const { rows } = await orders.pool.query('SELECT id FROM package_orders WHERE id = ANY($1)', [[cheap.orderId, wrongTotal.orderId]]);
    expect(rows).toHaveLength(0);
  });

  it('when the catalog names no buyer, or nothing is signed at all, then 401', async () => {
    const noBuyer = await orders.call('POST', '/api/internal/lead-orders', { body: leadOrder(), identity: null, caller: 'catalog' });
    const unsigned = await orders.call('POST', '/api/internal/lead-orders', { body: leadOrder(), identity: null });

    expect(noBuyer.status).toBe(401);
    expect(unsigned.status).toBe(401);
  });
});

describe('who may ask (docs/adr/0042)', () => {
  it('when another service (transfers) calls the route only the catalog may call, then 403 and nothing is recorded', async () => {
    const body = leadOrder();
    const answer = await orders.call('POST', '/api/internal/lead-orders', { body, identity: buyer, caller: 'transfers' });

    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe('This route does not accept calls from the transfers service');
    const { rows } = await orders.pool.query('SELECT id FROM package_orders WHERE id = $1', [body.orderId]);
    expect(rows).toHaveLength(0);
  });

  it("when a user's identity signed by the gateway, even an admin's, reaches the catalog's route, then 403: only the catalog's own credential is accepted", async () => {
    const admin = { ...customer('boss'), isAdmin: true };
    const answer = await orders.call('POST', '/api/internal/lead-orders', { body: leadOrder(), identity: admin });

    expect(answer.status).toBe(403);
  });

  it('when an identity signed for the catalog reaches orders, then orders refuses it with 401', async () => {
    const forCatalog = signTestIdentity('catalog', buyer);
    const answer = await fetch(`${orders.url}/api/my-orders`, { headers: { [IDENTITY_HEADER]: forCatalog } });

    expect(answer.status).toBe(401);
    const forOrders = await fetch(`${orders.url}/api/my-orders`, { headers: { [IDENTITY_HEADER]: signTestIdentity('orders', buyer) } });
    expect(forOrders.status).toBe(200);
  });

  it("when the catalog signs a user identity with its own key, even an admin's, then orders refuses it: a service cannot sign an identity", async () => {
    const byCatalog = signIdentity(privateKeyOf(TEST_KEYS.CATALOG_SERVICE_KEY), 'orders', { ...buyer, isAdmin: true });
    const answer = await fetch(`${orders.url}/api/admin/orders`, { headers: { [IDENTITY_HEADER]: byCatalog } });

    expect(answer.status).toBe(401);
  });

  it('when the buyer pays with the sandbox card, then payment.succeeded says kind lead, and the buyer sees the order status', async () => {
    const body = leadOrder();
    const created = await orders.call('POST', '/api/internal/lead-orders', { body, identity: buyer, caller: 'catalog' });

    const paid = await orders.call('POST', '/api/payments/sandbox/confirm', { body: testCard(String(created.body.clientSecret)), identity: buyer });
    const status = await orders.call('GET', `/api/orders/${body.orderId}/status`, { identity: buyer });
    const stranger = await orders.call('GET', `/api/orders/${body.orderId}/status`, { identity: customer('stranger') });

    expect(paid.status).toBe(200);
    const succeeded = (await orders.outbox('payment.succeeded')).filter((e) => e.data.orderId === body.orderId);
    expect(succeeded).toHaveLength(1);
    expect(succeeded[0]?.data).toMatchObject({ kind: 'lead', amountCents: 1050, buyerUserId: buyer.userId });
    expect(status.body).toMatchObject({ kind: 'lead', status: 'paid', amountCents: 1050 });
    expect(stranger.status).toBe(404);
  });
});
