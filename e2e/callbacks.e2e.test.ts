import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CALLBACK_WEBHOOK_PATH, WEBHOOK_FIELDS } from '@warmline/contracts/callbacks';
import { logIn, seriousViolations, submitLogin, useE2E } from './harness';
import { waitForMail } from './waits';

/**
 * Vendor call-backs end to end (issue 15): an admin makes a vendor key in the Upload Callback
 * Opportunities tab; an agent picks Texas as a call-back state and buys call-backs in the dashboard
 * with the sandbox card; the vendor posts a Texas call with the key (as a vendor would: a POST to
 * the webhook through the gateway, X-API-Key); the opportunity is in the admin's list, delivered to
 * the agent, whose e-mail's link leads through /login straight to My Call-backs with it. The
 * public /brightcalldocs names every field the webhook takes. axe finds nothing serious and no
 * page scrolls sideways on a phone.
 */
const e2e = useE2E();

const FUTURE_EXPIRY = `12 / ${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`;
const ADMIN_TAB = '/admin?tab=upload-callbacks';
const MY_CALLBACKS = '/dashboard?view=my-callbacks';

/** Whether the page is wider than the window (a phone would scroll it sideways). */
async function scrollsSideways(page: Page): Promise<{ scrollWidth: number; innerWidth: number } | null> {
  const size = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  return size.scrollWidth > size.innerWidth ? size : null;
}

