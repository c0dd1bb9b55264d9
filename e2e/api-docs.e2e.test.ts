import { publicRoutes } from '@warmline/contracts';
import { describe, expect, it } from 'vitest';
import { useE2E } from './harness';

/**
 * Issue 16, in the browser: the API reference at /api/docs renders every route of the manifest
 * from /api/openapi.json under the site's unchanged Content-Security-Policy (no violation, no
 * request to another origin), and "Try it out" calls the API.
 */

const e2e = useE2E();

describe('the API reference in the browser', () => {
  it('when /api/docs is opened, then every route is listed, nothing is blocked and nothing comes from another site', async () => {
    const { page, system } = e2e;
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} blocked ${event.blockedURI || '(inline)'}`));
    });
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(system.url) && !url.startsWith('data:')) elsewhere.push(url);
    });

    await page.goto('/api/docs');
    await page.getByRole('heading', { name: /WarmLine API/ }).waitFor();
    await expect.poll(() => page.locator('.opblock').count(), { timeout: 20_000 }).toBe(publicRoutes.length);

    // Try it out: the public site configuration, answered by the gateway through the page.
    const operation = page.locator('#operations-gateway-getSiteConfig');
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();
    const status = operation.locator('.live-responses-table .response .response-col_status').first();
    await expect.poll(() => status.innerText().catch(() => ''), { timeout: 15_000 }).toMatch(/^200/);

    expect(await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [])).toEqual([]);
    expect(problems).toEqual([]);
    expect(elsewhere).toEqual([]);
  });
});
