import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TransferOrdersResponse } from '@warmline/contracts/transfers';
import { createPool } from '@warmline/platform/db/index';
import { GATEWAY_SCHEMA } from '@warmline/gateway/service';
import { createAccount } from '@warmline/gateway/domain/users';
import { logIn, seriousViolations, useE2E, type RunningSystem } from './harness';
import { waitForMail, waitForMails } from './waits';

/**
 * Live call transfers end to end (issue 7): an admin sets an agent's own per-transfer price,
 * the agent orders transfers for chosen states from the dashboard at that price, pays with the
 * sandbox card and lands on /thank-you; the admin sees the order paid on /admin-orders.
 */
const e2e = useE2E();

interface Agent {
  id: string;
  username: string;
  password: string;
  email: string;
}

/** A new agent account straight in the gateway's schema (unique names every call). */
async function newAgent(system: RunningSystem, firstName = 'Terry', lastName = 'Transfer'): Promise<Agent> {
  const tag = randomBytes(4).toString('hex');
  const pool = createPool(system.databaseUrl, GATEWAY_SCHEMA);
  try {
    const spec = { username: `agent_${tag}`, password: `agent-password-${tag}`, email: `agent_${tag}@example.com`, firstName, lastName, phone: '(512) 555-0101' };
    const user = await createAccount(pool, spec);
    return { id: user.id, ...spec };
  } finally {
    await pool.end();
  }
}

/** A browser context logged in as the admin, for API calls and the admin pages. */
async function adminContext(browser: Browser, system: RunningSystem): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: system.url, viewport: { width: 1280, height: 800 } });
  const login = await context.request.post('/api/login', { data: { username: system.admin.username, password: system.admin.password } });
  expect(login.status()).toBe(200);
  return context;
}

async function setPrice(admin: BrowserContext, userId: string, price: string): Promise<void> {
  const answer = await admin.request.patch(`/api/users/${userId}/live-transfer-price`, {
    data: { price },
    headers: { 'x-requested-with': 'XMLHttpRequest' },
  });
  expect(answer.status()).toBe(200);
}

async function chooseState(page: Page, name: string, code: string) {
  await page.getByLabel('Search states').fill(name);
  await page.getByRole('checkbox', { name: `${name} (${code})` }).check();
}

async function fillOrderForm(page: Page) {
  await page.getByLabel('Total transfers').fill('20');
  await page.getByLabel('Transfers per day').fill('5');
  await page.getByLabel('Transfer hours').fill('Mon-Fri 9am-5pm CST');
  await page.getByLabel('Transfer phone').fill('(405) 555-0199');
  await chooseState(page, 'Texas', 'TX');
  await chooseState(page, 'Oklahoma', 'OK');
}

async function payWithCard(page: Page, cardNumber: string, amount: string) {
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiry (MM / YY)').fill(`12 / ${String((new Date().getUTCFullYear() + 2) % 100)}`);
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: `Complete Payment - ${amount}` }).click();
}

const pendingOrder = (page: Page) => page.evaluate(() => localStorage.getItem('pendingTransferOrder'));

