import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AllOrdersAnswer, RevenueAnswer } from '@warmline/contracts';
import { businessDate } from '@warmline/contracts';
import type { Browser } from '../../gateway/test/gateway-fixture';
import { testCard } from './orders-fixture';
import { startTransferSystem, XHR, type TransferSystem } from './transfer-system';

/**
 * All Orders and revenue per day (issue 12), through the real gateway and orders service: every
 * product in one list, filters, paging, and totals that reconcile to the cent with the paid
 * orders less what was refunded.
 */

let system: TransferSystem;
let admin: Browser;
const ids: Record<string, string> = {};

beforeAll(async () => {
  system = await startTransferSystem();
  admin = await system.adminBrowser();
  const buyer = system.browser();
  const pay = async (body: Record<string, unknown>, billing?: Record<string, string>) => {
    const created = await buyer.post('/api/create-payment-intent', body, XHR);
    expect(created.status).toBe(201);
    if (billing) expect((await buyer.post('/api/payments/sandbox/confirm', testCard(String(created.json.clientSecret), { billing }), XHR)).status).toBe(200);
    return String(created.json.orderId);
  };
  ids.package = await pay({ amount: 2220, callCount: 60, tier: 'premium' }, { name: 'Pat Package', email: 'pat@example.com' });
  ids.secondBrand = await pay({ amount: 370, packageType: 'RingCloud Live Transfers', calls: 10, callCount: 1, tier: 'ringcloud' }, { name: 'Rae Ring', email: 'rae@example.com' });
  ids.unpaid = await pay({ amount: 2220, callCount: 60, tier: 'premium' });
  const agent = await system.createAgent({ firstName: 'Tess', lastName: 'Transfer' });
  const browser = system.browser();
  await browser.login(agent.username, agent.password);
  const transfer = await browser.post(
    '/api/call-transfer-order',
    { totalTransfers: 10, callsPerDay: 5, transferHours: '9am-5pm CST', transferPhone: '(405) 555-0199', workingStates: ['TX'], leadType: 'Live Transfers', price: 350 },
    XHR,
  );
  await browser.post('/api/payments/sandbox/confirm', testCard(String(transfer.json.clientSecret)), XHR);
  ids.transfer = String(transfer.json.orderId);
  // $50.00 of the package given back.
  const refund = await admin.post(`/api/admin/orders/${ids.package}/refund`, { amountCents: 5_000, reason: 'Goodwill' }, { headers: { ...XHR.headers, 'idempotency-key': randomUUID() } });
  expect(refund.status).toBe(201);
});

afterAll(async () => {
  await system?.cleanup();
});

async function allOrders(query = ''): Promise<AllOrdersAnswer> {
  const answer = await admin.get(`/api/admin/orders${query}`);
  expect(answer.status).toBe(200);
  return answer.json as AllOrdersAnswer;
}

