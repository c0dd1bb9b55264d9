import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from '../../gateway/test/gateway-fixture';
import { testCard } from './orders-fixture';
import { startTransferSystem, XHR, type TransferSystem } from './transfer-system';

/**
 * The admin cards' order numbers and the customer search's paying customers (issue 12), through the real gateway and orders service:
 * revenue this month of every product, by the month of payment in the business's time zone
 * (America/Chicago), and transfer orders paid but not yet delivered.
 */

let system: TransferSystem;
let admin: Browser;

beforeAll(async () => {
  system = await startTransferSystem();
  admin = await system.adminBrowser();
});

afterAll(async () => {
  await system?.cleanup();
});

async function stats() {
  const answer = await admin.get('/api/admin/stats');
  expect(answer.status).toBe(200);
  return answer.json as { revenueThisMonthCents: number; openTransferOrders: number };
}

describe('the admin cards', () => {
  it('when an agent pays a transfer order, then revenue this month grows by its total and it counts as open until delivered', async () => {
    const before = await stats();
    expect(before).toMatchObject({ revenueThisMonthCents: 0, openTransferOrders: 0 });

    const agent = await system.createAgent();
    const browser = system.browser();
    await browser.login(agent.username, agent.password);
    const order = await browser.post(
      '/api/call-transfer-order',
      { totalTransfers: 10, callsPerDay: 5, transferHours: '9am-5pm CST', transferPhone: '(405) 555-0199', workingStates: ['TX'], leadType: 'Live Transfers', price: 350 },
      XHR,
    );
    expect(order.status).toBe(201);
    expect((await stats()).openTransferOrders).toBe(0); // ordered, not paid
    expect((await browser.post('/api/payments/sandbox/confirm', testCard(String(order.json.clientSecret)), XHR)).status).toBe(200);

    expect(await stats()).toEqual(expect.objectContaining({ revenueThisMonthCents: 35_000, openTransferOrders: 1 }));

    await system.ordersPool.query(`UPDATE transfer_orders SET status = 'completed' WHERE id = $1`, [order.json.orderId]);
    expect((await stats()).openTransferOrders).toBe(0);
  });

  it('when a payment was made just before midnight of the 1st in Chicago, then it counts in the month before, though in UTC it is already the new month', async () => {
    const { revenueThisMonthCents: before } = await stats();
    const { rows } = await system.ordersPool.query<{ id: string }>(`SELECT id FROM package_orders WHERE status = 'paid' LIMIT 1`);
    const id = rows[0]!.id;
    await system.ordersPool.query(
      `UPDATE package_orders SET paid_at = (date_trunc('month', now() AT TIME ZONE 'America/Chicago') AT TIME ZONE 'America/Chicago') - interval '30 minutes' WHERE id = $1`,
      [id],
    );
    const { rows: utc } = await system.ordersPool.query<{ same_month_in_utc: boolean }>(
      `SELECT date_trunc('month', paid_at AT TIME ZONE 'UTC') = date_trunc('month', now() AT TIME ZONE 'UTC') AS same_month_in_utc FROM package_orders WHERE id = $1`,
      [id],
    );
    expect((await stats()).revenueThisMonthCents).toBe(before - 35_000);
    // Half an hour before Chicago's month began is already the new month in UTC (Chicago is 5-6 h behind).
    expect(utc[0]!.same_month_in_utc).toBe(true);
  });
});

describe('the customer search, paying customers', () => {
  it('when a visitor paid a package checkout without an account, then an admin finds them by e-mail or phone through the gateway', async () => {
    const anonymous = system.browser();
    const created = await anonymous.post('/api/create-payment-intent', { amount: 2220, callCount: 60, tier: 'premium' }, XHR);
    expect(created.status).toBe(201);
    const paid = await anonymous.post(
      '/api/payments/sandbox/confirm',
      testCard(String(created.json.clientSecret), { billing: { name: 'Quinn Walkin', email: 'quinn.walkin@example.com', phone: '(555) 918-2736' } }),
      XHR,
    );
    expect(paid.status).toBe(200);

    for (const q of ['QUINN.WALKIN@example.com', '5559182736', 'walkin']) {
      const answer = await admin.get(`/api/search-customers?q=${encodeURIComponent(q)}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-search-partial')).toBeNull();
      expect(answer.json).toContainEqual(expect.objectContaining({ type: 'customer', name: 'Quinn Walkin', email: 'quinn.walkin@example.com', exact: q !== 'walkin' }));
    }
  });
});
