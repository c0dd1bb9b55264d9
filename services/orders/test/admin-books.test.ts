import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AllOrdersAnswer, MyOrder, RevenueAnswer } from '@warmline/contracts';
import { createLogger, type Pool } from '@warmline/platform';
import { waitFor } from '@warmline/platform/testing/index';
import type { Browser } from '../../gateway/test/gateway-fixture';
import { orderStats } from '../src/db/read-models/order-stats';
import { sandboxProvider } from '../src/domain/payment-provider';
import { cancelStaleTransferOrders } from '../src/domain/transfer-status';
import { startTransferSystem, XHR, type Agent, type TransferSystem } from './transfer-system';

/**
 * The back office's books at their edges (issue 12), through the real gateway and orders
 * service: All Orders paged 50 at a time with totals over the whole filter, inclusive dates and
 * months on the business's calendar (America/Chicago: 2026-11-01T03:00Z is still October 31),
 * revenue per day net of refunds, admins only, and unpaid transfer orders cancelled after 24
 * hours with the agent told.
 */

const CHICAGO = 'America/Chicago';
let system: TransferSystem;
let admin: Browser;

beforeAll(async () => {
  system = await startTransferSystem();
  admin = await system.adminBrowser();
});

afterAll(async () => {
  await system?.cleanup();
});

type Product = 'package' | 'second-brand' | 'aged-leads' | 'transfer';

/** A payment row as each product writes it, at a chosen moment (created and, when paid, paid then). */
async function insertOrder(
  pool: Pool,
  o: { product: Product; amountCents: number; at: string; paid: boolean; refundedCents?: number; name?: string },
): Promise<string> {
  const id = randomUUID();
  const shape = {
    package: { kind: 'package', tier: 'premium', leadType: null },
    'second-brand': { kind: 'package', tier: 'ringcloud', leadType: 'Live Transfers' },
    'aged-leads': { kind: 'lead', tier: 'aged-leads', leadType: null },
    transfer: { kind: 'transfer', tier: 'live-transfers', leadType: 'Live Transfers' },
  }[o.product];
  await pool.query(
    `INSERT INTO package_orders (id, kind, tier, lead_type, count, unit_price_cents, amount_cents, description, billing_name, billing_email,
       provider, status, created_at, paid_at, refunded_cents)
     VALUES ($1, $2, $3, $4, 1, $5, $5, $6, $7, 'books@example.com', 'sandbox', $8, $9::timestamptz, CASE WHEN $8 = 'paid' THEN $9::timestamptz END, $10)`,
    [id, shape.kind, shape.tier, shape.leadType, o.amountCents, `${o.product} order`, o.name ?? 'Book Keeper', o.paid ? 'paid' : 'pending', o.at, o.refundedCents ?? 0],
  );
  if (o.refundedCents) {
    await pool.query(
      `INSERT INTO refunds (order_id, amount_cents, reason, initiated_by, provider_refund_id, created_at) VALUES ($1, $2, 'Test refund', 'admin', $3, $4)`,
      [id, o.refundedCents, `re_test_${id}`, o.at],
    );
  }
  return id;
}

async function allOrders(query: string): Promise<AllOrdersAnswer> {
  const answer = await admin.get(`/api/admin/orders${query}`);
  expect(answer.status, query).toBe(200);
  return answer.json as AllOrdersAnswer;
}

