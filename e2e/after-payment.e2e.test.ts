import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { APIRequestContext, Page } from 'playwright-core';
import type { CallTransferOrderResponse } from '@warmline/contracts/transfers';
import { RINGCLOUD_SUPPORT_EMAIL_DEFAULT } from '@warmline/contracts/brands';
import { createPool } from '@warmline/platform/db/index';
import { GATEWAY_SCHEMA } from '@warmline/gateway/service';
import { createAccount } from '@warmline/gateway/domain/users';
import { seriousViolations, useE2E } from './harness';
import { eventually, waitForMails } from './waits';

/**
 * After paying (issue 17 items 3 and 7): the success pages show the order number and what was
 * bought, read from the server; a made-up order id never reads 'payment received'; a paid
 * transfer order shows its summary and leads back to the dashboard; the RingCloud thank-you
 * page and receipt carry RingCloud's brand and support address. axe on every screen.
 */
const e2e = useE2E();

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const FUTURE_EXPIRY = `12 / ${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`;
const orderNumber = (page: Page) => page.getByTestId('order-number');
/** The value beside `term` in the on-screen receipt. */
const receiptRow = (page: Page, term: string) => page.locator('dl[aria-label="Your order"] > div', { has: page.locator('dt', { hasText: term }) }).locator('dd');

async function noPaymentClaimed(page: Page) {
  await page.getByRole('heading', { name: 'No paid order found', level: 1 }).waitFor();
  expect(await page.locator('main').innerText()).not.toMatch(/payment (was|is) (received|successful)/i);
  expect(await orderNumber(page).count()).toBe(0);
}

