import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { logIn, seriousViolations, useE2E, type RunningSystem } from './harness';

/**
 * Upload Aged Leads end to end (issue 13): an admin downloads the template, uploads a CSV of
 * aged leads (good rows with consent, a few bad ones, a duplicate), watches the bar to 'Upload
 * Complete!', downloads the report of rejected rows, and the leads are in an agent's market with
 * 'Consent on file'. Then the suppression list and Undo take leads off sale again. The importer
 * worker runs beside the catalog (the harness starts it); axe finds nothing serious on the tab.
 */
const e2e = useE2E();
const DAY = 86_400_000;
const COLUMNS = ['Name', 'Phone', 'Email', 'State', 'Zip', 'Form Fill Time', 'Source', 'Consent Certificate', 'Consent Time', 'Consent IP'];
const STATES = ['TX', 'FL', 'OH', 'GA', 'AZ', 'NC'];

async function openUploadTab(page: Page) {
  await page.getByRole('tab', { name: 'Upload Aged Leads' }).click();
  await page.waitForURL((url) => url.searchParams.get('tab') === 'upload-aged-leads');
  await page.getByRole('heading', { name: 'Upload Aged Leads', level: 2 }).waitFor();
}

interface LeadFile {
  name: string;
  csv: string;
  phones: string[];
  /** Spreadsheet rows (header = 1) refused, with the column each is refused on. */
  bad: Array<{ row: number; column: string }>;
  good: number;
  duplicates: number;
}

const quote = (cell: string) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);

/**
 * A vendor-like file: `good` leads 35 to 95 days old in one area code, each with its consent
 * certificate, time and IP; a bad phone, an unknown state and a lead too old to sell; and one
 * duplicate (the first lead's phone and form-fill day again).
 */
function leadFile(name: string, areaCode: string, good: number): LeadFile {
  const now = Date.now();
  const rows: string[][] = [];
  const phones: string[] = [];
  for (let i = 0; i < good; i++) {
    const phone = `${areaCode}555${String(1000 + i * 37).padStart(4, '0')}`;
    phones.push(phone);
    // Noon UTC, away from day edges in the business time zone.
    const fill = new Date(Math.floor(now / DAY) * DAY - (35 + i * 5) * DAY + 12 * 3_600_000);
    rows.push([
      `Imported${String.fromCharCode(65 + i)} Lead${i}`,
      `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`,
      i % 3 === 0 ? '' : `imported.${areaCode}.${i}@example.com`,
      STATES[i % STATES.length]!,
      String(30_000 + i),
      fill.toISOString(),
      'Facebook final expense form',
      `https://cert.trustedform.com/${String(i).padStart(40, '0')}`,
      new Date(fill.getTime() + 5_000).toISOString(),
      `203.0.113.${10 + i}`,
    ]);
  }
  const bad: LeadFile['bad'] = [];
  const insert = (at: number, row: string[], column: string) => {
    rows.splice(at, 0, row);
    for (const b of bad) if (b.row >= at + 2) b.row += 1;
    bad.push({ row: at + 2, column });
  };
  const base = [...rows[1]!];
  insert(2, Object.assign([...base], { 0: 'Broken Phone', 1: '555-01' }), 'Phone');
  insert(5, Object.assign([...base], { 0: 'Lost Island', 1: `(${areaCode}) 555-9001`, 3: 'Atlantis' }), 'State');
  insert(8, Object.assign([...base], { 0: 'Too Old', 1: `(${areaCode}) 555-9002`, 5: new Date(now - 200 * DAY).toISOString() }), 'Form Fill Time');
  // The same phone on the same form-fill day as the first lead: skipped as a duplicate.
  rows.push(Object.assign([...rows[0]!], { 0: 'Imported Again' }));
  const csv = [COLUMNS.join(','), ...rows.map((row) => row.map(quote).join(','))].join('\r\n') + '\r\n';
  return { name, csv, phones, bad: bad.sort((a, b) => a.row - b.row), good, duplicates: 1 };
}