describe('All Orders at its edges', () => {
  it('when a filter holds 53 orders, then page 1 has the 50 newest, page 2 the other 3, and both carry the same totals: paid less refunded to the cent', async () => {
    const inserted: Array<{ id: string; at: string; amountCents: number; paid: boolean; refundedCents: number }> = [];
    for (let i = 0; i < 53; i += 1) {
      const at = new Date(Date.UTC(2025, 2, 10, 12, i)).toISOString(); // March 2025, a minute apart
      const paid = i % 4 !== 0;
      const refundedCents = paid && i % 5 === 0 ? 1_234 : 0;
      const amountCents = 3_700 + i * 101;
      const id = await insertOrder(system.ordersPool, { product: i % 2 ? 'package' : 'second-brand', amountCents, at, paid, refundedCents });
      inserted.push({ id, at, amountCents, paid, refundedCents });
    }

    const first = await allOrders('?from=2025-03-01&to=2025-03-31');
    const second = await allOrders('?from=2025-03-01&to=2025-03-31&page=2');

    const newestFirst = [...inserted].sort((a, b) => b.at.localeCompare(a.at)).map((o) => o.id);
    expect(first.orders.map((o) => o.id)).toEqual(newestFirst.slice(0, 50));
    expect(second.orders.map((o) => o.id)).toEqual(newestFirst.slice(50));
    const paidCents = inserted.filter((o) => o.paid).reduce((sum, o) => sum + o.amountCents, 0);
    const refundedCents = inserted.reduce((sum, o) => sum + o.refundedCents, 0);
    expect(refundedCents).toBeGreaterThan(0);
    for (const page of [first, second]) {
      expect(page.total).toBe(53);
      expect(page.totals).toEqual({ count: 53, paidCents, refundedCents });
    }
    // The page's rows add up to what the totals say, once every page is read.
    const rows = [...first.orders, ...second.orders];
    expect(rows.filter((o) => o.paidAt !== null).reduce((s, o) => s + o.amountCents, 0)).toBe(paidCents);
    expect(rows.reduce((s, o) => s + o.refundedCents, 0)).toBe(refundedCents);
    expect((await allOrders('?from=2025-03-01&to=2025-03-31&status=pending')).totals).toEqual({ count: 14, paidCents: 0, refundedCents: 0 });
  });

  it('when an aged-lead order was paid at 2026-11-01T03:00Z, then it is an order of October 31 on the business calendar, not November 1', async () => {
    const id = await insertOrder(system.ordersPool, { product: 'aged-leads', amountCents: 1_250, at: '2026-11-01T03:00:00Z', paid: true, name: 'Lee Leads' });

    const october = await allOrders('?product=aged-leads&from=2026-10-31&to=2026-10-31');
    expect(october.orders).toEqual([
      expect.objectContaining({ id, product: 'aged-leads', buyerName: 'Lee Leads', buyerEmail: 'books@example.com', amountCents: 1_250, refundedCents: 0, status: 'paid', paidAt: '2026-11-01T03:00:00.000Z' }),
    ]);
    expect((await allOrders('?product=aged-leads&from=2026-11-01&to=2026-11-01')).orders.map((o) => o.id)).not.toContain(id);
  });
});

describe('revenue this month (the admin card) on the business calendar', () => {
  it('when payments of every product land at 2026-11-01T03:00Z, then they count in October in Chicago and not in November, and a refund then is October’s too', async () => {
    const octoberNow = new Date('2026-10-20T12:00:00Z');
    const novemberNow = new Date('2026-11-15T12:00:00Z');
    const before = { october: await orderStats(system.ordersPool, CHICAGO, octoberNow), november: await orderStats(system.ordersPool, CHICAGO, novemberNow) };

    for (const product of ['package', 'second-brand', 'aged-leads', 'transfer'] as const) {
      await insertOrder(system.ordersPool, { product, amountCents: 10_000, at: '2026-11-01T03:00:00Z', paid: true });
    }
    await insertOrder(system.ordersPool, { product: 'package', amountCents: 5_000, at: '2026-11-01T03:00:00Z', paid: true, refundedCents: 2_000 });
    // 06:00Z is 01:00 in Chicago: November.
    await insertOrder(system.ordersPool, { product: 'package', amountCents: 7_000, at: '2026-11-01T06:00:00Z', paid: true });

    const october = await orderStats(system.ordersPool, CHICAGO, octoberNow);
    const november = await orderStats(system.ordersPool, CHICAGO, novemberNow);
    expect(october.revenueThisMonthCents - before.october.revenueThisMonthCents).toBe(4 * 10_000 + 5_000 - 2_000);
    expect(november.revenueThisMonthCents - before.november.revenueThisMonthCents).toBe(7_000);
    // In UTC all of it would be November's.
    const utc = await orderStats(system.ordersPool, 'UTC', novemberNow);
    expect(utc.revenueThisMonthCents).toBeGreaterThanOrEqual(4 * 10_000 + 3_000 + 7_000);
  });
});

describe('revenue per day', () => {
  it('when a payment was made late yesterday in Chicago and refunded in part today, then yesterday has the payment and today the refund taken off', async () => {
    const days = async () => ((await admin.get('/api/admin/revenue?days=30')).json as RevenueAnswer).days;
    const before = await days();
    const id = randomUUID();
    // 23:30 yesterday in Chicago (already today in UTC for part of the year's evenings).
    await system.ordersPool.query(
      `INSERT INTO package_orders (id, kind, tier, lead_type, count, unit_price_cents, amount_cents, description, provider, status, created_at, paid_at)
       VALUES ($1, 'package', 'ringcloud', 'Call-Backs', 1, 9900, 9900, 'RingCloud Call-Backs', 'sandbox', 'paid',
               (date_trunc('day', now() AT TIME ZONE $2) AT TIME ZONE $2) - interval '30 minutes',
               (date_trunc('day', now() AT TIME ZONE $2) AT TIME ZONE $2) - interval '30 minutes')`,
      [id, CHICAGO],
    );
    await system.ordersPool.query(`UPDATE package_orders SET refunded_cents = 900 WHERE id = $1`, [id]);
    await system.ordersPool.query(
      `INSERT INTO refunds (order_id, amount_cents, reason, initiated_by, provider_refund_id) VALUES ($1, 900, 'Part', 'admin', $2)`,
      [id, `re_test_${id}`],
    );

    const after = await days();
    expect(after).toHaveLength(30);
    expect(after.map((d) => d.date)).toEqual(before.map((d) => d.date));
    const delta = after.map((d, i) => d.secondBrandCents - before[i]!.secondBrandCents);
    expect(delta.slice(-2)).toEqual([9_900, -900]);
    expect(delta.slice(0, -2).every((c) => c === 0)).toBe(true);
    // Every day is a calendar day after the one before, none missing.
    for (let i = 1; i < after.length; i += 1) {
      expect(Date.parse(`${after[i]!.date}T00:00:00Z`) - Date.parse(`${after[i - 1]!.date}T00:00:00Z`)).toBe(86_400_000);
    }
  });
});