describe('vendor call-backs', () => {
  it("when a vendor posts a Texas call with a key an admin made, then it is in the admin's list and delivered to the agent who bought call-backs in Texas, whose e-mail link leads to it", async () => {
    const { page, system, browser } = e2e;
    const stamp = Date.now();
    const vendor = `BrightCall ${stamp}`;
    const prospect = { first: 'Maria', last: `Lopez${stamp % 100000}` };
    const transcript = `Agent: Are you still looking at final expense cover? Prospect: Yes, call me back tomorrow after 3 pm. (${stamp})`;

    // The admin makes a key for the vendor and copies it from the dialog that shows it once.
    await logIn(page, system.admin.username, system.admin.password, '/admin');
    await page.getByRole('tab', { name: 'Upload Callback Opportunities' }).click();
    await page.waitForURL((url) => url.searchParams.get('tab') === 'upload-callbacks');
    await page.getByRole('heading', { name: 'Vendor Keys' }).waitFor();
    await page.getByLabel('Vendor name').fill(vendor);
    await page.getByRole('button', { name: 'Create Key' }).click();
    const dialog = page.getByRole('dialog', { name: `Key for ${vendor}` });
    await dialog.waitFor();
    const key = (await dialog.getByTestId('created-key').textContent())?.trim() ?? '';
    expect(key).toMatch(/^wlv_\S{20,}$/);
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'I have copied the key' }).click();
    await dialog.waitFor({ state: 'detached' });
    const keyRow = page.getByTestId('vendor-key').filter({ has: page.getByText(vendor, { exact: true }) });
    await keyRow.waitFor();
    expect(await keyRow.textContent()).toContain('Never');
    expect(await keyRow.textContent()).not.toContain(key);
    expect(await seriousViolations(page)).toEqual([]);

    // The agent, in a browser of their own (in Los Angeles; the business runs on Chicago's clock): Texas as a
    // call-back state, then two call-backs bought by card.
    const agentContext = await browser.newContext({ baseURL: system.url, viewport: { width: 1280, height: 800 }, timezoneId: 'America/Los_Angeles' });
    try {
      const agent = await agentContext.newPage();
      await logIn(agent, system.customer.username, system.customer.password, '/dashboard');
      await agent.getByRole('link', { name: 'My Call-backs' }).click();
      await agent.waitForURL((url) => url.searchParams.get('view') === 'my-callbacks');
      const balance = agent.getByTestId('callback-balance');
      await balance.waitFor();
      const balanceBefore = Number(await balance.textContent());
      await agent.getByRole('button', { name: 'Change states' }).click();
      await agent.getByRole('checkbox', { name: 'Texas (TX)' }).check();
      await agent.getByRole('button', { name: 'Save states' }).click();
      await expect.poll(() => agent.getByTestId('callback-states').textContent()).toContain('Texas (TX)');

      await agent.getByRole('button', { name: 'Buy Call-backs' }).click();
      await agent.waitForURL((url) => url.searchParams.get('view') === 'buy-callbacks');
      await agent.getByLabel('How many call-backs?').fill('2');
      expect(await agent.getByTestId('callbacks-total').textContent()).toBe('$30.00');
      await agent.getByRole('button', { name: 'Continue to Payment' }).click();
      await agent.getByLabel('Card number').fill('4242 4242 4242 4242');
      await agent.getByLabel('Expiry (MM / YY)').fill(FUTURE_EXPIRY);
      await agent.getByLabel('CVC').fill('123');
      await agent.getByRole('button', { name: 'Complete Payment - $30.00' }).click();
      await agent.waitForURL((url) => url.searchParams.get('view') === 'my-callbacks');
      // The balance is credited when the payment's event reaches the catalog: reload until it shows.
      await expect
        .poll(async () => {
          await agent.reload();
          return Number(await agent.getByTestId('callback-balance').textContent());
        }, { timeout: 20_000 })
        .toBe(balanceBefore + 2);

      // The vendor posts a call, as a vendor would: through the gateway, with its key.
      const answer = await fetch(`${system.url}${CALLBACK_WEBHOOK_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key, 'idempotency-key': `e2e-${stamp}` },
        body: JSON.stringify({
          first_name: prospect.first,
          last_name: prospect.last,
          phone_number: '+1 (512) 555-0143',
          transcript,
          call_outcome: 'callback_requested',
          state: 'TX',
          callback_time: new Date(Date.now() + 86_400_000).toISOString(),
          lead_quality: 'hot',
          interest_level: 'high',
        }),
      });
      const body = (await answer.json()) as { success?: boolean; callback_id?: string };
      expect(answer.status).toBe(200);
      expect(body.success).toBe(true);
      expect(body.callback_id).toMatch(/\S+/);

      // The admin's list has it, with the vendor and the transcript; the key has been used once.
      await page.reload();
      const card = page.getByTestId('callback-opportunity').filter({ has: page.getByRole('heading', { name: `${prospect.first} ${prospect.last}` }) });
      await card.waitFor();
      expect(await card.textContent()).toContain(`Vendor: ${vendor}`);
      expect(await card.textContent()).toContain('(512) 555-0143');
      await card.getByText('Transcript').click();
      await card.getByText(transcript).waitFor();
      // The key's facts: Created, Last used, Calls received.
      await expect.poll(() => keyRow.locator('dd').nth(2).textContent()).toBe('1');
      expect(await seriousViolations(page)).toEqual([]);

      // Delivered to the agent: in My Call-backs with the phone and transcript, one call-back less to come.
      await expect
        .poll(async () => {
          await agent.reload();
          await agent.getByTestId('callback-balance').waitFor();
          return agent.getByTestId('my-callback').filter({ hasText: prospect.last }).count();
        }, { timeout: 20_000 })
        .toBe(1);
      expect(Number(await agent.getByTestId('callback-balance').textContent())).toBe(balanceBefore + 1);
      // The admin's card says so too: its status is Assigned and it can no longer be assigned by hand.
      await page.reload();
      await card.waitFor();
      expect(await card.locator('.callback-card__head').getByText('Assigned', { exact: true }).count()).toBe(1);
      expect(await card.getByRole('button', { name: /^Assign/ }).count()).toBe(0);
      const mine = agent.getByRole('listitem', { name: `${prospect.first} ${prospect.last}` });
      expect(await mine.getByRole('link', { name: '(512) 555-0143' }).getAttribute('href')).toBe('tel:+15125550143');
      // Times in each person's own zone, named (issue 22): the agent's clock, the admin's business clock.
      expect(await mine.textContent()).toMatch(/\d{2}\/\d{2}\/\d{4}, \d{1,2}:\d{2} [AP]M P[SD]T/);
      expect(await card.textContent()).toMatch(/\d{2}\/\d{2}\/\d{4}, \d{1,2}:\d{2} [AP]M C[SD]T/);
      await mine.getByText('Transcript').click();
      await mine.getByText(transcript).waitFor();
      expect(await seriousViolations(agent)).toEqual([]);
    } finally {
      await agentContext.close();
    }

    // The e-mail's link, opened signed out: /login, then straight to My Call-backs (not the default view).
    const mail = await waitForMail(system.mailDir, { to: system.customer.email, containing: prospect.last });
    // The link's page; its origin is the notifications worker's PUBLIC_URL, which the harness leaves at its default.
    const link = /https?:\/\/[^\s"'<>]+\/dashboard\?view=my-callbacks/.exec(mail)?.[0];
    expect(link, 'a link to My Call-backs in the e-mail').toBeDefined();
    const linkPage = new URL(link ?? '/', system.url);
    await page.context().clearCookies();
    await page.goto(`${linkPage.pathname}${linkPage.search}`);
    await page.waitForURL((url) => url.pathname === '/login');
    await submitLogin(page, system.customer.username, system.customer.password);
    await page.waitForURL((url) => url.pathname === '/dashboard' && url.searchParams.get('view') === 'my-callbacks');
    await page.getByRole('heading', { name: 'My Call-backs', level: 1 }).waitFor();
    await page.getByRole('listitem', { name: `${prospect.first} ${prospect.last}` }).waitFor();
  });

  it('when a vendor reads /brightcalldocs, then every field the webhook takes is there, with whether it is required', async () => {
    const { page, system } = e2e;
    await page.goto('/brightcalldocs');
    await page.getByRole('heading', { name: 'BrightCall Webhook Integration', level: 1 }).waitFor();
    expect(await page.getByTestId('webhook-endpoint').textContent()).toBe(`${system.url}${CALLBACK_WEBHOOK_PATH}`);
    // The fields table, row by row: name, type and Required as the schema the service validates with says.
    const rows = await page.getByTestId('webhook-field').evaluateAll((trs) =>
      trs.map((tr) => {
        const cells = [...tr.querySelectorAll('th, td')].map((cell) => cell.textContent?.trim() ?? '');
        return { name: cells[0], type: cells[1], required: cells[2] };
      }),
    );
    expect(rows).toEqual(WEBHOOK_FIELDS.map((f) => ({ name: f.name, type: f.type, required: f.required ? 'Yes' : 'No' })));
    const curl = (await page.getByTestId('curl-command').textContent()) ?? '';
    expect(curl).toContain('X-API-Key: YOUR_VENDOR_KEY');
    for (const field of WEBHOOK_FIELDS) expect(curl, field.name).toContain(`"${field.name}"`);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('on a phone, the tab, My Call-backs and /brightcalldocs are axe clean and none scrolls sideways', async () => {
    const { page, system, browser } = e2e;
    await page.setViewportSize({ width: 390, height: 844 });
    await logIn(page, system.admin.username, system.admin.password, '/admin');
    await page.goto(ADMIN_TAB);
    await page.getByRole('heading', { name: 'Vendor Keys' }).waitFor();
    await page.getByRole('heading', { name: 'Callback Opportunities' }).waitFor();
    await page.getByText(/opportunit(y|ies), newest first|No callback opportunities yet/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBeNull();

    const agentContext = await browser.newContext({ baseURL: system.url, viewport: { width: 390, height: 844 } });
    try {
      const agent = await agentContext.newPage();
      await logIn(agent, system.customer.username, system.customer.password, '/dashboard');
      await agent.goto(MY_CALLBACKS);
      await agent.getByTestId('callback-balance').waitFor();
      expect(await seriousViolations(agent)).toEqual([]);
      expect(await scrollsSideways(agent)).toBeNull();
      await agent.goto('/dashboard?view=buy-callbacks');
      await agent.getByLabel('How many call-backs?').waitFor();
      expect(await seriousViolations(agent)).toEqual([]);
      expect(await scrollsSideways(agent)).toBeNull();
    } finally {
      await agentContext.close();
    }

    await page.goto('/brightcalldocs');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBeNull();
  });
});
