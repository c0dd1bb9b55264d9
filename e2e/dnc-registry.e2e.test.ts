import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { logIn, seriousViolations, useE2E } from './harness';

/**
 * The Compliance tab end to end (issue 24 item 2): an admin uploads a national DNC registry file,
 * sees a file without a number refused in words, watches a good one load to Done with its counts
 * and area codes, and the uploads list shows it — axe finds nothing serious at 1280 and 390 px.
 */
const e2e = useE2E();

async function openCompliance(page: Page) {
  await page.getByRole('tab', { name: 'Compliance' }).click();
  await page.waitForURL((url) => url.searchParams.get('tab') === 'compliance');
  await page.getByRole('heading', { name: 'National Do-Not-Call Registry', level: 2 }).waitFor();
}

async function choose(page: Page, name: string, text: string) {
  await page.getByLabel('Registry file').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text, 'latin1') });
  await page.getByRole('button', { name: 'Upload registry file' }).click();
}

describe('Compliance: the national DNC registry', () => {
  it('when an admin uploads registry files, then a bad one is refused in words and a good one loads to Done, axe-clean at 1280 and 390 px', async () => {
    const { page, system } = e2e;
    await page.setViewportSize({ width: 1280, height: 900 });
    await logIn(page, system.admin.username, system.admin.password, '/admin');
    await openCompliance(page);
    await page.getByText('No registry uploads yet. Upload a registry file above.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await choose(page, 'not-a-registry.txt', 'name,phone\nJane,abc\n');
    await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/no valid phone number: each line must hold one ten-digit/);

    const numbers = Array.from({ length: 2_000 }, (_, i) => `1-659-${String(200 + Math.floor(i / 10_000)).padStart(3, '0')}-${String(i % 10_000).padStart(4, '0')}`);
    await choose(page, 'dnc-659.txt', `${numbers.join('\r\n')}\r\n\r\nnot a number\r\n`);
    await page.getByText(/^Done: 2,000 numbers are the registry of 1 area code as of \d{1,2}\/\d{1,2}\/\d{4}\.$/).waitFor({ timeout: 30_000 });
    const row = page.getByTestId('dnc-upload-row').filter({ hasText: 'dnc-659.txt' });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toMatch(/Lines read2,001Numbers loaded2,000Invalid lines1Area codes1/);
    await expect.poll(() => row.textContent()).toMatch(/Area codes: 659/);
    expect(await seriousViolations(page)).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByTestId('dnc-upload-row').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000);
});
