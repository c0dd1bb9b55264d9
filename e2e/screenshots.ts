/**
 * Screenshots of the account screens, dashboard, admin and 404 at 390 px and 1280 px wide,
 * for looking at the SPA as a person would. Not a test; run it with
 *   npx tsx e2e/screenshots.ts
 * and open test-results/screens/*.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, startSystem, submitLogin, TEST_RESULTS_DIR, waitForResetLink, type Account, type RunningSystem } from './harness';

const OUT = path.join(TEST_RESULTS_DIR, 'screens');
const WIDTHS = [390, 1280];

async function shoot(browser: Browser, system: RunningSystem, name: string, pathname: string, as?: Account, prepare?: (page: import('playwright-core').Page) => Promise<void>) {
  for (const width of WIDTHS) {
    const context = await browser.newContext({ baseURL: system.url, viewport: { width, height: width < 600 ? 844 : 800 } });
    const page = await context.newPage();
    if (as) {
      await page.goto('/login');
      await submitLogin(page, as.username, as.password);
      await page.waitForURL((url) => url.pathname !== '/login');
    }
    await page.goto(pathname, { waitUntil: 'networkidle' });
    if (prepare) await prepare(page);
    await page.screenshot({ path: path.join(OUT, `${name}-${width}.png`), fullPage: true });
    await context.close();
  }
}

const system = await startSystem();
const browser = await launchBrowser();
try {
  mkdirSync(OUT, { recursive: true });
  await shoot(browser, system, 'login', '/login');
  await shoot(browser, system, 'login-errors', '/login', undefined, async (page) => {
    await page.getByRole('button', { name: 'Sign In' }).click();
  });
  await shoot(browser, system, 'login-failed', '/login', undefined, async (page) => {
    await submitLogin(page, 'someone', 'wrong password');
    await page.getByText('Login Failed', { exact: true }).waitFor();
  });
  await shoot(browser, system, 'forgot-password', '/forgot-password');
  await shoot(browser, system, 'forgot-password-sent', '/forgot-password', undefined, async (page) => {
    await page.getByLabel('Email', { exact: true }).fill('someone@example.com');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
  });
  await shoot(browser, system, 'reset-password-no-token', '/reset-password');
  await shoot(browser, system, 'reset-password-invalid', '/reset-password?token=nope');
  await fetch(`${system.url}/api/forgot-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: system.customer.email }),
  });
  const link = new URL(await waitForResetLink(system.mailDir, system.customer.email));
  await shoot(browser, system, 'reset-password-form', link.pathname + link.search, undefined, async (page) => {
    await page.getByLabel('New Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Reset Password' }).click();
  });
  await shoot(browser, system, 'dashboard', '/dashboard', system.customer);
  await shoot(browser, system, 'admin', '/admin', system.admin);
  await shoot(browser, system, 'not-found', '/no-such-page');
  await shoot(browser, system, 'landing', '/');
  await shoot(browser, system, 'coming-soon', '/premium-pricing');
  console.log(`Screenshots in ${OUT}`);
} finally {
  await browser.close();
  await system.stop();
}
