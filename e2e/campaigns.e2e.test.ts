import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { logIn, seriousViolations, useE2E } from './harness';

/**
 * Test Campaigns in the browser (issue 12): an admin creates a salesperson's referral page in
 * the Test Campaigns tab, a prospect takes its survey at /{slug} at once, the response shows in
 * the tab (and its CSV), and a campaign switched off is a 404 page; axe finds nothing serious.
 */
const e2e = useE2E();

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

describe('Test Campaigns', () => {
  it('when an admin creates a campaign in the tab, then its page takes a survey at once, the response shows in the tab and switching it off makes the page 404', async () => {
    const { page, system, browser } = e2e;
    const tag = randomBytes(3).toString('hex');
    const name = `Priya Shah ${tag}`;
    const slug = `priya-shah-${tag}`;

    await logIn(page, system.admin.username, system.admin.password, '/admin');
    await page.getByRole('tab', { name: 'Test Campaigns' }).click();
    await page.waitForURL((url) => url.searchParams.get('tab') === 'test-campaigns');
    const panel = page.getByRole('tabpanel');
    await panel.getByRole('heading', { name: 'New Campaign' }).waitFor();
    // The seeded salesperson is a campaign too.
    await panel.getByRole('row').filter({ hasText: '/john' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // A slug named like a page of the site is refused by the server, under the field.
    await field(page, 'Salesperson or campaign name').fill('Admin');
    expect(await field(page, 'Page address (slug)').inputValue()).toBe('admin');
    await panel.getByRole('button', { name: 'Create Campaign' }).click();
    await panel.getByText("The slug 'admin' is a page of the site; choose another").waitFor();
    expect(await field(page, 'Page address (slug)').getAttribute('aria-invalid')).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);

    // The slug follows the name.
    await field(page, 'Salesperson or campaign name').fill(name);
    expect(await field(page, 'Page address (slug)').inputValue()).toBe(slug);
    await panel.getByRole('button', { name: 'Create Campaign' }).click();
    const row = panel.getByRole('row').filter({ hasText: `/${slug}` });
    await row.waitFor();
    expect(await row.getByRole('link', { name: new RegExp(`/${slug}`) }).getAttribute('href')).toBe(`/${slug}`);
    expect(await row.getByRole('switch', { name: `${name} active` }).getAttribute('aria-checked')).toBe('true');
    // The new campaign is chosen: its responses, none yet.
    await panel.getByRole('heading', { name: `Responses: ${name}` }).waitFor();
    await panel.getByText(`0 responses through /${slug}`).waitFor();

    // A prospect, in a browser of their own, takes the survey at /{slug} at once.
    const prospect = { email: `lee.${tag}@example.com`, username: `lee_${tag}` };
    const prospectContext = await browser.newContext({ baseURL: system.url });
    try {
      const visitor = await prospectContext.newPage();
      await visitor.goto(`/${slug}`);
      await visitor.getByText('Referred by', { exact: false }).waitFor();
      await visitor.getByText(name, { exact: true }).waitFor();
      await field(visitor, 'First Name').fill('Lee');
      await field(visitor, 'Last Name').fill('Park');
      await field(visitor, 'Agency Name').fill('Park Insurance');
      await field(visitor, 'Role').selectOption('Agency Owner');
      await field(visitor, 'Phone Number').fill('(555) 321-7654');
      await field(visitor, 'Email').fill(prospect.email);
      await field(visitor, 'Username').fill(prospect.username);
      await field(visitor, 'Password').fill('sunny-harbor-42');
      await visitor.getByRole('button', { name: 'Continue', exact: true }).click();
      await visitor.getByRole('heading', { name: 'Lead Preferences' }).waitFor();
      await visitor.getByLabel('Aged Leads').check();
      await field(visitor, 'Working States').fill('OH');
      await field(visitor, 'Lead Age Range').selectOption('60-90');
      await field(visitor, 'Timezone').selectOption('EST');
      await visitor.getByRole('button', { name: 'Submit Survey' }).click();
      await visitor.waitForURL((url) => url.pathname === '/survey-success');

      // The response shows in the tab, in the Aged Leads section, with a price in dollars.
      await page.reload();
      await row.getByTestId('campaign-responses').filter({ hasText: /^1$/ }).waitFor();
      const aged = panel.getByRole('region', { name: 'Aged Leads responses' });
      const response = aged.getByRole('row').filter({ hasText: prospect.email });
      await response.waitFor();
      const text = (await response.textContent()) ?? '';
      expect(text).toContain('Lee Park');
      expect(text).toContain('60-90 days');
      expect(text).toMatch(/\$\d[\d,]*\.\d{2}/);
      expect(text).toMatch(/\d{2}\/\d{2}\/\d{4}/);
      await panel.getByText('No Live Transfers responses yet.').waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      // Export CSV: the same response, for a spreadsheet.
      const href = await panel.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
      const csv = await page.request.get(href!);
      expect(csv.status()).toBe(200);
      expect(csv.headers()['content-type']).toMatch(/^text\/csv/);
      expect(await csv.text()).toContain(`,Lee,Park,Park Insurance,Agency Owner,(555) 321-7654,${prospect.email},${prospect.username},Aged Leads,OH,`);

      // Switched off: the page is a 404 at once; back on, it takes surveys again.
      await row.getByRole('switch', { name: `${name} active` }).click();
      await row.getByRole('switch', { name: `${name} active`, checked: false }).waitFor();
      await visitor.goto(`/${slug}`);
      await visitor.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
      await row.getByRole('switch', { name: `${name} active` }).click();
      await row.getByRole('switch', { name: `${name} active`, checked: true }).waitFor();
      await visitor.reload();
      await visitor.getByText(name, { exact: true }).waitFor();
    } finally {
      await prospectContext.close();
    }
    // Two browsers and a full survey: about 40 s on a loaded machine, so more than the default minute's margin.
  }, 120_000);

  it('when the Test Campaigns tab is viewed on a phone, then axe finds nothing serious', async () => {
    const { page, system } = e2e;
    await page.setViewportSize({ width: 390, height: 844 });
    await logIn(page, system.admin.username, system.admin.password, '/admin');
    await page.goto('/admin?tab=test-campaigns&campaign=john');
    await page.getByRole('heading', { name: 'Responses: John Smith' }).waitFor();
    await page.getByText(/responses? through \/john/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