describe('ordering live call transfers', () => {
  it('when an admin set the agent’s price to $31.50 and the agent orders 20 transfers for TX and OK, then they pay $630.00 and the admin sees the order paid', async () => {
    const { page, system, browser } = e2e;
    const agent = await newAgent(system, 'Olivia', 'Okafor');
    const admin = await adminContext(browser, system);
    try {
      await setPrice(admin, agent.id, '31.50');

      await logIn(page, agent.username, agent.password, '/dashboard');
      await page.getByRole('link', { name: 'Buy Call Transfers' }).click();
      await page.getByRole('heading', { name: 'Buy Call Transfers', level: 1 }).waitFor();
      expect(await page.getByTestId('live-transfer-price').textContent()).toBe('$31.50 per transfer');
      for (const block of ['Qualified Live Transfers', 'Real-Time Delivery', '120-Second Buffer Protection']) {
        await page.getByRole('heading', { name: block }).waitFor();
      }
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Order Call Transfers' }).click();
      await page.getByRole('heading', { name: 'Order Call Transfers' }).waitFor();
      // 'Back' returns to the intro, and the form keeps what was typed.
      await page.getByLabel('Total transfers').fill('20');
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await page.getByRole('button', { name: 'Order Call Transfers' }).click();
      expect(await page.getByLabel('Total transfers').inputValue()).toBe('20');

      await fillOrderForm(page);
      expect(await page.getByTestId('transfer-total').textContent()).toBe('$630.00');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Continue to Payment' }).click();

      await page.getByRole('heading', { name: 'Complete Your Order', level: 1 }).waitFor();
      expect(await page.getByTestId('transfer-summary-total').textContent()).toBe('$630.00');
      await page.getByText('Texas, Oklahoma', { exact: true }).waitFor();
      const stored = JSON.parse((await pendingOrder(page)) ?? 'null') as Record<string, unknown> | null;
      expect(stored).toMatchObject({
        totalPrice: '630.00',
        transferDetails: { totalTransfers: 20, transfersPerDay: 5, states: ['TX', 'OK'] },
      });
      expect(String(stored?.clientSecret)).toMatch(/^pi_sandbox_/);
      await page.getByLabel('Card number').waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      // 'Back to Form' and on again without changes: the same order, not a second one.
      await page.getByRole('button', { name: 'Back to Form' }).click();
      expect(await page.getByLabel('Transfer hours').inputValue()).toBe('Mon-Fri 9am-5pm CST');
      await page.getByRole('button', { name: 'Continue to Payment' }).click();
      await page.getByRole('heading', { name: 'Complete Your Order', level: 1 }).waitFor();

      await payWithCard(page, '4242 4242 4242 4242', '$630.00');
      await page.waitForURL((url) => url.pathname === '/thank-you', { timeout: 20_000 });
      await page.getByRole('heading', { name: 'Thank You!' }).waitFor();
      expect(await pendingOrder(page)).toBeNull();

      const listing = await admin.request.get('/api/transfer-orders');
      expect(listing.status()).toBe(200);
      const { orders, stats } = (await listing.json()) as TransferOrdersResponse;
      const mine = orders.filter((o) => o.email === agent.email);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        firstName: 'Olivia',
        lastName: 'Okafor',
        transferNumber: '(405) 555-0199',
        totalTransfers: 20,
        transfersPerDay: 5,
        transferHours: 'Mon-Fri 9am-5pm CST',
        selectedStates: ['TX', 'OK'],
        unitPrice: '31.50',
        totalPrice: '630.00',
        status: 'paid',
      });
      expect(Number(stats.totalRevenue)).toBeGreaterThanOrEqual(630);

      const adminPage = await admin.newPage();
      await adminPage.goto('/admin-orders');
      await adminPage.getByRole('heading', { name: 'Transfer Orders', level: 1 }).waitFor();
      const row = adminPage.locator(`tr[data-order-id="${mine[0]!.id}"]`);
      await row.waitFor();
      expect(await row.getByText('Paid', { exact: true }).count()).toBe(1);
      expect(await row.getByText('$630.00').count()).toBe(1);
      expect(await row.getByText('TX, OK', { exact: true }).count()).toBe(1);
      expect(await row.getByText('Transfer: (405) 555-0199').count()).toBe(1);
      for (const figure of ['Total Orders', 'Pending Orders', 'Total Revenue', 'Total Transfers']) {
        await adminPage.getByText(figure, { exact: true }).waitFor();
      }
      expect(await seriousViolations(adminPage)).toEqual([]);

      // Operations and the agent are told, with the states, hours and transfer phone.
      const mail = await waitForMails(system.mailDir, { containing: mine[0]!.id }, 2);
      expect(mail.some((m) => m.includes(`To: ${agent.email}`) && m.includes('Live transfers: 20 transfers × $31.50'))).toBe(true);
      expect(mail.some((m) => m.includes('States: Texas (TX), Oklahoma (OK)') && m.includes('Transfer phone: (405) 555-0199'))).toBe(true);
    } finally {
      await admin.close();
    }
  });

  it('when the form is submitted empty, then each field says the spec message', async () => {
    const { page, system } = e2e;
    const agent = await newAgent(system);
    await logIn(page, agent.username, agent.password, '/dashboard');
    await page.goto('/dashboard?view=buy-call-transfers');
    await page.getByRole('button', { name: 'Order Call Transfers' }).click();
    await page.getByLabel('Transfer phone').fill('');

    await page.getByRole('button', { name: 'Continue to Payment' }).click();

    for (const message of [
      'Must be at least 1 transfer',
      'Must be at least 1 call per day',
      'Please specify transfer hours',
      'Phone number must be at least 10 digits',
      'Please specify working states',
    ]) {
      await page.getByText(message, { exact: true }).waitFor();
    }
  });

  it('when a pending order is paid on /transfer-checkout with a declined card and then a good one, then it says Payment Failed and then reaches /thank-you', async () => {
    const { page, system } = e2e;
    const agent = await newAgent(system);
    await logIn(page, agent.username, agent.password, '/dashboard');
    await page.goto('/dashboard?view=buy-call-transfers');
    await page.getByRole('button', { name: 'Order Call Transfers' }).click();
    await fillOrderForm(page);
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await page.getByRole('heading', { name: 'Complete Your Order', level: 1 }).waitFor();

    await page.goto('/transfer-checkout');
    await page.getByRole('heading', { name: 'Complete Your Transfer Order' }).waitFor();
    // The default price: 20 × $35.00.
    expect(await page.getByTestId('transfer-summary-total').textContent()).toBe('$700.00');
    await page.getByText('Texas, Oklahoma', { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await payWithCard(page, '4000 0000 0000 0002', '$700.00');
    await page.getByText('Payment Failed', { exact: true }).waitFor();
    // Once, beside the pay button (issue 17), not also in a toast.
    await page.locator('.payment-alert[role="alert"]').getByText('Your card was declined.', { exact: true }).waitFor();
    expect(await page.locator('.toast').count()).toBe(0);

    await payWithCard(page, '4242 4242 4242 4242', '$700.00');
    await page.waitForURL((url) => url.pathname === '/thank-you', { timeout: 20_000 });
    expect(await pendingOrder(page)).toBeNull();
  });

  it('when /transfer-checkout is opened without an order, then it shows No Order Found and a way back to the dashboard', async () => {
    const { page, system } = e2e;
    const agent = await newAgent(system);
    await logIn(page, agent.username, agent.password, '/dashboard');

    await page.goto('/transfer-checkout');

    await page.getByRole('heading', { name: 'No Order Found' }).waitFor();
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByRole('heading', { name: 'Buy Call Transfers', level: 1 }).waitFor();
  });
});

