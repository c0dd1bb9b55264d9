import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createPool } from '@warmline/platform/db/index';
import { unzipFiles } from '@warmline/platform/testing/documents';
import { CATALOG_SCHEMA } from '@warmline/catalog/service';
import { insertLeads, type NewAgedLead } from '@warmline/catalog/db/leads';
import { GATEWAY_SCHEMA } from '@warmline/gateway/service';
import { logIn, seriousViolations, TEST_RESULTS_DIR, useE2E } from './harness';
import { mailMatching } from './waits';

/**
 * Issue 24 as an agent and an admin live it, in Chromium at 1280 and 390 px, axe clean: the agent
 * buys two leads; the admin suppresses one's phone from the Suppression List; the agent sees
 * 'Do not call — opted out on …' on it in My Leads and has the e-mail; the agent returns the other
 * as a duplicate of a lead bought earlier and sees it credited; the evidence pack downloads, a
 * zip with the PDF and the JSON naming the lead's consent certificate.
 */
const e2e = useE2E();
const DAY = 86_400_000;
const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const SHOTS = path.join(TEST_RESULTS_DIR, 'screens');

beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

/** A lead bought earlier with `phone` (the duplicate's original), and two for sale now. */
async function leadsFor(state: string, areaCode: string, tag: string): Promise<{ optOut: NewAgedLead; duplicate: NewAgedLead }> {
  const dupPhone = `${areaCode}555${String(1000 + Math.floor(Math.random() * 8000)).slice(-4)}`;
  const optOutPhone = `${areaCode}556${String(1000 + Math.floor(Math.random() * 8000)).slice(-4)}`;
  const lead = (first: string, phone: string, ageDays: number): NewAgedLead => ({
    id: randomUUID(),
    name: `${first} Guard${tag}`,
    phone,
    email: `${first.toLowerCase()}${tag}@example.com`,
    state,
    formFillTime: new Date(Date.now() - ageDays * DAY),
    source: 'facebook-lead-form',
    consent: { tcpa: true },
    consentCertificate: `https://cert.trustedform.com/${randomUUID().replaceAll('-', '')}`,
    consentTime: new Date(Date.now() - ageDays * DAY),
    consentIp: '203.0.113.7',
  });
  const earlier = lead('Earl', dupPhone, 90);
  const optOut = lead('Olive', optOutPhone, 40);
  const duplicate = lead('Dora', dupPhone, 41);
  const catalog = createPool(e2e.system.databaseUrl, CATALOG_SCHEMA);
  const gateway = createPool(e2e.system.databaseUrl, GATEWAY_SCHEMA);
  try {
    await insertLeads(catalog, [earlier, optOut, duplicate]);
    // Bought three days ago by the agent (as an earlier order would have).
    const { rows } = await gateway.query<{ id: string }>('SELECT id FROM users WHERE username = $1', [e2e.system.customer.username]);
    await catalog.query(
      `UPDATE aged_leads SET sold_to_user_id = $2, sold_order_id = $3, sold_at = now() - interval '3 days', sold_price_cents = 250, sold_age_range = '60-90'
        WHERE id = $1`,
      [earlier.id, rows[0]!.id, randomUUID()],
    );
  } finally {
    await catalog.end();
    await gateway.end();
  }
  return { optOut, duplicate };
}

/** The logged-in page's agent buys the leads with the sandbox card, as the market's dialog does. */
async function buy(page: Page, leads: NewAgedLead[]) {
  const reserved = await page.request.post('/api/bulk-purchase-leads', { headers: XHR, data: { leadIds: leads.map((l) => l.id) } });
  expect(reserved.status()).toBe(201);
  const { clientSecret } = (await reserved.json()) as { clientSecret: string };
  const card = { clientSecret, cardNumber: '4242 4242 4242 4242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };
  expect((await page.request.post('/api/payments/sandbox/confirm', { headers: XHR, data: card })).status()).toBe(200);
}

async function checkPage(page: Page, name: string) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  // Nor does a table scroll inside its box: every column (the price paid too) is in view.
  const tooWide = await page.evaluate(() =>
    [...document.querySelectorAll('table')].filter((t) => t.scrollWidth > (t.parentElement?.clientWidth ?? Infinity) + 1).map((t) => `${t.className}: ${t.scrollWidth} in ${t.parentElement?.clientWidth}`),
  );
  expect(tooWide).toEqual([]);
}