describe('admins only', () => {
  it('when a customer or a visitor asks for the books or tries to move or refund an order, then 403 or 401 and nothing changes', async () => {
    const agent = await system.createAgent();
    const customer = system.browser();
    await customer.login(agent.username, agent.password);
    const id = randomUUID();
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/orders'],
      ['GET', '/api/admin/revenue?days=30'],
      ['GET', '/api/admin/stats'],
      ['PATCH', `/api/transfer-orders/${id}/status`, { status: 'cancelled' }],
      ['POST', `/api/admin/orders/${id}/refund`, { reason: 'mine' }],
    ];
    for (const [method, path, body] of calls) {
      const asCustomer = await customer.request(method, path, { ...(body ? { json: body } : {}), headers: XHR.headers });
      expect(asCustomer.status, `${method} ${path}`).toBe(403);
      const asVisitor = await system.browser().request(method, path, { ...(body ? { json: body } : {}), headers: XHR.headers });
      expect(asVisitor.status, `${method} ${path}`).toBe(401);
    }
  });
});

describe('unpaid transfer orders', () => {
  async function order(agent: Agent, browser: Browser): Promise<string> {
    const placed = await browser.post(
      '/api/call-transfer-order',
      { totalTransfers: 6, callsPerDay: 3, transferHours: '9am-5pm CST', transferPhone: '(405) 555-0199', workingStates: ['TX'], leadType: 'Live Transfers', price: 210 },
      XHR,
    );
    expect(placed.status, agent.username).toBe(201);
    return String(placed.json.orderId);
  }

  it('when one was placed 25 hours ago, then the sweeper cancels it and tells the agent once; a younger one stays; the cancelled one cannot be moved again', async () => {
    const agent = await system.createAgent({ firstName: 'Una' });
    const browser = system.browser();
    await browser.login(agent.username, agent.password);
    const old = await order(agent, browser);
    const young = await order(agent, browser);
    await system.ordersPool.query(`UPDATE transfer_orders SET created_at = now() - interval '25 hours' WHERE id = $1`, [old]);
    const ctx = { pool: system.ordersPool, provider: sandboxProvider(), log: createLogger('test', 'silent') };

    expect(await cancelStaleTransferOrders(ctx)).toEqual([old]);
    expect(await cancelStaleTransferOrders(ctx)).toEqual([]);

    const told = (await system.ordersOutbox('email.transfer_order_status')).filter((e) => e.data.orderId === old);
    expect(told.map((e) => e.data)).toEqual([
      expect.objectContaining({ to: agent.email, firstName: 'Una', status: 'cancelled', totalTransfers: 6, reason: 'Not paid within 24 hours of ordering' }),
    ]);
    const mail = await waitFor('the cancellation e-mail', async () => (await system.mailTo(agent.email)).find((m) => m.includes('was cancelled')));
    expect(mail).toContain('Reason: Not paid within 24 hours of ordering');
    expect(mail).not.toContain('refunded');

    const mine = ((await browser.get('/api/my-orders')).json as { orders: MyOrder[] }).orders;
    expect(mine.find((o) => o.id === old)?.status).toBe('cancelled');
    expect(mine.find((o) => o.id === young)?.status).toBe('pending');

    const complete = await admin.patch(`/api/transfer-orders/${old}/status`, { status: 'completed' }, XHR);
    expect(complete.status).toBe(409);
    expect(complete.json.error).toBe('A cancelled order cannot be completed');
    const cancelAgain = await admin.patch(`/api/transfer-orders/${old}/status`, { status: 'cancelled' }, XHR);
    expect(cancelAgain.status).toBe(409);
    expect(cancelAgain.json.error).toBe('This order is already cancelled');
  });
});
