import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createPool } from '@warmline/platform/db/index';
import { CATALOG_SCHEMA } from '@warmline/catalog/service';
import { insertLeads, type NewAgedLead } from '@warmline/catalog/db/leads';
import { logIn, seriousViolations, useE2E } from './harness';

/**
 * Lead returns in the browser (issue 24, ADR 0034), at 1280 and 390 px, axe clean with the
 * dialog open: an agent returns a lead as a duplicate of one bought with it and sees it credited
 * at once, finds it under Returned, asks a return of another that an admin must review; the
 * admin finds it in the Returns tab with the agent's return rate and refuses it with a reason.
 */
const e2e = useE2E();
const DAY = 86_400_000;
const XHR = { 'x-requested-with': 'XMLHttpRequest' };

/** Three leads of one state, 40 days old ($2.50 each); the first two share a phone. */
async function threeLeads(state: string, areaCode: string, tag: string): Promise<NewAgedLead[]> {
  const phone = `${areaCode}5550${String(100 + Math.floor(Math.random() * 800))}`;
  const leads: NewAgedLead[] = ['Alma', 'Bert', 'Cleo'].map((first, i) => ({
    id: randomUUID(),
    name: `${first} Returner${tag}`,
    phone: i < 2 ? phone : `${areaCode}5551${String(100 + i)}`,
    email: `${first.toLowerCase()}${tag}@example.com`,
    state,
    formFillTime: new Date(Date.now() - 40 * DAY - i * 3_600_000),
    source: 'facebook-lead-form',
    consent: { tcpa: true },
  }));
  const pool = createPool(e2e.system.databaseUrl, CATALOG_SCHEMA);
  try {
    await insertLeads(pool, leads);
  } finally {
    await pool.end();
  }
  return leads;
}

/** The logged-in page's agent buys the leads with the sandbox card and waits until they are theirs. */
async function buy(page: Page, leads: NewAgedLead[], state: string) {
  const reserved = await page.request.post('/api/bulk-purchase-leads', { headers: XHR, data: { leadIds: leads.map((l) => l.id) } });
  expect(reserved.status()).toBe(201);
  const { clientSecret } = (await reserved.json()) as { clientSecret: string };
  const card = { clientSecret, cardNumber: '4242 4242 4242 4242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };
  expect((await page.request.post('/api/payments/sandbox/confirm', { headers: XHR, data: card })).status()).toBe(200);
  await expect
    .poll(async () => ((await (await page.request.get(`/api/my-leads?filter=${state}`)).json()) as { total: number }).total, { timeout: 20_000 })
    .toBe(leads.length);
}

async function axeClean(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
}

describe('lead returns', () => {
  for (const [width, height, state, areaCode] of [
    [1280, 800, 'NM', '505'],
    [390, 844, 'AZ', '602'],
  ] as const) {
    it(`when an agent returns a duplicate and asks another return, and an admin refuses that one, at ${width} px, then each sees the right words and axe finds nothing serious`, async () => {
      const { page, system } = e2e;
      await page.setViewportSize({ width, height });
      const tag = String(width);
      const [first, dup, other] = await threeLeads(state, areaCode, tag);
      await logIn(page, system.customer.username, system.customer.password, '/dashboard');
      await buy(page, [first!, dup!, other!], state);

      await page.goto('/dashboard?view=my-leads');
      await page.getByRole('heading', { name: 'My Leads', level: 1 }).waitFor();
      await page.getByRole('button', { name: `Return lead: ${dup!.name}` }).click();
      const dialog = page.getByRole('dialog', { name: `Return ${dup!.name}` });
      await dialog.waitFor();
      await dialog.getByLabel('Reason').selectOption({ label: 'Duplicate of a lead I already bought' });
      await axeClean(page);
      await dialog.getByRole('button', { name: 'Return Lead' }).click();
      await dialog.getByText('Returned — $2.50 refunded').waitFor();
      await axeClean(page);
      await dialog.getByRole('button', { name: 'Done' }).click();
      // It leaves the active list, and the Returned switch shows it.
      await expect.poll(async () => page.getByText(dup!.name, { exact: true }).count(), { timeout: 10_000 }).toBe(0);
      await page.getByRole('button', { name: 'Returned', exact: true }).click();
      await page.getByText(dup!.name, { exact: true }).first().waitFor();
      await page.getByText('Returned', { exact: true }).last().waitFor();
      await axeClean(page);
      await page.getByRole('button', { name: 'My leads', exact: true }).click();

      await page.getByRole('button', { name: `Return lead: ${other!.name}` }).click();
      const second = page.getByRole('dialog', { name: `Return ${other!.name}` });
      await second.getByLabel('Reason').selectOption({ label: 'Disconnected number' });
      await second.getByLabel('Note (optional)').fill('Out of service on three calls');
      await second.getByRole('button', { name: 'Return Lead' }).click();
      await second.getByText('Return requested — an admin will review it').waitFor();
      await second.getByRole('button', { name: 'Done' }).click();
      await page.getByText('Return requested', { exact: true }).first().waitFor();
      await axeClean(page);

      // The admin's Returns tab.
      await page.context().clearCookies();
      await logIn(page, system.admin.username, system.admin.password);
      await page.waitForURL((url) => url.pathname !== '/login');
      await page.goto('/admin?tab=returns');
      await page.getByRole('heading', { name: 'Lead Returns' }).waitFor();
      const card = page.getByTestId('lead-return').filter({ hasText: other!.name });
      await card.waitFor();
      await expect.poll(async () => card.textContent()).toContain('Return rate');
      await axeClean(page);
      await card.getByRole('button', { name: `Refuse return: ${other!.name} from ${system.customer.username}` }).click();
      await card.getByRole('button', { name: 'Refuse return' }).click();
      await card.getByText('Say why the return is refused').waitFor();
      await axeClean(page);
      await card.getByLabel('Why is it refused?').fill('The line rang through on our test call');
      await card.getByRole('button', { name: 'Refuse return' }).click();
      await page.getByText('No return waits for a decision.').waitFor();
      await page.getByLabel('Show').selectOption({ label: 'Refused' });
      await page.getByTestId('lead-return').filter({ hasText: other!.name }).filter({ hasText: 'The line rang through on our test call' }).waitFor();
      await axeClean(page);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      expect(wide).toBe(false);
    });
  }
});