describe('TCPA guardrails, as an agent and an admin use them', () => {
  for (const [width, height, state, areaCode] of [
    [1280, 800, 'KS', '316'],
    [390, 844, 'NE', '402'],
  ] as const) {
    it(`at ${width} px: an opted-out lead is marked Do not call and e-mailed, a duplicate is returned and credited, the evidence pack downloads`, async () => {
      const { page, system } = e2e;
      await page.setViewportSize({ width, height });
      const { optOut, duplicate } = await leadsFor(state, areaCode, String(width));
      await logIn(page, system.customer.username, system.customer.password, '/dashboard');
      await buy(page, [optOut, duplicate]);
      await expect
        .poll(async () => ((await (await page.request.get(`/api/my-leads?filter=${state}`)).json()) as { total: number }).total, { timeout: 20_000 })
        .toBe(3);

      // The admin suppresses the first lead's phone from the Suppression List.
      const adminContext = await e2e.browser.newContext({ baseURL: system.url, viewport: { width, height } });
      const admin = await adminContext.newPage();
      try {
        await logIn(admin, system.admin.username, system.admin.password);
        await admin.waitForURL((url) => url.pathname !== '/login');
        await admin.goto('/admin?tab=upload-aged-leads');
        const form = admin.getByRole('form', { name: 'Suppress a phone' });
        await form.getByLabel('Phone').fill(optOut.phone);
        await form.getByLabel('Reason').fill('Asked not to be called again, by phone');
        await form.getByRole('button', { name: 'Suppress Phone' }).click();
        await admin.getByText(/suppressed$/).first().waitFor();
      } finally {
        await adminContext.close();
      }

      // My Leads marks it, without a call link; the e-mail tells the agent to stop.
      await page.goto(`/dashboard?view=my-leads`);
      await page.getByRole('heading', { name: 'My Leads', level: 1 }).waitFor();
      const optedOutRow = page.getByRole('row').filter({ hasText: optOut.name });
      const mark = optedOutRow.getByTestId('do-not-call');
      await mark.waitFor();
      expect(await mark.textContent()).toMatch(/^Do not call — opted out on \d{2}\/\d{2}\/\d{4}$/);
      expect(await optedOutRow.getByRole('link', { name: /\(\d{3}\) \d{3}-\d{4}/ }).count()).toBe(0);
      await checkPage(page, `tcpa-my-leads-do-not-call-${width}`);
      const notices = () =>
        mailMatching(system.mailDir, (m) => m.includes(`To: ${system.customer.email}`) && /^Subject: Stop contacting/m.test(m) && m.includes(optOut.name));
      await expect.poll(async () => (await notices()).length, { timeout: 30_000 }).toBe(1);
      const [notice] = await notices();
      expect(notice).toMatch(/^Subject: Stop contacting a lead: the number opted out$/m);

      // The duplicate is returned and credited at once.
      await page.getByRole('button', { name: `Return lead: ${duplicate.name}` }).click();
      const dialog = page.getByRole('dialog', { name: `Return ${duplicate.name}` });
      await dialog.getByLabel('Reason').selectOption({ label: 'Duplicate of a lead I already bought' });
      await dialog.getByRole('button', { name: 'Return Lead' }).click();
      await dialog.getByText('Returned — $2.50 refunded').waitFor();
      await checkPage(page, `tcpa-return-credited-${width}`);
      await dialog.getByRole('button', { name: 'Done' }).click();

      // The evidence pack of the opted-out lead downloads: one zip, a PDF and the JSON with its consent.
      const [download] = await Promise.all([page.waitForEvent('download'), optedOutRow.getByTestId('evidence-link').click()]);
      expect(download.suggestedFilename()).toBe(`evidence-lead-${optOut.id}.zip`);
      const files = unzipFiles(new Uint8Array(await readFile((await download.path())!)));
      expect(Object.keys(files).sort()).toEqual(['evidence.json', 'evidence.pdf']);
      expect(Buffer.from(files['evidence.pdf']!.slice(0, 5)).toString('latin1')).toBe('%PDF-');
      const pack = JSON.parse(Buffer.from(files['evidence.json']!).toString('utf8')) as { kind: string; consent: { certificate: string | null }; sale: { priceCents: number } };
      expect(pack.kind).toBe('lead');
      expect(pack.consent.certificate).toBe(optOut.consentCertificate);
      expect(pack.sale.priceCents).toBe(250);
      await page.context().clearCookies();
    });
  }
});