/** Chooses the file in the picker and uploads it; resolves when the import's panel shows 'Upload Complete!'. */
async function uploadAndWatch(page: Page, file: LeadFile) {
  await page.getByLabel('CSV file').setInputFiles({ name: file.name, mimeType: 'text/csv', buffer: Buffer.from(file.csv, 'utf8') });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const panel = page.getByTestId('current-import');
  await panel.getByRole('heading', { name: new RegExp(file.name.replace('.', '\\.')) }).waitFor();
  await page.waitForURL((url) => /^[0-9a-f-]{36}$/.test(url.searchParams.get('import') ?? ''));
  // The bar, by role, until the importer is done: 3 seconds of banner are enough for a poll a second.
  await panel.getByRole('progressbar').waitFor();
  await panel.getByText('Upload Complete!', { exact: true }).waitFor({ timeout: 30_000 });
  return panel;
}

/** The agent's market filtered to one area code: how many leads, and how many say 'Consent on file'. */
async function agentMarket(system: RunningSystem, page: Page, areaCode: string) {
  await logIn(page, system.customer.username, system.customer.password, '/dashboard');
  await page.getByRole('heading', { name: 'Buy Aged Leads', level: 1 }).waitFor();
  await page.getByLabel('Filter by state, area code or zip code').fill(areaCode);
}