describe('insurance recruiting', () => {
  it('when an agent contacts the recruiting team, then the request is sent and confirmed with a toast', async () => {
    const { page, system } = e2e;
    const agent = await newAgent(system, 'Rosa', 'Recruiter');
    await logIn(page, agent.username, agent.password, '/dashboard');
    await page.getByRole('link', { name: 'Insurance Recruiting' }).click();
    await page.getByRole('heading', { name: 'Insurance Recruiting', level: 1 }).waitFor();
    for (const block of ['Agent Sourcing', 'Training Support', 'Retention Program']) {
      await page.getByRole('heading', { name: block }).waitFor();
    }

    await page.getByRole('button', { name: 'Contact Recruiting Team' }).click();
    const dialog = page.getByRole('dialog', { name: 'Contact Recruiting Team' });
    await dialog.getByRole('button', { name: 'Send Request' }).click();
    await dialog.getByText('Please tell us what your agency needs', { exact: true }).waitFor();
    await dialog.getByLabel('What does your agency need?').fill('Three licensed life agents for our Dallas office');
    await dialog.getByLabel('How many agents?').fill('3');
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Send Request' }).click();

    await page.getByText('Request Sent', { exact: true }).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const request = await waitForMail(system.mailDir, { containing: 'Three licensed life agents for our Dallas office' });
    expect(request).toContain('Three licensed life agents for our Dallas office');
  });
});
