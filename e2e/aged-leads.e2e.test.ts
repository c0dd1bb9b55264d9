import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createPool } from '@warmline/platform/db/index';
import { CATALOG_SCHEMA } from '@warmline/catalog/service';
import { insertLeads, type NewAgedLead } from '@warmline/catalog/db/leads';
import { logIn, seriousViolations, useE2E } from './harness';

/**
 * The aged-lead market end to end (issue 6): an agent logs in, filters by TX, selects leads
 * across the page, pays with the sandbox card, sees the success toast, finds the leads in My
 * Leads and downloads them as CSV. The cart (issue 17) keeps its leads across pages, filters and
 * reloads, loses sold ones with a message, and fits a phone.
 */
const e2e = useE2E();
const DAY = 86_400_000;

/** 60 Texas leads aged 40 days ($2.50 each) and 15 Californian ones. */
const texas: NewAgedLead[] = Array.from({ length: 60 }, (_, i) => ({
  id: randomUUID(),
  name: `Tex${String.fromCharCode(65 + (i % 26))} Rancher${i}`,
  phone: `512${String(3000000 + i * 137).padStart(7, '0')}`,
  email: `tex${i}@example.com`,
  state: 'TX',
  formFillTime: new Date(Date.now() - 40 * DAY - i * 60_000),
  source: 'facebook-lead-form',
  consent: { tcpa: true },
}));
const california: NewAgedLead[] = Array.from({ length: 15 }, (_, i) => ({
  id: randomUUID(),
  name: `Cali Surfer${i}`,
  phone: `415${String(4000000 + i * 311).padStart(7, '0')}`,
  email: null,
  state: 'CA',
  formFillTime: new Date(Date.now() - 100 * DAY - i * 60_000),
  source: 'google-search',
  consent: { tcpa: true },
}));

/** For the cart: 55 Nevadan leads aged 70 days ($2.00, two pages under the filter NV) and 4 from Oregon aged 120 days ($1.50). */
const nevada: NewAgedLead[] = Array.from({ length: 55 }, (_, i) => ({
  id: randomUUID(),
  name: `Vegas Dealer${i}`,
  phone: `702${String(5000000 + i * 173).padStart(7, '0')}`,
  email: `nv${i}@example.com`,
  state: 'NV',
  formFillTime: new Date(Date.now() - 70 * DAY - i * 60_000),
  source: 'facebook-lead-form',
  consent: { tcpa: true },
}));
const oregon: NewAgedLead[] = Array.from({ length: 4 }, (_, i) => ({
  id: randomUUID(),
  name: `Portland Hiker${i}`,
  phone: `503${String(6000000 + i * 191).padStart(7, '0')}`,
  email: `or${i}@example.com`,
  state: 'OR',
  formFillTime: new Date(Date.now() - 120 * DAY - i * 60_000),
  source: 'google-search',
  consent: { tcpa: true },
}));
const ALL_LEADS = texas.length + california.length + nevada.length + oregon.length;

/** Someone else buys these leads behind the buyer's back (the sale as the catalog records it). */
async function soldElsewhere(leads: NewAgedLead[]) {
  const pool = createPool(e2e.system.databaseUrl, CATALOG_SCHEMA);
  try {
    await pool.query(
      `UPDATE aged_leads SET sold_to_user_id = gen_random_uuid(), sold_order_id = gen_random_uuid(), sold_at = now(), sold_price_cents = 200, sold_age_range = '60-90'
        WHERE id = ANY($1::uuid[])`,
      [leads.map((l) => l.id)],
    );
  } finally {
    await pool.end();
  }
}

beforeAll(async () => {
  const pool = createPool(e2e.system.databaseUrl, CATALOG_SCHEMA);
  try {
    await insertLeads(pool, [...texas, ...california, ...nevada, ...oregon]);
  } finally {
    await pool.end();
  }
});

const selectedCount = (page: Page) => page.getByTestId('selected-count').textContent();
const selectionTotal = (page: Page) => page.getByTestId('selection-total').textContent();

