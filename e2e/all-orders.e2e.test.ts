import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { APIRequestContext, Page } from 'playwright-core';
import { seriousViolations, useE2E } from './harness';

/**
 * Orders and revenue in the browser (issue 12): a package order just paid shows in All Orders
 * and the revenue chart draws; an admin refunds part of it and the net revenue follows; on
 * Transfer Orders an admin completes a paid order and cancels another with a reason.
 */
const e2e = useE2E();
const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const card = (clientSecret: string, billing?: Record<string, string>) => ({
  clientSecret,
  cardNumber: '4242 4242 4242 4242',
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 2,
  cvc: '123',
  ...(billing ? { billing } : {}),
});

async function logInAsAdmin(page: Page) {
  const { system } = e2e;
  await page.goto('/login');
  await page.getByLabel('Username', { exact: true }).fill(system.admin.username);
  await page.getByLabel('Password', { exact: true }).fill(system.admin.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => url.pathname === '/admin');
}

async function paidTransferOrder(request: APIRequestContext): Promise<string> {
  const { system } = e2e;
  const login = await request.post('/api/login', { data: { username: system.customer.username, password: system.customer.password } });
  expect(login.status()).toBe(200);
  const order = await request.post('/api/call-transfer-order', {
    headers: XHR,
    data: { totalTransfers: 4, callsPerDay: 2, transferHours: '9am-5pm CST', transferPhone: '(405) 555-0199', workingStates: ['TX'], leadType: 'Live Transfers', price: 140 },
  });
  expect(order.status()).toBe(201);
  const { orderId, clientSecret } = (await order.json()) as { orderId: string; clientSecret: string };
  expect((await request.post('/api/payments/sandbox/confirm', { headers: XHR, data: card(clientSecret) })).status()).toBe(200);
  return orderId;
}

describe('orders and revenue', () => {
  it('when a package order was just paid, then All Orders shows it and the chart draws; a partial refund lowers the net revenue', async () => {
    const { page, system, browser } = e2e;
    const email = `buyer_${randomBytes(3).toString('hex')}@example.com`;
    const buyer = await browser.newContext({ baseURL: system.url });
    try {
      const created = await buyer.request.post('/api/create-payment-intent', { headers: XHR, data: { amount: 2220, callCount: 60, tier: 'premium' } });
      const { clientSecret } = (await created.json()) as { clientSecret: string };
      expect((await buyer.request.post('/api/payments/sandbox/confirm', { headers: XHR, data: card(clientSecret, { name: 'Bea Buyer', email }) })).status()).toBe(200);
    } finally {
      await buyer.close();
    }

    await logInAsAdmin(page);
    await page.getByRole('link', { name: 'All Orders' }).first().click();
    await page.getByRole('heading', { name: 'All Orders', level: 1 }).waitFor();
    const row = page.getByRole('row').filter({ hasText: email });
    await row.waitFor();
    expect(await row.textContent()).toContain('$2,220.00');
    await page.locator('[data-testid="revenue-chart"] svg.recharts-surface').first().waitFor();
    expect(await page.locator('[data-testid="revenue-chart"] .recharts-bar-rectangle').count()).toBeGreaterThan(0);
    const netBefore = await page.getByTestId('net-revenue').textContent();

    await row.getByRole('button', { name: /Refund/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund Order' });
    await dialog.getByLabel('Amount ($)').fill('50.00');
    await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
    await dialog.getByText('A reason is required').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByLabel('Reason').fill('Goodwill for a slow start');
    await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await row.getByText('−$50.00 refunded').waitFor();
    expect(await row.textContent()).toContain('Partly refunded');
    await page.waitForFunction((before) => document.querySelector('[data-testid="net-revenue"]')?.textContent !== before, netBefore);

    await page.getByRole('button', { name: 'Last 90 days' }).click();
    await page.getByText(/net over the last 90 days/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('when an admin completes a paid transfer order and cancels another with a reason, then Transfer Orders shows both moves', async () => {
    const { page, system, browser } = e2e;
    const agent = await browser.newContext({ baseURL: system.url });
    let completeId: string;
    let cancelId: string;
    try {
      completeId = await paidTransferOrder(agent.request);
      cancelId = await paidTransferOrder(agent.request);
    } finally {
      await agent.close();
    }
    await logInAsAdmin(page);
    await page.goto('/admin-orders');
    const toComplete = page.locator(`tr[data-order-id="${completeId}"]`);
    await toComplete.getByRole('button', { name: /Mark completed/i }).click();
    await toComplete.getByText('Completed', { exact: true }).waitFor();

    const toCancel = page.locator(`tr[data-order-id="${cancelId}"]`);
    await toCancel.getByRole('button', { name: /Cancel order/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel Transfer Order' });
    await dialog.getByRole('button', { name: 'Cancel and Refund' }).click();
    await dialog.getByText(/A reason is required to cancel a paid order/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByLabel(/Reason/).fill('The agent paused their campaign');
    await dialog.getByRole('button', { name: 'Cancel and Refund' }).click();
    await dialog.waitFor({ state: 'detached' });
    await toCancel.getByText('Cancelled', { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
