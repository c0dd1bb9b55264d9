import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayFixture, type GatewayFixture } from '../../gateway/test/gateway-fixture';
import { startCatalogFixture, type CatalogFixture } from './catalog-fixture';

/**
 * The market as the browser reaches it: through the gateway, which forwards the catalog's
 * routes with the logged-in user's signed identity and has no route to the orders service's
 * internal lead-order endpoint.
 */

let fx: CatalogFixture;
let gw: GatewayFixture;

beforeAll(async () => {
  fx = await startCatalogFixture();
  gw = await startGatewayFixture({ env: { CATALOG_URL: fx.catalog.url, ORDERS_URL: fx.orders.url } });
});

afterAll(async () => {
  await gw?.cleanup();
  await fx?.cleanup();
});

describe('the aged-lead market through the gateway', () => {
  it('when a logged-in agent lists, buys and downloads, then the gateway forwards each call as that agent', async () => {
    const { user, password } = await gw.createAgent();
    const browser = gw.browser();
    await browser.login(user.username, password);
    const [lead] = await fx.addLeads([{ ageDays: 33 }]);

    const list = await browser.get('/api/aged-leads?page=1&filter=TX');
    const bought = await browser.post('/api/bulk-purchase-leads', { leadIds: [lead!.id] }, { headers: { 'x-requested-with': 'XMLHttpRequest' } });
    const mine = await browser.get('/api/my-leads');
    const csv = await browser.get('/api/my-leads/export.csv');

    expect(list.status).toBe(200);
    expect((list.json.leads as Array<{ id: string }>).map((l) => l.id)).toContain(lead!.id);
    expect(bought.status).toBe(201);
    const { rows } = await fx.pool.query('SELECT buyer_user_id FROM lead_reservations WHERE order_id = $1', [bought.json.orderId]);
    expect(rows[0]?.buyer_user_id).toBe(user.id);
    expect(mine.status).toBe(200);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toContain('attachment');
  });

  it('when nobody is logged in, then the market answers 401', async () => {
    const visitor = gw.browser();

    expect((await visitor.get('/api/aged-leads')).status).toBe(401);
    expect((await visitor.get('/api/my-leads')).status).toBe(401);
  });

  it("when a browser tries the orders service's internal lead-order endpoint, then the gateway has no such route", async () => {
    const { user, password } = await gw.createAgent();
    const browser = gw.browser();
    await browser.login(user.username, password);

    const answer = await browser.post(
      '/api/internal/lead-orders',
      { orderId: randomUUID(), lines: [{ ageRange: '30-60', count: 1, unitPriceCents: 250 }], amountCents: 250 },
      { headers: { 'x-requested-with': 'XMLHttpRequest' } },
    );

    expect(answer.status).toBe(404);
    const { rows } = await fx.ordersPool.query("SELECT count(*)::int AS n FROM package_orders WHERE kind = 'lead'");
    expect(rows[0]?.n).toBe(1);
  });
});