describe('after paying a package', () => {
  it('when a buyer pays a premium package with the sandbox card, then /onboarding-success shows the order number and what was bought', async () => {
    const { page } = e2e;
    await e2e.open('/checkout-premium');
    await page.getByRole('heading', { name: 'Premium Volume Package', level: 1 }).waitFor();
    await page.getByLabel('How many transfers would you like to purchase?').fill('60');
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    await page.getByLabel('Name on card').fill('Pat Premium');
    await page.getByLabel('Email for your receipt').fill(`after-pay-${randomBytes(4).toString('hex')}@example.com`);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM / YY)').fill(FUTURE_EXPIRY);
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Complete Payment - $2,220.00' }).click();

    await page.waitForURL((url) => url.pathname === '/onboarding-success');
    await page.getByRole('heading', { name: 'Welcome to WarmLine!', level: 1 }).waitFor();
    const id = new URL(page.url()).searchParams.get('order');
    expect(await orderNumber(page).textContent()).toBe(id);
    expect(await receiptRow(page, 'What you bought').textContent()).toBe('Premium Volume Package: 60 transfers × $37.00');
    expect(await receiptRow(page, 'Total paid').textContent()).toBe('$2,220.00');
    expect(await receiptRow(page, 'Status').textContent()).toBe('Paid');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('when someone opens the success pages with a made-up order id or none, then neither says a payment was received', async () => {
    const { page } = e2e;
    for (const path of [`/onboarding-success?order=${randomUUID()}`, '/onboarding-success?order=not-an-id', `/thank-you?order=${randomUUID()}`, '/thank-you']) {
      await e2e.open(path);
      await noPaymentClaimed(page);
      expect(await seriousViolations(page)).toEqual([]);
    }
  });
});

describe('keeping a package bought without a session', () => {
  it('when a visitor pays and then logs in on the success page, then the order is added to their account by the checkout’s claim token', async () => {
    const { page, system } = e2e;
    await e2e.open('/checkout');
    await page.getByRole('heading', { name: 'Special Pricing Package', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    await page.getByLabel('Name on card').fill('Cleo Claim');
    // The account is found by the token, never by this address (the customer's account has another).
    await page.getByLabel('Email for your receipt').fill(`claim-${randomBytes(4).toString('hex')}@example.com`);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM / YY)').fill(FUTURE_EXPIRY);
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: /^Complete Payment - / }).click();
    await page.waitForURL((url) => url.pathname === '/onboarding-success');
    const orderId = new URL(page.url()).searchParams.get('order')!;

    await page.getByRole('heading', { name: 'Keep this order in an account' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Username', { exact: true }).fill(system.customer.username);
    await page.getByLabel('Password', { exact: true }).fill(system.customer.password);
    await page.getByRole('button', { name: 'Log in and add this order' }).click();
    await page.getByRole('heading', { name: 'Added to your account' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    const mine = await page.context().request.get('/api/my-orders', { headers: XHR });
    expect(mine.status()).toBe(200);
    expect(((await mine.json()) as { orders: { id: string }[] }).orders.map((o) => o.id)).toContain(orderId);
    expect(await page.evaluate(() => sessionStorage.getItem('orderClaims'))).toBeNull();
  });
});

describe('after paying a transfer order', () => {
  it('when an agent pays a transfer order, then /thank-you shows its number and summary and leads back to the dashboard', async () => {
    const { page, system, browser } = e2e;
    const tag = randomBytes(4).toString('hex');
    const pool = createPool(system.databaseUrl, GATEWAY_SCHEMA);
    const agent = { username: `agent_${tag}`, password: `agent-password-${tag}`, email: `agent_${tag}@example.com`, firstName: 'Tia', lastName: 'Transfer', phone: '(512) 555-0101' };
    const user = await createAccount(pool, agent).finally(() => pool.end());

    const admin = await browser.newContext({ baseURL: system.url });
    try {
      expect((await admin.request.post('/api/login', { data: { username: system.admin.username, password: system.admin.password } })).status()).toBe(200);
      const priced = await admin.request.patch(`/api/users/${user.id}/live-transfer-price`, { data: { price: '31.50' }, headers: XHR });
      expect(priced.status()).toBe(200);
    } finally {
      await admin.close();
    }

    const api: APIRequestContext = page.context().request;
    expect((await api.post('/api/login', { data: { username: agent.username, password: agent.password } })).status()).toBe(200);
    const placed = await api.post('/api/call-transfer-order', {
      headers: XHR,
      data: { totalTransfers: 20, callsPerDay: 5, transferHours: '9am-5pm CST', transferPhone: '(405) 555-0199', workingStates: ['TX', 'OK'], leadType: 'Live Transfers', price: '630.00' },
    });
    expect(placed.status()).toBe(201);
    const order = (await placed.json()) as CallTransferOrderResponse;
    // As the dashboard keeps it for /transfer-checkout.
    await e2e.open('/login');
    await page.evaluate(
      (pending) => localStorage.setItem('pendingTransferOrder', JSON.stringify(pending)),
      {
        orderId: order.orderId,
        clientSecret: order.clientSecret,
        totalPrice: order.totalPrice,
        unitPrice: order.unitPrice,
        transferDetails: { totalTransfers: 20, transfersPerDay: 5, states: ['TX', 'OK'] },
        userId: user.id,
      },
    );
    await e2e.open('/transfer-checkout');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM / YY)').fill(FUTURE_EXPIRY);
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Complete Payment - $630.00' }).click();

    await page.waitForURL((url) => url.pathname === '/thank-you', { timeout: 20_000 });
    await page.getByRole('heading', { name: 'Thank You!', level: 1 }).waitFor();
    expect(await orderNumber(page).textContent()).toBe(order.orderId);
    expect(await receiptRow(page, 'Total transfers').textContent()).toBe('20');
    expect(await receiptRow(page, 'Transfers per day').textContent()).toBe('5');
    expect(await receiptRow(page, 'States').textContent()).toBe('Texas, Oklahoma');
    expect(await receiptRow(page, 'Transfer hours').textContent()).toBe('9am-5pm CST');
    expect(await receiptRow(page, 'Transfer phone').textContent()).toBe('(405) 555-0199');
    expect(await receiptRow(page, 'Total paid').textContent()).toBe('$630.00');
    expect(await page.getByRole('link', { name: 'Return to Home' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
  });
});

describe('after paying at RingCloud', () => {
  it('when a prospect completes /ringcloud and pays, then the thank-you page, titles, support address, way home and e-mails are RingCloud’s', async () => {
    const { page } = e2e;
    const tag = randomBytes(4).toString('hex');
    const email = `rc.${tag}@example.com`;
    const field = (label: string) => page.getByLabel(label, { exact: true });
    await e2e.open('/ringcloud');
    await page.getByRole('heading', { name: 'Get Started with RingCloud' }).waitFor();
    expect(await page.title()).toBe('Get Started · RingCloud');
    await field('First Name').fill('Rae');
    await field('Last Name').fill('Cloud');
    await field('Agency Name').fill('Cloud Insurance');
    await field('Role').selectOption('Agency Owner');
    await field('Phone Number').fill('(555) 123-4567');
    await field('Email').fill(email);
    await field('Username').fill(`rae_${tag}`);
    await field('Password').fill('sunny-harbor-42');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.getByRole('heading', { name: 'Lead Preferences' }).waitFor();
    await page.getByLabel('Call-Backs').check();
    await field('Working States').fill('TX');
    await field('Total Callbacks Needed').fill('12');
    await field('Callback Preference').fill('Mornings');
    await page.getByRole('button', { name: 'Continue to Checkout' }).click();
    await page.waitForURL((url) => url.pathname === '/ringcloud-checkout');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    expect(await page.title()).toBe('Checkout · RingCloud');
    await page.getByLabel('Expiry (MM / YY)').fill(FUTURE_EXPIRY);
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Complete Payment - $180.00' }).click();

    await page.waitForURL((url) => url.pathname === '/thank-you');
    await page.getByRole('heading', { name: 'Thank You!', level: 1 }).waitFor();
    expect(await page.title()).toBe('Thank You · RingCloud');
    expect(await page.locator('.brand-ringcloud').count()).toBe(1);
    expect(await orderNumber(page).textContent()).toBe(new URL(page.url()).searchParams.get('order'));
    expect(await receiptRow(page, 'What you bought').textContent()).toContain('RingCloud Call-Backs');
    expect(await receiptRow(page, 'Total paid').textContent()).toBe('$180.00');
    expect(await page.getByRole('link', { name: RINGCLOUD_SUPPORT_EMAIL_DEFAULT }).getAttribute('href')).toBe(`mailto:${RINGCLOUD_SUPPORT_EMAIL_DEFAULT}`);
    expect(await page.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/ringcloud');
    expect(await page.locator('body').innerText()).not.toContain('WarmLine');
    expect(await seriousViolations(page)).toEqual([]);

    // The receipt and the welcome both go to the survey's address, in RingCloud's name.
    const mails = await waitForMails(e2e.system.mailDir, { to: email }, 2);
    const receipt = mails.find((m) => /^Subject: Your RingCloud receipt: \$180\.00$/m.test(m));
    const welcome = mails.find((m) => /^Subject: Welcome to RingCloud: your account is ready$/m.test(m));
    expect(receipt).toContain(RINGCLOUD_SUPPORT_EMAIL_DEFAULT);
    expect(welcome).toContain(RINGCLOUD_SUPPORT_EMAIL_DEFAULT);
    // Sent in RingCloud's name: RINGCLOUD_MAIL_FROM is unset here, so from its support address.
    const from = new RegExp(`^From: RingCloud <${RINGCLOUD_SUPPORT_EMAIL_DEFAULT.replaceAll('.', '\\.')}>$`, 'm');
    expect(receipt).toMatch(from);
    expect(welcome).toMatch(from);
  });
});

describe('keeping a RingCloud Call-Backs order paid without an account', () => {
  it('when the survey’s checkout token is gone before paying, then the thank-you page offers the claim; logging in there adds the order and My Call-backs shows its call-backs', async () => {
    const { page } = e2e;
    const tag = randomBytes(4).toString('hex');
    const username = `rc_claim_${tag}`;
    const password = 'quiet-meadow-73';
    const field = (label: string) => page.getByLabel(label, { exact: true });
    await e2e.open('/ringcloud');
    await field('First Name').fill('Robin');
    await field('Last Name').fill('Claim');
    await field('Agency Name').fill('Claim Insurance');
    await field('Role').selectOption('Insurance Agent');
    await field('Phone Number').fill('(512) 555-0142');
    await field('Email').fill(`rc.claim.${tag}@example.com`);
    await field('Username').fill(username);
    await field('Password').fill(password);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.getByRole('heading', { name: 'Lead Preferences' }).waitFor();
    await page.getByLabel('Call-Backs').check();
    await field('Working States').fill('TX');
    await field('Total Callbacks Needed').fill('7');
    await field('Callback Preference').fill('Afternoons');
    await page.getByRole('button', { name: 'Continue to Checkout' }).click();
    await page.waitForURL((url) => url.pathname === '/ringcloud-checkout');
    await page.getByLabel('Card number').waitFor();

    // The survey's one-time token has expired (or the tab lost it): the checkout that opens now
    // links no account, so this payment is made without one.
    await page.evaluate(() => sessionStorage.clear());
    await page.reload();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM / YY)').fill(FUTURE_EXPIRY);
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Complete Payment - $105.00' }).click();

    await page.waitForURL((url) => url.pathname === '/thank-you');
    const orderId = new URL(page.url()).searchParams.get('order')!;
    const offer = page.locator('section.claim-order');
    await page.getByRole('heading', { name: 'Keep this order in an account' }).waitFor();
    expect(await offer.innerText()).toContain('receive its call-backs');
    expect(await page.locator('.brand-ringcloud').count()).toBe(1);
    expect(await page.locator('body').innerText()).not.toContain('WarmLine');
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await seriousViolations(page)).toEqual([]);
    }

    const api = page.context().request;
    await field('Username').fill(username);
    await field('Password').fill(password);
    await page.getByRole('button', { name: 'Log in and add this order' }).click();
    await page.getByRole('heading', { name: 'Added to your account' }).waitFor();
    expect(await page.getByRole('link', { name: 'My Call-backs' }).getAttribute('href')).toBe('/dashboard?view=my-callbacks');
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await seriousViolations(page)).toEqual([]);
    }
    const mine = await api.get('/api/my-orders', { headers: XHR });
    expect(((await mine.json()) as { orders: { id: string }[] }).orders.map((o) => o.id)).toContain(orderId);

    // The claim's event reaches the catalog over the bus: the balance is the order's 7 call-backs.
    await page.getByRole('link', { name: 'My Call-backs' }).click();
    await page.getByRole('heading', { name: 'My Call-backs', level: 1 }).waitFor();
    await eventually('My Call-backs to show the balance of 7', async () => {
      if ((await page.getByTestId('callback-balance').innerText().catch(() => '')) === '7') return true;
      await page.reload();
      await page.getByRole('heading', { name: 'My Call-backs', level: 1 }).waitFor();
      return false;
    }, { intervalMs: 250 });
    expect(await page.getByTestId('callback-balance').innerText()).toBe('7');
    const balance = await api.get('/api/my-callbacks', { headers: XHR });
    expect(((await balance.json()) as { balance: number; states: string[] })).toMatchObject({ balance: 7, states: ['TX'] });
  });
});
