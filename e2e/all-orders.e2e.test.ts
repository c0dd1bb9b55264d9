import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { APIRequestContext, Page } from 'playwright-core';
import { logIn, seriousViolations, submitLogin, useE2E } from './harness';
import { waitForMail } from './waits';

/**
 * Orders and revenue in the browser (issue 12): a package order a logged-in agent just paid shows
 * in All Orders and the revenue chart draws; an admin refunds part of it and the net revenue
 * follows; the agent sees the order, refund and receipt in My Orders. On Transfer Orders (opened
 * from the admin card on the paid ones) an admin completes a paid order and cancels another with
 * a reason. axe finds nothing serious on each screen, dialogs open.
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

const FUTURE_EXPIRY = `12 / ${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`;

/** The agent logs in and buys 60 Premium transfers at the checkout with the sandbox's 4242 card; the order's id. */
async function agentBuysPremiumPackage(agentPage: Page, receiptEmail: string): Promise<string> {
  const { system } = e2e;
  await agentPage.goto('/login');
  await submitLogin(agentPage, system.customer.username, system.customer.password);
  await agentPage.waitForURL((url) => url.pathname === '/dashboard');
  await agentPage.goto('/checkout-premium');
  await agentPage.getByLabel('How many transfers would you like to purchase?').fill('60');
  await agentPage.getByText('60 transfers × $37.00', { exact: true }).waitFor();
  await agentPage.getByRole('button', { name: 'Proceed to Payment' }).click();
  await agentPage.getByLabel('Name on card').fill('Carla Customer');
  await agentPage.getByLabel('Email for your receipt').fill(receiptEmail);
  await agentPage.getByLabel('Card number').fill('4242 4242 4242 4242');
  await agentPage.getByLabel('Expiry (MM / YY)').fill(FUTURE_EXPIRY);
  await agentPage.getByLabel('CVC').fill('123');
  await agentPage.getByRole('button', { name: 'Complete Payment - $2,220.00' }).click();
  await agentPage.waitForURL((url) => url.pathname === '/onboarding-success');
  const orderId = new URL(agentPage.url()).searchParams.get('order');
  if (!orderId) throw new Error(`no order id in ${agentPage.url()}`);
  return orderId;
}

describe('orders and revenue', () => {
  it('when a logged-in agent pays a package, then All Orders shows it and the chart draws; a partial refund lowers the net revenue; the agent sees it in My Orders with its receipt', async () => {
    const { page, system, browser } = e2e;
    const email = `buyer_${randomBytes(3).toString('hex')}@example.com`;
    const agent = await browser.newContext({ baseURL: system.url });
    try {
      const agentPage = await agent.newPage();
      const orderId = await agentBuysPremiumPackage(agentPage, email);

      await logIn(page, e2e.system.admin.username, e2e.system.admin.password, '/admin');
      await page.getByRole('link', { name: 'All Orders' }).first().click();
      await page.getByRole('heading', { name: 'All Orders', level: 1 }).waitFor();
      const row = page.locator(`tr[data-order-id="${orderId}"]`);
      await row.waitFor();
      expect(await row.textContent()).toContain('$2,220.00');
      expect(await row.textContent()).toContain('Package');
      expect(await row.textContent()).toContain(email);
      await page.locator('[data-testid="revenue-chart"] svg.recharts-surface').first().waitFor();
      expect(await page.locator('[data-testid="revenue-chart"] .recharts-bar-rectangle').count()).toBeGreaterThan(0);
      expect(await seriousViolations(page)).toEqual([]);
      const netBefore = await page.getByTestId('net-revenue').textContent();

      await row.getByRole('button', { name: /Refund/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Refund Order' });
      await dialog.getByRole('radio', { name: 'Part of it' }).check();
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

      // Export CSV (issue 22): the orders the filter keeps, the buyer named.
      await page.getByLabel('Buyer', { exact: true }).fill(email);
      await page.waitForURL((url) => url.searchParams.get('q') === email);
      await page.locator('tr[data-order-id]').first().waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^warmline-orders-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = (await readFile(await download.path())).toString('utf8').trimEnd().split('\r\n');
      expect(csv).toHaveLength(2);
      expect(csv[1]).toContain(orderId);
      expect(csv[1]).toContain(email);
      expect(csv[1]).toContain('2220.00,50.00,partially-refunded');

      // The agent's side of the same books.
      await agentPage.goto('/dashboard?view=my-orders');
      await agentPage.getByRole('heading', { name: 'My Orders', level: 1 }).waitFor();
      const mine = agentPage.locator(`tr[data-order-id="${orderId}"]`);
      await mine.waitFor();
      expect(await mine.textContent()).toContain('$2,220.00');
      expect(await mine.textContent()).toContain('−$50.00 refunded');
      expect(await mine.textContent()).toContain('Partly refunded');
      expect(await seriousViolations(agentPage)).toEqual([]);
      await mine.getByRole('button', { name: /View receipt/ }).click();
      const receipt = agentPage.getByRole('dialog', { name: 'Receipt' });
      await receipt.getByText('Card ending 4242').waitFor();
      expect(await receipt.textContent()).toContain('Paid in the end$2,170.00');
      expect(await seriousViolations(agentPage)).toEqual([]);
    } finally {
      await agent.close();
    }
    // Two browsers, a checkout and six axe scans: longer than the default minute on a busy machine.
  }, 150_000);

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
    await logIn(page, e2e.system.admin.username, e2e.system.admin.password, '/admin');
    // The admin panel's Open Transfer Orders card opens the paid ones.
    await page.getByRole('link', { name: /Open Transfer Orders/ }).click();
    await page.waitForURL((url) => url.pathname === '/admin-orders' && url.searchParams.get('status') === 'paid');
    await page.getByRole('heading', { name: 'Paid orders' }).waitFor();
    await page.locator(`tr[data-order-id="${completeId}"]`).waitFor();
    expect(await page.locator('tr[data-order-id] .order-status:not(.order-status--paid)').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Show').selectOption('');
    await page.getByRole('heading', { name: 'All orders' }).waitFor();
    const toComplete = page.locator(`tr[data-order-id="${completeId}"]`);
    // Completing asks first, says what the agent is sent, and takes a note (issue 22).
    await toComplete.getByRole('button', { name: /Mark completed/i }).click();
    const confirm = page.getByRole('dialog', { name: 'Mark Order Completed?' });
    await confirm.getByText(/cannot be undone/).waitFor();
    const preview = await confirm.getByTestId('email-preview').textContent();
    expect(preview).toContain(system.customer.email);
    expect(preview).toContain('Your WarmLine live transfers are complete');
    expect(await seriousViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Not Yet' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await toComplete.getByText('Paid', { exact: true }).count()).toBe(1);
    await toComplete.getByRole('button', { name: /Mark completed/i }).click();
    await confirm.getByLabel(/Note to/).fill('Thanks for a great month of calls!');
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: `test-results/mark-completed-dialog-${width}.png` });
    }
    await confirm.getByRole('button', { name: 'Mark Completed and E-mail' }).click();
    await confirm.waitFor({ state: 'detached' });
    await toComplete.getByText('Completed', { exact: true }).waitFor();
    await waitForMail(system.mailDir, { containing: ['live transfers are complete', 'Thanks for a great month of calls!'] });

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
