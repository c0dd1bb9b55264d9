/**
 * Screenshots of Upload Aged Leads (issue 13) at 390 px and 1280 px wide, for looking at the tab
 * as an admin would: empty, a refused file, an import running, 'Upload Complete!', the past
 * imports with one undone, the Undo confirmation and the suppression list. Not a test; run it with
 * `make screenshots NAME=lead-imports`.
 */
import type { Page } from 'playwright-core';
import type { LeadImportView } from '@warmline/contracts/lead-imports';
import { closeToasts, openPage, startShots, WIDTHS } from './kit';
const DAY = 86_400_000;
const HEADER = 'Name,Phone,Email,State,Zip,Form Fill Time,Source,Consent Certificate,Consent Time,Consent IP';

/** `rows` leads 35 to 95 days old in an area code, every 40th with a bad phone and every 50th a duplicate. */
function leadCsv(areaCode: string, rows: number): string {
  const lines = [HEADER];
  const fills: string[] = [];
  for (let i = 0; i < rows; i++) {
    const fill = new Date(Math.floor(Date.now() / DAY) * DAY - (35 + (i % 60)) * DAY + 12 * 3_600_000).toISOString();
    fills.push(fill);
    const phone = i % 40 === 39 ? '555-01' : `(${areaCode}) ${String(200 + Math.floor(i / 10_000)).padStart(3, '0')}-${String(i % 10_000).padStart(4, '0')}`;
    const again = i % 50 === 49;
    lines.push(
      [
        again ? 'Repeat Lead' : `Lead${i} Person${i}`,
        again ? `(${areaCode}) 200-0000` : phone,
        i % 3 ? `lead${i}@example.com` : '',
        ['TX', 'FL', 'OH', 'GA'][i % 4],
        String(30_000 + (i % 9_000)),
        again ? fills[0] : fill,
        'Facebook final expense form',
        `https://cert.trustedform.com/${String(i).padStart(40, '0')}`,
        fill,
        '203.0.113.7',
      ].join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}

async function upload(page: Page, name: string, csv: string) {
  await page.getByLabel('CSV file').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
}

const run = await startShots('lead-imports');
const { system } = run;
try {
  for (const width of WIDTHS) {
    const { context, page, shot: shotAsIs } = await openPage(run, width, { as: system.admin, landing: '/admin' });
    const shot = async (name: string, fullPage = true) => {
      await closeToasts(page);
      await shotAsIs(name, fullPage);
    };
    await page.goto('/admin?tab=upload-aged-leads');
    await page.getByRole('heading', { name: 'Past Imports' }).waitFor();
    await page.getByText(/No imports yet|Past Imports/).first().waitFor();
    await shot('tab');

    await upload(page, 'no-phone-column.csv', 'Name,State\nJane Smith,TX\n');
    await page.getByText('Failed to bulk upload leads', { exact: true }).waitFor();
    await shot('refused');

    // The importer takes these files in about a second, too fast to catch the bar half-way: the
    // running shot replays the import's answer from 30 %, 4 % more a poll (the real import, its
    // counts scaled), so the rate and time left are measured as they would be.
    const area = width < 600 ? '659' : '628';
    let frozen = true;
    let polls = 0;
    await page.route('**/api/admin/lead-imports/*', async (route) => {
      const response = await route.fetch();
      if (!frozen || route.request().method() !== 'GET' || /\.csv$/.test(route.request().url())) return route.fulfill({ response });
      const view = (await response.json()) as LeadImportView;
      const share = Math.min(0.9, 0.3 + 0.04 * polls++);
      const part = (n: number) => Math.floor(n * share);
      const running: LeadImportView = {
        ...view,
        status: 'running',
        finishedAt: null,
        rowsRead: part(view.rowsTotal),
        rowsImported: part(view.rowsImported),
        rowsRejected: part(view.rowsRejected),
        rowsDuplicate: part(view.rowsDuplicate),
        bytesRead: part(view.fileBytes),
      };
      return route.fulfill({ response, json: running });
    });
    await upload(page, `vendor-november-final-expense-${width}.csv`, leadCsv(area, 4_000));
    const panel = page.getByTestId('current-import');
    await panel.getByText('Importing leads…').waitFor();
    await page.waitForTimeout(3_500); // a few polls, so the rate and time left are measured
    await shot('running');
    frozen = false;
    await panel.getByText('Upload Complete!').waitFor({ timeout: 30_000 });
    await shot('complete');
    await page.unroute('**/api/admin/lead-imports/*');

    // A second import, undone, so the list shows both kinds; then the Undo confirmation of the first.
    await upload(page, `september-${width}.csv`, leadCsv(width < 600 ? '417' : '573', 300));
    await panel.getByText('Upload Complete!').waitFor({ timeout: 30_000 });
    const september = page.getByTestId('import-row').filter({ hasText: `september-${width}.csv` });
    await september.getByRole('button', { name: /Undo/ }).click();
    await page.getByRole('dialog', { name: 'Undo Import' }).getByRole('button', { name: 'Undo Import' }).click();
    await september.getByText(/^Undone:/).waitFor();
    await page.getByTestId('import-row').filter({ hasText: `vendor-november-final-expense-${width}.csv` }).getByRole('button', { name: /Undo/ }).click();
    await page.getByRole('dialog', { name: 'Undo Import' }).waitFor();
    await shot('undo', false);
    await page.keyboard.press('Escape');

    const suppressions = page.getByRole('region', { name: 'Suppression List' });
    for (const [phone, reason] of [
      [`(${area}) 200-0001`, 'Asked not to be called, by phone on 11/20/2026'],
      [`(${area}) 200-0002`, 'Written opt-out request forwarded by the vendor; do not contact on any channel'],
    ] as const) {
      await suppressions.getByLabel('Phone', { exact: true }).fill(phone);
      await suppressions.getByLabel('Reason', { exact: true }).fill(reason);
      await suppressions.getByRole('button', { name: 'Suppress Phone' }).click();
      await suppressions.getByTestId('suppression-row').filter({ hasText: phone }).waitFor();
    }
    // The banner's 3 seconds are over by now on a slow machine only: the lists without it.
    await panel.getByText('Upload Complete!').waitFor({ state: 'detached' });
    await shot('lists');
    await context.close();
  }
} finally {
  await run.finish();
}