describe('All Orders', () => {
  it('when an admin lists every order, then each product is there with its buyer, status and amounts, and the totals reconcile to the cent', async () => {
    const { orders, total, totals } = await allOrders();
    expect(total).toBe(4);
    const byId = new Map(orders.map((o) => [o.id, o]));
    expect(byId.get(ids.package!)).toMatchObject({ product: 'package', buyerName: 'Pat Package', buyerEmail: 'pat@example.com', amountCents: 222_000, refundedCents: 5_000, status: 'partially-refunded' });
    expect(byId.get(ids.secondBrand!)).toMatchObject({ product: 'second-brand', buyerEmail: 'rae@example.com', amountCents: 37_000, status: 'paid' });
    expect(byId.get(ids.transfer!)).toMatchObject({ product: 'transfer', buyerName: 'Tess Transfer', amountCents: 35_000, status: 'paid' });
    expect(byId.get(ids.unpaid!)).toMatchObject({ product: 'package', status: 'pending', paidAt: null });

    const { rows } = await system.ordersPool.query<{ paid: string; refunded: string }>(
      `SELECT sum(amount_cents) FILTER (WHERE status = 'paid') AS paid, sum(refunded_cents) AS refunded FROM package_orders`,
    );
    expect(totals).toEqual({ count: 4, paidCents: Number(rows[0]!.paid), refundedCents: Number(rows[0]!.refunded) });
    expect(totals.paidCents - totals.refundedCents).toBe(222_000 + 37_000 + 35_000 - 5_000);
  });

  it('when filtered by product, status and dates, then only those come, with totals over the filter', async () => {
    expect((await allOrders('?product=second-brand')).orders.map((o) => o.id)).toEqual([ids.secondBrand]);
    const pending = await allOrders('?status=pending');
    expect(pending.orders.map((o) => o.id)).toEqual([ids.unpaid]);
    expect(pending.totals).toEqual({ count: 1, paidCents: 0, refundedCents: 0 });
    expect((await allOrders('?status=partially-refunded')).totals).toEqual({ count: 1, paidCents: 222_000, refundedCents: 5_000 });
    const today = businessDate(new Date(), 'America/Chicago');
    expect((await allOrders(`?from=${today}&to=${today}`)).total).toBe(4);
    expect((await allOrders('?from=2001-01-01&to=2001-01-31')).orders).toEqual([]);
    expect((await allOrders('?page=2')).orders).toEqual([]);
  });

  it('when the customer search opens one buyer (q = their e-mail or part of a name), then only their orders come, matched whatever the case, and a % typed is taken literally', async () => {
    const pat = await allOrders('?q=PAT%40example.com');
    expect(pat.orders.map((o) => o.id)).toEqual([ids.package]);
    expect(pat.totals).toEqual({ count: 1, paidCents: 222_000, refundedCents: 5_000 });
    expect((await allOrders('?q=tess')).orders.map((o) => o.id)).toEqual([ids.transfer]);
    expect((await allOrders('?q=%25')).orders).toEqual([]);
    expect((await allOrders('?q=nobody%40example.com')).total).toBe(0);
  });

  it('when a buyer has disputed a payment, then All Orders flags that order and no other', async () => {
    await system.ordersPool.query(`UPDATE package_orders SET disputed_at = now(), dispute_id = 'dp_test', dispute_reason = 'fraudulent', disputed_cents = 37000 WHERE id = $1`, [ids.secondBrand]);
    const { orders } = await allOrders();
    expect(orders.filter((o) => o.disputed).map((o) => o.id)).toEqual([ids.secondBrand]);
  });

  it('when a filter is not one the list knows, then the answer is 400 naming it', async () => {
    const cases: Array<[string, RegExp]> = [
      ['?product=hats', /product must be one of package, second-brand, aged-leads, transfer/],
      ['?status=lost', /status must be one of/],
      ['?from=2026-02-30', /from must be a real date/],
      ['?to=yesterday', /to must be a date like/],
      ['?from=2026-02-02&to=2026-02-01', /from must not be after to/],
      ['?page=0', /page must be a whole number/],
      [`?q=${'x'.repeat(300)}`, /q must be at most 254 characters/],
    ];
    for (const [query, message] of cases) {
      const answer = await admin.get(`/api/admin/orders${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.json.error, query).toMatch(message);
    }
  });

  it('when revenue per day is asked for 30 or 90 days, then every day is there, today holds the payments less the refund, by product', async () => {
    const thirty = (await admin.get('/api/admin/revenue?days=30')).json as RevenueAnswer;
    expect(thirty.days).toHaveLength(30);
    const today = businessDate(new Date(), 'America/Chicago');
    expect(thirty.to).toBe(today);
    expect(thirty.days.at(-1)).toEqual({ date: today, packageCents: 217_000, secondBrandCents: 37_000, agedLeadsCents: 0, transferCents: 35_000 });
    expect(thirty.days.slice(0, -1).every((d) => d.packageCents + d.secondBrandCents + d.agedLeadsCents + d.transferCents === 0)).toBe(true);
    expect(((await admin.get('/api/admin/revenue?days=90')).json as RevenueAnswer).days).toHaveLength(90);
    expect((await admin.get('/api/admin/revenue?days=7')).json.error).toBe('days must be 30 or 90');
  });
});
