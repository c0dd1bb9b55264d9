/**
 * Screenshots of the dashboard's views and the aged-lead market at 390 px and 1280 px wide,
 * for looking at them as an agent would. Not a test; run it with
 * `make screenshots NAME=aged-leads`.
 */
import type { Page } from 'playwright-core';
import { createPool } from '@warmline/platform/db/index';
import { CATALOG_SCHEMA } from '@warmline/catalog/service';
import { insertDemoLeads } from '@warmline/catalog/demo-leads';
import { openPage, startShots, WIDTHS } from './kit';

const run = await startShots('aged-leads');
const { system } = run;
const pool = createPool(system.databaseUrl, CATALOG_SCHEMA);
await insertDemoLeads(pool, 3000, { seed: 7 });
await pool.end();

async function payFor(page: Page, count: number) {
  const rows = page.locator('.lead-table tbody tr');
  await rows.first().waitFor();
  for (let i = 0; i < count; i += 1) await rows.nth(i).getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Buy Selected Leads' }).click();
  const dialog = page.getByRole('dialog', { name: 'Complete your purchase' });
  await dialog.getByLabel('Card number').fill('4242 4242 4242 4242');
  await dialog.getByLabel('Expiry (MM / YY)').fill('12 / 30');
  await dialog.getByLabel('CVC').fill('123');
  await dialog.getByRole('button', { name: /Complete Payment/ }).click();
  await page.getByText('Bulk Purchase Successful', { exact: true }).waitFor({ timeout: 20_000 });
}

try {
  for (const width of WIDTHS) {
    const { context, page, shot } = await openPage(run, width, { as: system.customer, landing: '/dashboard' });
    await page.locator('.lead-table tbody tr').first().waitFor();
    await shot('market', false);
    await shot('market-full');

    if (width < 600) {
      await page.getByRole('button', { name: /Menu/ }).click();
      await shot('menu-open', false);
      await page.getByRole('button', { name: /Menu/ }).click();
    }

    await page.getByLabel('Filter by state, area code or zip code').fill('TX');
    await page.waitForTimeout(800);
    const rows = page.locator('.lead-table tbody tr');
    await rows.nth(0).getByRole('checkbox').check();
    await rows.nth(2).getByRole('checkbox').check();
    await rows.nth(3).getByRole('checkbox').check();
    await shot('market-selected', false);
    await page.getByRole('button', { name: /^Select all \d+ matching this filter$|^Select the newest/ }).click();
    await page.waitForTimeout(800);
    await shot('market-select-all-matching', false);
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('dialog', { name: 'Your selected leads' }).waitFor();
    await page.waitForTimeout(500);
    await shot('cart-review', false);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await rows.nth(0).getByRole('checkbox').check();
    await rows.nth(2).getByRole('checkbox').check();
    await rows.nth(3).getByRole('checkbox').check();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    const bar = await page.evaluate(() => {
      const el = document.querySelector('.selection-bar');
      return el ? el.scrollWidth - el.clientWidth : -1;
    });
    console.log(`width ${width}: sideways overflow ${overflow} px, page height ${height} px, cart bar overflow ${bar} px`);

    await page.getByRole('button', { name: 'Buy Selected Leads' }).click();
    await page.getByRole('dialog', { name: 'Complete your purchase' }).getByLabel('Card number').waitFor();
    await shot('payment', false);
    await page.keyboard.press('Escape');

    await page.getByLabel('Filter by state, area code or zip code').fill('');
    await page.waitForTimeout(800);
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await payFor(page, 4);
    await page.getByRole('heading', { name: 'Thank you! Your leads are ready', level: 1 }).waitFor();
    await page.waitForTimeout(300);
    await shot('lead-receipt');
    await page.getByRole('link', { name: 'Buy more leads' }).click();
    await page.locator('.lead-table tbody tr').first().waitFor();
    await shot('market-after-purchase', false);

    await page.getByRole('button', { name: 'Buy Selected Leads' }).click();
    await page.getByText('No Leads Selected', { exact: true }).waitFor();
    await shot('no-leads-selected', false);

    for (const view of ['my-leads', 'training-videos', 'support', 'facebook-course', 'buy-call-transfers', 'insurance-recruiting']) {
      await page.goto(`/dashboard?view=${view}`, { waitUntil: 'networkidle' });
      await page.locator('h1').first().waitFor();
      await shot(view);
    }
    await context.close();
  }
} finally {
  await run.finish();
}
