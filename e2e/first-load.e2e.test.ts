import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatUsd, PRICING_PAGE_IDS, PRICING_PAGES } from '@warmline/contracts/pricing';
import { useE2E } from './harness';

/**
 * Issue 16, item 4, in Chromium: the public pages arrive prerendered — readable, priced and
 * with this deployment's support phone before (and without) any JavaScript — and the SPA then
 * takes them over with no console error and no CSP violation. The headers (compression, cache,
 * CSP) are services/gateway/test/first-load.test.ts.
 */

const SUPPORT_PHONE = '(555) 246-8100 & Co';

const e2e = useE2E({ system: () => ({ gatewayEnv: { SUPPORT_PHONE } }) });

/** '$40' or '$37.50', as the pricing pages advertise a rate (web/src/features/pricing/format.ts). */
function rate(cents: number): string {
  return cents % 100 === 0 ? `$${(cents / 100).toLocaleString('en-US')}` : formatUsd(cents);
}
const RATES = PRICING_PAGE_IDS.map((id) => PRICING_PAGES[id].priceCents);

/** Console errors, page errors and CSP violations of the page, recorded from before its first script. */
async function watchProblems(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`CSP ${event.violatedDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return async () => [
    ...problems,
    ...(await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [])),
  ];
}

/** True once React has taken the page over: a click on an in-app link navigates without loading a document. */
async function navigatesInApp(page: Page, linkName: string, pathname: string): Promise<boolean> {
  await page.evaluate(() => {
    (window as unknown as { sameDocument: boolean }).sameDocument = true;
  });
  await page.getByRole('link', { name: linkName }).first().click();
  await page.waitForURL((url) => url.pathname === pathname);
  return page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);
}

describe('the public pages without JavaScript', () => {
  it('when the landing page is opened with JavaScript off, then its headline, prices and the configured support phone are there, styled', async () => {
    const context = await e2e.browser.newContext({ baseURL: e2e.system.url, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto('/');

      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Qualified prospects, transferred to your agents live');
      const text = (await page.locator('main').textContent()) ?? '';
      expect(text).toContain(`From ${rate(Math.max(...RATES))} down to ${rate(Math.min(...RATES))} per transfer`);
      expect(text).toContain(SUPPORT_PHONE);
      expect(await page.locator('a[href^="tel:"]').first().getAttribute('href')).toBe('tel:5552468100');
      // The landing page's own stylesheet came with the page: the hero is laid out, not bare HTML.
      const heroDisplay = await page.locator('.landing-hero__inner').evaluate((el) => getComputedStyle(el).display);
      expect(heroDisplay).not.toBe('block');
    } finally {
      await context.close();
    }
  });

  it('when /pricing is opened with JavaScript off, then its headline, every tier price and the configured support phone are there', async () => {
    const context = await e2e.browser.newContext({ baseURL: e2e.system.url, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto('/pricing');

      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Volume pricing for live transfers');
      const text = (await page.locator('main').textContent()) ?? '';
      for (const cents of RATES) expect(text).toContain(rate(cents));
      expect(text).toContain(SUPPORT_PHONE);
    } finally {
      await context.close();
    }
  });
});

describe('the public pages with JavaScript', () => {
  it.each([
    ['/', 'See volume pricing', '/pricing'],
    ['/pricing', 'Pricing', '/pricing'],
    ['/premium-pricing', 'Pricing', '/pricing'],
  ])('when %s is opened, then the SPA takes the prerendered page over with no console error and no CSP violation', async (start, link, target) => {
    const { page } = e2e;
    const problems = await watchProblems(page);

    await page.goto(start, { waitUntil: 'networkidle' });
    expect(await page.locator('#root').evaluate((root) => root.firstElementChild !== null)).toBe(true);
    expect(await navigatesInApp(page, link, target)).toBe(true);
    await page.getByRole('heading', { name: 'Volume pricing for live transfers' }).waitFor();
    expect(await page.locator('main').textContent()).toContain(SUPPORT_PHONE);

    expect(await problems()).toEqual([]);
  });
});
