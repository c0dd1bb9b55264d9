import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seriousViolations, submitLogin, useE2E } from './harness';
import { waitForMail, waitForPath } from './waits';

/** The three survey funnels against the real system in headless Chromium (issue 5). */
const e2e = useE2E();

const SALES_TEAM = 'sales@warmline.local';

interface Prospect {
  firstName: string;
  lastName: string;
  agencyName: string;
  phone: string;
  email: string;
  username: string;
  password: string;
}

function newProspect(): Prospect {
  const tag = randomBytes(4).toString('hex');
  return {
    firstName: 'Sam',
    lastName: 'Rivera',
    agencyName: 'Rivera Insurance',
    phone: '(555) 123-4567',
    email: `sam.${tag}@example.com`,
    username: `sam_${tag}`,
    password: 'sunny-harbor-42',
  };
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

async function fillStep1(page: Page, who: Prospect) {
  await field(page, 'First Name').fill(who.firstName);
  await field(page, 'Last Name').fill(who.lastName);
  await field(page, 'Agency Name').fill(who.agencyName);
  await field(page, 'Role').selectOption('Agency Owner');
  await field(page, 'Phone Number').fill(who.phone);
  await field(page, 'Email').fill(who.email);
  await field(page, 'Username').fill(who.username);
  await field(page, 'Password').fill(who.password);
}

async function continueToStep2(page: Page) {
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByRole('heading', { name: 'Lead Preferences' }).waitFor();
}

/** The sales team's notice about this prospect, once the notifications worker wrote it. */
const waitForSalesNotice = (mailDir: string, prospectEmail: string) => waitForMail(mailDir, { to: SALES_TEAM, containing: prospectEmail });

describe('the main survey', () => {
  it('when a prospect completes it, then they reach /survey-success, log in with the new account and land on /dashboard', async () => {
    const { page, system } = e2e;
    const who = newProspect();
    await e2e.open('/survey');
    await page.getByRole('heading', { name: 'Your Information' }).waitFor();

    // Step 1 refuses to move on while it is wrong, in the spec's words.
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    for (const message of [
      'First name is required',
      'Last name is required',
      'Agency name is required',
      'Please select your role',
      'Phone number must be at least 10 digits',
      'Invalid email address',
      'Username must be at least 3 characters',
      'Password must be at least 8 characters',
    ]) {
      await page.getByText(message, { exact: true }).waitFor();
    }
    expect(await page.getByRole('heading', { name: 'Lead Preferences' }).count()).toBe(0);

    await fillStep1(page, who);
    await continueToStep2(page);
    await page.getByRole('button', { name: 'Submit Survey' }).click();
    await page.getByText('Please select a service type', { exact: true }).waitFor();
    await page.getByText('Please specify your working states', { exact: true }).waitFor();
    await page.getByText('After completing this form, you can log in to view pricing on', { exact: false }).waitFor();

    // Back keeps what was typed.
    await page.getByRole('button', { name: 'Back' }).click();
    expect(await field(page, 'Email').inputValue()).toBe(who.email);
    expect(await field(page, 'Role').inputValue()).toBe('Agency Owner');
    await continueToStep2(page);

    await page.getByLabel('Live Transfers').check();
    await field(page, 'Working States').fill('TX, FL');
    await field(page, 'Total Transfers Needed').fill('40');
    await field(page, 'Calls Per Day').fill('120');
    await field(page, 'Preferred Transfer Hours').fill('9am - 5pm CST');
    await page.getByRole('button', { name: 'Submit Survey' }).click();

    await waitForPath(page, '/survey-success');
    await page.getByText('Success!', { exact: true }).waitFor();
    await page.getByText('Your information has been submitted successfully.', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Survey Completed Successfully!' }).waitFor();
    await page.getByText('Our team will contact you within 24 hours to confirm your preferences and pricing.').waitFor();

    const notice = await waitForSalesNotice(system.mailDir, who.email);
    expect(notice).toContain('Funnel: Main survey (/survey), marker Survey Form');
    expect(notice).toContain('Total transfers: 40');
    expect(notice).not.toContain(who.password);

    await page.getByRole('link', { name: 'Continue to Login' }).click();
    await waitForPath(page, '/login');
    await submitLogin(page, who.username, who.password);
    await waitForPath(page, '/dashboard');
    expect(await page.getByTestId('current-user-name').textContent()).toBe('Sam Rivera');
  });

  it('when the username is already taken, then the wizard goes back to it and says so', async () => {
    const { page, system } = e2e;
    const who = { ...newProspect(), username: system.customer.username };
    await e2e.open('/survey');
    await fillStep1(page, who);
    await continueToStep2(page);
    await page.getByLabel('Aged Leads').check();
    await field(page, 'Working States').fill('CA');
    await page.getByRole('button', { name: 'Submit Survey' }).click();

    await page.getByText('Error', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Your Information' }).waitFor();
    await page.getByRole('alert').filter({ hasText: /^Username is already taken$/ }).waitFor();
    expect(await field(page, 'Username').getAttribute('aria-invalid')).toBe('true');
    expect(e2e.pathname()).toBe('/survey');
  });
});

describe('the second brand', () => {
  it('when a prospect completes /ringcloud and pays with a test card, then they reach /thank-you and the saved answers are gone', async () => {
    const { page, system } = e2e;
    const who = newProspect();
    await e2e.open('/ringcloud');
    await page.getByRole('heading', { name: 'Get Started with RingCloud' }).waitFor();
    await fillStep1(page, who);
    await continueToStep2(page);
    await page.getByRole('button', { name: 'Continue to Checkout' }).click();
    await page.getByText('Please select a lead type', { exact: true }).waitFor();

    await page.getByLabel('Call-Backs').check();
    await field(page, 'Working States').fill('TX');
    await field(page, 'Total Callbacks Needed').fill('12');
    await field(page, 'Callback Preference').fill('Mornings');
    await page.getByRole('button', { name: 'Continue to Checkout' }).click();

    await waitForPath(page, '/ringcloud-checkout');
    await page.getByRole('heading', { name: 'Order Summary' }).waitFor();
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('ringcloud survey') ?? 'null') as Record<string, unknown> | null);
    expect(saved).toMatchObject({ leadType: 'Call-Backs', totalCallbacks: 12, email: who.email });
    expect(saved).not.toHaveProperty('password');
    // 12 callbacks × $15.00 (spec §9), from the contracts table.
    await page.getByText('$180.00', { exact: true }).waitFor();

    expect(await page.getByLabel('Name on card').inputValue()).toBe('Sam Rivera');
    expect(await page.getByLabel('Email for your receipt').inputValue()).toBe(who.email);
    expect(await page.getByLabel('Phone', { exact: true }).inputValue()).toBe(who.phone);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Complete Payment - $180.00' }).click();

    await waitForPath(page, '/thank-you');
    await page.getByRole('heading', { name: 'Thank You!' }).waitFor();
    await page.getByText('An account manager will contact you soon to set up your campaign.').waitFor();
    await page.getByRole('link', { name: 'Return to Home' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('ringcloud survey'))).toBeNull();
    expect(await page.evaluate(() => sessionStorage.getItem('ringcloud checkout token'))).toBeNull();

    // Paid without a session, yet the order is the new account's (the survey's one-time checkout token): My Orders has it.
    const mine = await page.evaluate(async ({ username, password }) => {
      const headers = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
      const login = await fetch('/api/login', { method: 'POST', headers, body: JSON.stringify({ username, password }) });
      if (!login.ok) return { login: login.status };
      return (await fetch('/api/my-orders', { headers })).json() as Promise<unknown>;
    }, who);
    expect(mine).toEqual({ orders: [expect.objectContaining({ product: 'second-brand', amountCents: 18_000, status: 'paid' })], total: 1, page: 1, pageSize: 25 });

    const notice = await waitForSalesNotice(system.mailDir, who.email);
    expect(notice).toContain('RingCloud survey (/ringcloud)');
    expect(notice).toContain('Estimated order: $180.00');
  });

  it('when /ringcloud-checkout opens without saved answers, then it goes to /ringcloud', async () => {
    const { page } = e2e;
    await e2e.open('/ringcloud-checkout');
    await waitForPath(page, '/ringcloud');
    await page.getByRole('heading', { name: 'Get Started with RingCloud' }).waitFor();
  });
});

describe('referral surveys', () => {
  it("when a prospect completes the seeded salesperson's survey, then they reach /survey-success and the response is credited to them", async () => {
    const { page, system } = e2e;
    const who = newProspect();
    await e2e.open('/john');
    await page.getByText('Referred by', { exact: false }).waitFor();
    await page.getByText('John Smith', { exact: true }).waitFor();
    await fillStep1(page, who);
    await continueToStep2(page);
    await page.getByLabel('Aged Leads').check();
    await field(page, 'Working States').fill('OH');
    await field(page, 'Lead Age Range').selectOption('60-90');
    await field(page, 'Timezone').selectOption('EST');
    await page.getByRole('button', { name: 'Submit Survey' }).click();

    await waitForPath(page, '/survey-success');
    await page.getByRole('heading', { name: 'Survey Completed Successfully!' }).waitFor();
    const notice = await waitForSalesNotice(system.mailDir, who.email);
    expect(notice).toContain('Referral survey of John Smith (/john)');
    expect(notice).toContain('Timezone: EST');
  });

  it('when the name is not a salesperson, then the 404 page shows', async () => {
    const { page } = e2e;
    await e2e.open('/no-such-person');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
  });
});

describe('accessibility of the survey screens', () => {
  it('when each step (with its messages), the success pages and the RingCloud checkout are scanned, then axe finds nothing serious', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 390, height: 844 });
    await e2e.open('/survey');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.getByText('First name is required', { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await e2e.open('/ringcloud');
    await fillStep1(page, newProspect());
    await continueToStep2(page);
    await page.getByRole('button', { name: 'Continue to Checkout' }).click();
    await page.getByText('Please select a lead type', { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Aged Leads').check();
    await field(page, 'Working States').fill('TX');
    await field(page, 'Lead Age Range').selectOption('30-60');
    await page.getByRole('button', { name: 'Continue to Checkout' }).click();
    await page.getByLabel('Card number').waitFor();
    await page.getByText('$500.00', { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    for (const [pathname, name] of [
      ['/survey-success', 'Survey Completed Successfully!'],
      // Without an order in its address /thank-you claims no payment (issue 17).
      ['/thank-you', 'No paid order found'],
    ] as const) {
      await e2e.open(pathname);
      await page.getByRole('heading', { name }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    }
  });
});
