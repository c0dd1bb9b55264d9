/**
 * Screenshots of sign-in, the password reset, the dashboard, admin, the landing page and 404 at
 * 390 px and 1280 px wide (`make screenshots NAME=sign-in`).
 */
import type { Page } from 'playwright-core';
import { submitLogin, waitForResetLink, type Account } from '../harness';
import { openPage, startShots, WIDTHS } from './kit';

const run = await startShots('sign-in');
const { system } = run;

async function shoot(name: string, pathname: string, as?: Account, prepare?: (page: Page) => Promise<void>) {
  for (const width of WIDTHS) {
    const { context, page, shot } = await openPage(run, width);
    if (as) {
      await page.goto('/login');
      await submitLogin(page, as.username, as.password);
      await page.waitForURL((url) => url.pathname !== '/login');
    }
    await page.goto(pathname, { waitUntil: 'networkidle' });
    if (prepare) await prepare(page);
    await shot(name);
    await context.close();
  }
}

try {
  await shoot('login', '/login');
  await shoot('login-errors', '/login', undefined, async (page) => {
    await page.getByRole('button', { name: 'Sign In' }).click();
  });
  await shoot('login-failed', '/login', undefined, async (page) => {
    await submitLogin(page, 'someone', 'wrong password');
    await page.getByText('Login Failed', { exact: true }).waitFor();
  });
  await shoot('forgot-password', '/forgot-password');
  await shoot('forgot-password-sent', '/forgot-password', undefined, async (page) => {
    await page.getByLabel('Email', { exact: true }).fill('someone@example.com');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
  });
  await shoot('reset-password-no-token', '/reset-password');
  await shoot('reset-password-invalid', '/reset-password?token=nope');
  await fetch(`${system.url}/api/forgot-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: system.customer.email }),
  });
  const link = new URL(await waitForResetLink(system.mailDir, system.customer.email));
  await shoot('reset-password-form', link.pathname + link.search, undefined, async (page) => {
    await page.getByLabel('New Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Reset Password' }).click();
  });
  await shoot('dashboard', '/dashboard', system.customer);
  await shoot('admin', '/admin', system.admin);
  await shoot('not-found', '/no-such-page');
  await shoot('landing', '/');
  await shoot('coming-soon', '/premium-pricing');
} finally {
  await run.finish();
}