describe('buying aged leads in the dashboard', () => {
  it('when an agent filters by TX, selects leads across the page and pays, then the leads are theirs in My Leads and in the CSV', async () => {
    const { page, system } = e2e;
    await logIn(page, system.customer.username, system.customer.password, '/dashboard');
    await page.getByRole('heading', { name: 'Buy Aged Leads', level: 1 }).waitFor();
    await page.getByText(`${ALL_LEADS} leads available`).waitFor();

    await page.getByLabel('Filter by state, area code or zip code').fill('TX');
    await page.getByText('60 leads available').waitFor();
    const rows = page.locator('.lead-table tbody tr');
    expect(await rows.count()).toBe(50);
    // Masked before purchase: first word whole, last word's first 3 letters then X's; area code only.
    expect(await page.locator('.lead-table__name').first().textContent()).toMatch(/^Tex[A-Z] RanX{5,6}$/);
    expect(await page.getByText('(512) XXX-XXXX').count()).toBeGreaterThan(0);

    // The whole page, then two leads taken out again.
    await page.getByLabel('Select all leads on this page').check();
    expect(await selectedCount(page)).toBe('50 leads selected');
    expect(await selectionTotal(page)).toBe('$125.00');
    await rows.nth(3).getByRole('checkbox').uncheck();
    await rows.nth(27).getByRole('checkbox').uncheck();
    expect(await selectedCount(page)).toBe('48 leads selected');
    expect(await selectionTotal(page)).toBe('$120.00');

    await page.getByRole('button', { name: 'Buy Selected Leads' }).click();
    const dialog = page.getByRole('dialog', { name: 'Complete your purchase' });
    await dialog.waitFor();
    await dialog.getByLabel('Card number').fill('4242 4242 4242 4242');
    await dialog.getByLabel('Expiry (MM / YY)').fill(`12 / ${String((new Date().getUTCFullYear() + 2) % 100)}`);
    await dialog.getByLabel('CVC').fill('123');
    await dialog.getByRole('button', { name: 'Complete Payment - $120.00' }).click();

    await page.getByText('Bulk Purchase Successful', { exact: true }).waitFor({ timeout: 20_000 });
    await page.getByText('Successfully purchased 48 leads.', { exact: true }).waitFor();
    // The purchase ends on its receipt (e2e/lead-receipt.e2e.test.ts checks it); back to the market.
    await page.getByRole('heading', { name: 'Thank you! Your leads are ready', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Buy more leads' }).click();
    expect(await selectedCount(page)).toBe('0 leads selected');
    await page.getByLabel('Filter by state, area code or zip code').fill('TX');
    await page.getByText('12 leads available').waitFor();

    await page.getByRole('link', { name: 'My Leads' }).click();
    await page.getByRole('heading', { name: 'My Leads', level: 1 }).waitFor();
    expect(new URL(page.url()).searchParams.get('view')).toBe('my-leads');
    await page.getByText('48 leads', { exact: true }).waitFor();
    const bought = texas.slice(0, 50).filter((_, i) => i !== 3 && i !== 27);
    await page.getByText(bought[0]!.name, { exact: true }).waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^warmline-my-leads-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toContain('Name,Phone,Email,State');
    expect(lines).toHaveLength(49);
    for (const lead of bought) expect(csv).toContain(lead.email as string);
    expect(csv).not.toContain(texas[3]!.email as string);

    // A reload keeps the view.
    await page.reload();
    await page.getByRole('heading', { name: 'My Leads', level: 1 }).waitFor();
  });

  it('when nothing is selected, Buy says so', async () => {
    const { page, system } = e2e;
    await logIn(page, system.customer.username, system.customer.password, '/dashboard');
    await page.getByRole('heading', { name: 'Buy Aged Leads', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Buy Selected Leads' }).click();
    await page.getByText('No Leads Selected', { exact: true }).waitFor();
    await page.getByText('Please select at least one lead to purchase.', { exact: true }).waitFor();
  });

  it('when an agent picks leads on two pages and through two filters and reloads, then the cart keeps them; sold ones leave with a message; and the rest are bought', async () => {
    const { page, system } = e2e;
    await logIn(page, system.customer.username, system.customer.password, '/dashboard');
    const filterBox = page.getByLabel('Filter by state, area code or zip code');
    const rows = page.locator('.lead-table tbody tr');

    await filterBox.fill('NV');
    await page.getByText('55 leads available').waitFor();
    await rows.nth(0).getByRole('checkbox').check();
    await rows.nth(1).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Page 2', exact: true }).click();
    // The first page stays on screen until the second arrives.
    await rows.nth(5).waitFor({ state: 'detached' });
    expect(await rows.count()).toBe(5);
    await rows.nth(0).getByRole('checkbox').check();
    expect(await selectedCount(page)).toBe('3 leads selected');
    expect(await selectionTotal(page)).toBe('$6.00');

    // Another filter: the three stay, and a fourth joins them.
    await filterBox.fill('OR');
    await page.getByText('4 leads available').waitFor();
    expect(await selectedCount(page)).toBe('3 leads selected');
    await rows.nth(0).getByRole('checkbox').check();
    expect(await selectedCount(page)).toBe('4 leads selected');
    expect(await selectionTotal(page)).toBe('$7.50');

    // A reload (the filter is gone): the cart is still there, and so are the ticks of what is in it.
    await page.reload();
    await page.getByText(`leads available`).first().waitFor();
    await page.locator('.lead-table tbody tr').first().waitFor();
    expect(await selectedCount(page)).toBe('4 leads selected');
    expect(await selectionTotal(page)).toBe('$7.50');

    // The review lists the four whatever page shows; one comes out.
    await page.getByRole('button', { name: 'Review', exact: true }).click();
    const review = page.getByRole('dialog', { name: 'Your selected leads' });
    await review.waitFor();
    const listed = review.getByRole('list', { name: 'Selected leads' }).getByRole('listitem');
    expect(await listed.count()).toBe(4);
    expect(await review.getByText('NV · 70 days').count()).toBe(3);
    expect(await review.getByText('OR · 120 days').count()).toBe(1);
    await review.getByRole('button', { name: /^Remove Portland HikXX*, OR, from the selection$/ }).click();
    expect(await listed.count()).toBe(3);
    await page.keyboard.press('Escape');
    expect(await selectedCount(page)).toBe('3 leads selected');
    expect(await selectionTotal(page)).toBe('$6.00');

    // Someone else buys one of them meanwhile: the next visit tells the buyer and drops it.
    await soldElsewhere([nevada[1]!]);
    await page.reload();
    await page
      .getByRole('status')
      .getByText('One lead in your cart was bought by someone else or is no longer for sale, so it was removed from your cart.')
      .waitFor();
    expect(await selectedCount(page)).toBe('2 leads selected');
    expect(await selectionTotal(page)).toBe('$4.00');

    // And one sold between the last check and the purchase: the purchase's answer drops it.
    await filterBox.fill('NV');
    await page.getByText('54 leads available').waitFor();
    await rows.nth(1).getByRole('checkbox').check();
    expect(await selectedCount(page)).toBe('3 leads selected');
    await soldElsewhere([nevada[2]!]);
    await page.getByRole('button', { name: 'Buy Selected Leads' }).click();
    await page.getByText('Some leads are no longer available. That lead was removed from your selection.', { exact: true }).waitFor();
    // The toast goes; the notice beside the cart stays.
    await page
      .getByRole('region', { name: 'Selection' })
      .getByText('One lead in your cart was bought by someone else or is no longer for sale, so it was removed from your cart.')
      .waitFor();
    expect(await selectedCount(page)).toBe('2 leads selected');

    await page.getByRole('button', { name: 'Buy Selected Leads' }).click();
    const dialog = page.getByRole('dialog', { name: 'Complete your purchase' });
    await dialog.getByLabel('Card number').fill('4242 4242 4242 4242');
    await dialog.getByLabel('Expiry (MM / YY)').fill(`12 / ${String((new Date().getUTCFullYear() + 2) % 100)}`);
    await dialog.getByLabel('CVC').fill('123');
    await dialog.getByRole('button', { name: 'Complete Payment - $4.00' }).click();
    await page.getByText('Successfully purchased 2 leads.', { exact: true }).waitFor({ timeout: 20_000 });
    await page.getByRole('heading', { name: 'Thank you! Your leads are ready', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Buy more leads' }).click();
    expect(await selectedCount(page)).toBe('0 leads selected');
    await page.reload();
    await page.locator('.lead-table tbody tr').first().waitFor();
    expect(await selectedCount(page)).toBe('0 leads selected');

    // My Leads may hold other purchases of this agent: the Nevadan ones are these two.
    await page.goto('/dashboard?view=my-leads');
    await page.getByLabel('Filter your leads by state, area code or zip code').fill('NV');
    await page.getByText('2 leads', { exact: true }).waitFor();
    await page.getByText(nevada[0]!.name, { exact: true }).waitFor();
    await page.getByText(nevada[50]!.name, { exact: true }).waitFor();
  });

  it('when a phone (390 px) shows the market, then nothing scrolls sideways, the page select-all shows, 50 leads are a compact list, and all matching a filter can be selected', async () => {
    const { page, system } = e2e;
    await page.setViewportSize({ width: 390, height: 844 });
    await logIn(page, system.customer.username, system.customer.password, '/dashboard');
    const rows = page.locator('.lead-table tbody tr');
    await rows.nth(49).waitFor();

    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    const selectPage = page.getByLabel('Select all leads on this page');
    expect(await selectPage.isVisible()).toBe(true);
    expect(await page.getByText('Select all 50 on this page').isVisible()).toBe(true);
    // Two lines a lead: 50 of them well under half the ~7,600 px the cards took.
    const list = await page.locator('.lead-table tbody').boundingBox();
    expect(list?.height).toBeLessThan(3_600);
    const firstRow = await rows.first().boundingBox();
    expect(firstRow?.height).toBeLessThan(80);

    await selectPage.check();
    expect(await selectedCount(page)).toBe('50 leads selected');
    expect(await page.getByTestId('selected-count').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    expect(await selectedCount(page)).toBe('0 leads selected');

    await page.getByLabel('Filter by state, area code or zip code').fill('OR');
    await page.getByRole('button', { name: 'Select all 4 matching this filter' }).click();
    await page.getByText('4 leads selected').waitFor();
    expect(await selectionTotal(page)).toBe('$6.00');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    // Review, Clear and Buy fit inside the bar, none cut off at its edge.
    expect(await page.locator('.selection-bar').evaluate((bar) => bar.scrollWidth - bar.clientWidth)).toBeLessThanOrEqual(0);
    // Scrolled down the list, the cart's count and total stay on screen.
    await page.getByLabel('Filter by state, area code or zip code').fill('');
    await rows.nth(49).scrollIntoViewIfNeeded();
    const bar = await page.getByRole('region', { name: 'Selection' }).boundingBox();
    expect(bar && bar.y >= 0 && bar.y + bar.height <= 844).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Review', exact: true }).click();
    await page.getByRole('dialog', { name: 'Your selected leads' }).getByRole('listitem').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  });

  it('when an agent opens a shared link to a view, then that view shows, and the sidebar switches views without reloading', async () => {
    const { page, system } = e2e;
    await logIn(page, system.customer.username, system.customer.password, '/dashboard');
    await page.goto('/dashboard?view=training-videos');
    await page.getByRole('heading', { name: 'Training Videos', level: 1 }).waitFor();
    // No TRAINING_VIDEOS in this system: an honest message, no players of videos that do not exist.
    await page.getByText('Videos are on their way').waitFor();
    expect(await page.locator('.video-card iframe').count()).toBe(0);

    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    await page.getByRole('link', { name: 'Facebook Ads Course' }).click();
    await page.getByText('Coming Soon', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Contact Support' }).click();
    await page.getByRole('heading', { name: 'Contact Support', level: 1 }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    expect(new URL(page.url()).searchParams.get('view')).toBe('support');
  });

  it('when the market, My Leads and the payment form are checked with axe, then nothing serious is found', async () => {
    const { page, system } = e2e;
    await logIn(page, system.customer.username, system.customer.password, '/dashboard');
    await page.locator('.lead-table tbody tr').first().waitFor();
    await page.locator('.lead-table tbody tr').first().getByRole('checkbox').check();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Buy Selected Leads' }).click();
    await page.getByRole('dialog', { name: 'Complete your purchase' }).getByLabel('Card number').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    await page.goto('/dashboard?view=my-leads');
    await page.getByRole('heading', { name: 'My Leads', level: 1 }).waitFor();
    await page.locator('.lead-table tbody tr').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