describe('Upload Aged Leads', () => {
  it("when an admin uploads a CSV, then the bar runs to 'Upload Complete!', the report lists the refused rows, and an agent finds the leads with 'Consent on file'", async () => {
    const { page, system, browser } = e2e;
    const file = leadFile('e2e-aged-leads.csv', '659', 12);

    await logIn(page, system.admin.username, system.admin.password, '/admin');
    await openUploadTab(page);
    await page.getByText('No imports yet. Upload a CSV file above.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // The template: the header and one example row, as a download.
    const [template] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download Template' }).click()]);
    expect(template.suggestedFilename()).toMatch(/\.csv$/);
    const templateLines = (await readFile(await template.path(), 'utf8')).replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    expect(templateLines[0]).toBe(COLUMNS.join(','));
    expect(templateLines).toHaveLength(2);

    // Upload, then the bar to its end.
    const panel = await uploadAndWatch(page, file);
    const rows = file.good + file.bad.length + file.duplicates;
    expect(await panel.getByTestId('rows-read').textContent()).toBe(`${rows} of ${rows}`);
    expect(await panel.getByTestId('rows-imported').textContent()).toBe(String(file.good));
    expect(await panel.getByTestId('rows-rejected').textContent()).toBe(String(file.bad.length));
    expect(await panel.getByTestId('rows-duplicate').textContent()).toBe(String(file.duplicates));
    const bar = panel.getByRole('progressbar');
    expect(await bar.getAttribute('aria-valuenow')).toBe(String(rows));
    expect(await bar.getAttribute('aria-valuemax')).toBe(String(rows));
    expect(await seriousViolations(page)).toEqual([]);
    await panel.getByText('Upload Complete!').waitFor({ state: 'detached', timeout: 6_000 });

    // The report of rejected rows: one line per problem, by spreadsheet row and column.
    const [report] = await Promise.all([page.waitForEvent('download'), panel.getByRole('link', { name: 'Download report of rejected rows' }).click()]);
    const reportLines = (await readFile(await report.path(), 'utf8')).replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    expect(reportLines[0]).toBe('Row,Column,Message');
    const refused = reportLines.slice(1).map((line) => {
      const [, row, column] = /^(\d+),"?([^",]*)"?,/.exec(line) ?? [];
      return { row: Number(row), column };
    });
    expect(refused).toEqual(file.bad.map((b) => ({ row: b.row, column: b.column })));

    // A reload comes back to the import (it is in the URL), without the banner; it is in Past Imports.
    await page.reload();
    await page.getByTestId('current-import').getByText('Import finished.').waitFor();
    expect(await page.getByText('Upload Complete!').count()).toBe(0);
    const past = page.getByTestId('import-row').filter({ hasText: file.name });
    await past.getByText('Done', { exact: true }).waitFor();
    // Who ran it, as the catalog knows them (the admin's username).
    expect(await past.textContent()).toContain(`By ${system.admin.username} · `);

    // The agent, in a browser of their own, finds the leads with their consent.
    const agentContext = await browser.newContext({ baseURL: system.url });
    try {
      const agentPage = await agentContext.newPage();
      await agentMarket(system, agentPage, '659');
      await agentPage.getByText(`${file.good} leads available`).waitFor();
      await agentPage.getByText('Consent on file').first().waitFor();
      expect(await agentPage.getByText('Consent on file').count()).toBe(file.good);
    } finally {
      await agentContext.close();
    }
  }, 120_000);

  it('when a file is refused, a phone is suppressed and an import is undone, then the tab says so and the leads leave the market', async () => {
    const { page, system, browser } = e2e;
    await page.setViewportSize({ width: 390, height: 844 });
    await logIn(page, system.admin.username, system.admin.password, '/admin');
    await openUploadTab(page);

    // A file without a Phone column: the server's words, under the picker and in the toast.
    await page.getByLabel('CSV file').setInputFiles({ name: 'no-phone.csv', mimeType: 'text/csv', buffer: Buffer.from('Name,State\nJane Smith,TX\n') });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Failed to bulk upload leads', { exact: true }).waitFor();
    const alert = page.locator('.lead-imports__file [role="alert"]');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/Phone/);

    const file = leadFile('e2e-second-batch.csv', '628', 5);
    await uploadAndWatch(page, file);

    // Suppress the first lead's phone: its unsold lead leaves the market at once.
    const suppressions = page.getByRole('region', { name: 'Suppression List' });
    await suppressions.getByLabel('Phone', { exact: true }).fill(file.phones[0]!);
    await suppressions.getByLabel('Reason', { exact: true }).fill('Asked not to be called (e2e)');
    await suppressions.getByRole('button', { name: 'Suppress Phone' }).click();
    await page.getByText(/^\(628\) 555-1000 suppressed$/).waitFor();
    await page.getByText(/^1 lead withdrawn;/).waitFor();
    await suppressions.getByLabel('Search suppressed phones').fill('628');
    await suppressions.getByRole('button', { name: 'Search', exact: true }).click();
    await suppressions.getByTestId('suppression-row').filter({ hasText: '(628) 555-1000' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Undo the import, through its confirmation: the rest of its leads are withdrawn.
    const past = page.getByTestId('import-row').filter({ hasText: file.name });
    await past.getByRole('button', { name: `Undo import of ${file.name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Undo Import' });
    await dialog.getByText(/withdraws the leads of this import that are not sold yet/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Undo Import' }).click();
    await dialog.waitFor({ state: 'detached' });
    await past.getByText(/^Undone: \d+ leads? withdrawn$/).waitFor();
    expect(await past.getByRole('button', { name: /Undo/ }).count()).toBe(0);

    const agentContext = await browser.newContext({ baseURL: system.url });
    try {
      const agentPage = await agentContext.newPage();
      await agentMarket(system, agentPage, '628');
      await agentPage.getByText('No leads match this filter.').waitFor();
    } finally {
      await agentContext.close();
    }

    // Off the list again, through its confirmation.
    const row = suppressions.getByTestId('suppression-row').filter({ hasText: '(628) 555-1000' });
    await row.getByRole('button', { name: 'Remove (628) 555-1000 from the suppression list' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove from Suppression List' });
    await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
    await suppressions.getByText('No suppressed phone matches “628”.').waitFor();
  }, 120_000);
});
