import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AllOrdersAnswer } from '@warmline/contracts';
import { createLogger } from '@warmline/platform/log';
import { callService } from '@warmline/platform/testing/calls';
import { TEST_KEYS } from '@warmline/platform/testing/index';
import { serviceSigner } from '@warmline/platform/http/identity';
import type { Browser } from '../../gateway/test/gateway-fixture';
import { httpUsersClient } from '../src/clients/users-client';
import { fillMissingBuyerDetails } from '../src/domain/order-buyers';
import { testCard } from './orders-fixture';
import { startTransferSystem, XHR, type Agent, type TransferSystem } from './transfer-system';

/**
 * Issue 22: All Orders names the buyer of every order — an aged-lead order, pending or paid,
 * carries its account's name and e-mail — and searching the buyer's e-mail finds all of them.
 */

let system: TransferSystem;
let admin: Browser;
let agent: Agent;

beforeAll(async () => {
  system = await startTransferSystem();
  admin = await system.adminBrowser();
  agent = await system.createAgent({ firstName: 'Lena', lastName: 'Leads' });
});

afterAll(async () => {
  await system?.cleanup();
});

/** The catalog asking for the payment of 2 leads aged 30-60 days, as the agent. */
async function leadOrder(): Promise<{ orderId: string; clientSecret: string }> {
  const answer = await callService(system.ordersUrl, 'POST', '/api/internal/lead-orders', {
    body: { orderId: randomUUID(), lines: [{ ageRange: '30-60', count: 2, unitPriceCents: 250 }], amountCents: 500 },
    identity: { userId: agent.id, username: agent.username, isAdmin: false },
    caller: 'catalog',
  });
  expect(answer.status).toBe(201);
  return { orderId: String(answer.body.orderId), clientSecret: String(answer.body.clientSecret) };
}

async function allOrders(query: string): Promise<AllOrdersAnswer> {
  const answer = await admin.get(`/api/admin/orders${query}`);
  expect(answer.status).toBe(200);
  return answer.json as AllOrdersAnswer;
}

describe('every order names its buyer', () => {
  it('when an agent has a pending and a paid aged-lead order and a package, then each names the agent and their e-mail finds all of them', async () => {
    const pending = await leadOrder();
    const paid = await leadOrder();
    const buyer = system.browser();
    expect((await buyer.post('/api/payments/sandbox/confirm', testCard(paid.clientSecret), XHR)).status).toBe(200);
    const created = await buyer.post('/api/create-payment-intent', { amount: 2220, callCount: 60, tier: 'premium' }, XHR);
    const billing = { name: 'Lena Leads', email: agent.email };
    expect((await buyer.post('/api/payments/sandbox/confirm', testCard(String(created.json.clientSecret), { billing }), XHR)).status).toBe(200);

    const found = await allOrders(`?q=${encodeURIComponent(agent.email.toUpperCase())}`);

    expect(found.orders.map((o) => o.id).sort()).toEqual([pending.orderId, paid.orderId, String(created.json.orderId)].sort());
    for (const order of found.orders) expect(order).toMatchObject({ buyerName: 'Lena Leads', buyerEmail: agent.email });
    expect(found.orders.find((o) => o.id === pending.orderId)).toMatchObject({ product: 'aged-leads', status: 'pending' });
    expect((await allOrders('?q=Lena%20Leads')).total).toBe(3);
  });

  it('when older aged-lead orders have no buyer details, then the orders service fills them from the account and leaves typed billing details alone', async () => {
    const old = await leadOrder();
    const typed = await leadOrder();
    await system.ordersPool.query(`UPDATE package_orders SET billing_name = NULL, billing_email = NULL, billing_phone = NULL WHERE id = $1`, [old.orderId]);
    await system.ordersPool.query(`UPDATE package_orders SET billing_name = 'Typed Name', billing_email = 'typed@example.com' WHERE id = $1`, [typed.orderId]);
    const ghost = randomUUID();
    await system.ordersPool.query(
      `INSERT INTO package_orders (id, kind, tier, count, unit_price_cents, amount_cents, currency, description, buyer_user_id, provider)
       VALUES ($1, 'lead', 'aged-leads', 1, 250, 250, 'usd', 'Aged leads: 1 lead', $2, 'sandbox')`,
      [randomUUID(), ghost],
    );
    const users = httpUsersClient({ baseUrl: system.gatewayInternalUrl, signer: serviceSigner('orders', TEST_KEYS.ORDERS_SERVICE_KEY) });
    const gone = new Set<string>();

    const filled = await fillMissingBuyerDetails(system.ordersPool, users, { log: createLogger('orders', 'silent'), gone });

    expect(filled).toBe(1);
    expect([...gone]).toEqual([ghost]);
    const byId = new Map((await allOrders('')).orders.map((o) => [o.id, o]));
    expect(byId.get(old.orderId)).toMatchObject({ buyerName: 'Lena Leads', buyerEmail: agent.email });
    expect(byId.get(typed.orderId)).toMatchObject({ buyerName: 'Typed Name', buyerEmail: 'typed@example.com' });
    expect(await fillMissingBuyerDetails(system.ordersPool, users, { log: createLogger('orders', 'silent'), gone })).toBe(0);
  });

  it('when an admin exports All Orders as CSV under a filter, then every matching order is a row naming its buyer, times in the business zone; a bad filter is a 400', async () => {
    const csv = await admin.get(`/api/admin/orders.csv?q=${encodeURIComponent(agent.email)}&product=aged-leads`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="warmline-orders-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Order ID,Created (America/Chicago),Paid (America/Chicago),Product,Buyer,Buyer e-mail,Description,Amount (USD),Refunded (USD),Status,Disputed');
    const listed = await allOrders(`?q=${encodeURIComponent(agent.email)}&product=aged-leads`);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(listed.orders.map((o) => o.id));
    expect(lines.slice(1).every((l) => l.includes(`,aged-leads,Lena Leads,${agent.email},`))).toBe(true);
    expect(lines[1]).toMatch(/^[0-9a-f-]{36},\d{4}-\d{2}-\d{2} \d{2}:\d{2},/);
    const bad = await admin.get('/api/admin/orders.csv?status=lost');
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/status must be one of/);
  });
});
