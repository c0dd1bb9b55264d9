import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CALLBACK_EXPORT_COLUMNS, CALLBACK_PRICE_MEANING } from '@warmline/contracts/callbacks';
import { createPool } from '@warmline/platform/db/index';
import { CATALOG_SCHEMA } from '@warmline/catalog/service';
import { GATEWAY_SCHEMA } from '@warmline/gateway/service';
import { logIn, seriousViolations, TEST_RESULTS_DIR, useE2E } from './harness';

/**
 * The admin's call-backs tab after issue 22, at 390 and 1280 px: an opportunity withdrawn because
 * its phone was suppressed says so (and cannot be assigned); the manual-assign picker lists the
 * agents who bought call-backs with their balance and states — not the admin; Export CSV downloads
 * what the filters match; the manual form says what the price is. axe finds nothing serious and
 * nothing scrolls sideways.
 */
const e2e = useE2E();
const WIDTHS = [390, 1280] as const;
const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const SHOTS = path.join(TEST_RESULTS_DIR, 'screens');

/** One Florida opportunity per width, nobody works Florida so it stays available; one suppressed. */
const available = WIDTHS.map((w) => ({ id: randomUUID(), last: `Florida${w}`, phone: `305555${String(1000 + w).slice(-4)}` }));
const suppressed = { id: randomUUID(), last: 'Optedout', phone: '5125556167' };

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const gateway = createPool(e2e.system.databaseUrl, GATEWAY_SCHEMA);
  const catalog = createPool(e2e.system.databaseUrl, CATALOG_SCHEMA);
  try {
    const { rows } = await gateway.query<{ id: string }>('SELECT id FROM users WHERE username = $1', [e2e.system.customer.username]);
    // The agent bought call-backs (as Buy Call-backs would credit them) and works Oklahoma and Texas.
    await catalog.query(
      `INSERT INTO callback_balances (user_id, balance, states, waiting_since, updated_at) VALUES ($1, 3, '{OK,TX}', now(), now())
       ON CONFLICT (user_id) DO UPDATE SET balance = 3, states = '{OK,TX}'`,
      [rows[0]!.id],
    );
    for (const o of available) {
      await catalog.query(
        `INSERT INTO callback_opportunities (id, source, first_name, last_name, phone, state, price_cents, expires_at, created_at)
         VALUES ($1, 'manual', 'Ana', $2, $3, 'FL', 1500, now() + interval '3 days', now())`,
        [o.id, o.last, o.phone],
      );
    }
    await catalog.query(
      `INSERT INTO callback_opportunities (id, source, vendor_name, first_name, last_name, phone, state, price_cents, transcript, status, suppressed_at, expires_at, created_at)
       VALUES ($1, 'vendor', 'BrightCall', 'Sam', $2, $3, 'TX', 1500, 'Prospect: call me back.', 'suppressed', now(), now() + interval '3 days', now())`,
      [suppressed.id, suppressed.last, suppressed.phone],
    );
  } finally {
    await gateway.end();
    await catalog.end();
  }
});

async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}

describe("the admin's call-backs tab", () => {
  for (const [i, width] of WIDTHS.entries()) {
    it(`at ${width} px: a suppressed opportunity says so, the picker lists agents with balance and states, and Export CSV downloads the filtered list`, async () => {
      const { page, system } = e2e;
      await page.setViewportSize({ width, height: 900 });
      await logIn(page, system.admin.username, system.admin.password, '/admin');
      await page.goto('/admin?tab=upload-callbacks');
      await page.getByRole('heading', { name: 'Callback Opportunities' }).waitFor();

      // The manual form says what the price is.
      await page.getByText(CALLBACK_PRICE_MEANING).waitFor();

      // The suppressed one: its status and why, no Assign.
      await page.getByRole('combobox', { name: 'Status' }).selectOption('suppressed');
      const gone = page.getByTestId('callback-opportunity').filter({ has: page.getByRole('heading', { name: `Sam ${suppressed.last}` }) });
      await gone.waitFor();
      expect(await gone.locator('.callback-status').first().textContent()).toBe('Suppressed');
      expect(await gone.textContent()).toContain('The phone is on the suppression list: this opportunity is not sold.');
      expect(await gone.getByRole('button', { name: /^Assign/ }).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
      await gone.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS, `callback-intake-suppressed-${width}.png`), fullPage: false });
      await page.getByRole('region', { name: 'Add Manually' }).screenshot({ path: path.join(SHOTS, `callback-intake-form-${width}.png`) });

      // Export CSV: what the filters match (suppressed ones), as a spreadsheet reads it.
      const href = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
      expect(href).toBe('/api/callback-opportunities/export.csv?status=suppressed');
      const csv = await page.context().request.get(href!, { headers: XHR });
      expect(csv.status()).toBe(200);
      const lines = (await csv.text()).trim().split('\r\n');
      expect(lines[0]).toBe(CALLBACK_EXPORT_COLUMNS.join(','));
      expect(lines.some((l) => l.includes(`,suppressed,Sam,${suppressed.last},(512) 555-6167,TX,15.00,vendor,BrightCall,`))).toBe(true);
      expect(lines.every((l, n) => n === 0 || l.includes(',suppressed,'))).toBe(true);

      // Assign by hand: the agent who bought call-backs, with balance and states; not the admin.
      await page.getByRole('combobox', { name: 'Status' }).selectOption('available');
      await page.getByRole('combobox', { name: 'State' }).selectOption('FL');
      const mine = available[i]!;
      const card = page.getByTestId('callback-opportunity').filter({ has: page.getByRole('heading', { name: `Ana ${mine.last}` }) });
      await card.getByRole('button', { name: `Assign Ana ${mine.last}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Assign Call-back' });
      const agent = dialog.getByTestId('assign-agent').filter({ hasText: system.customer.email });
      await agent.waitFor();
      // Each width's assignment takes one of the agent's three.
      expect(await agent.textContent()).toContain(`Balance: ${3 - i} call-backs · States: OK, TX (not FL)`);
      expect(await dialog.getByTestId('assign-agent').filter({ hasText: system.admin.email }).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: path.join(SHOTS, `callback-intake-assign-${width}.png`), fullPage: false });

      await agent.getByRole('button', { name: /^Assign to / }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText(`Ana ${mine.last} is now`).first().waitFor();
    });
  }
});
