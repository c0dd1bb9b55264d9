/**
 * Screenshots of the sign-in's second step and the account settings at 390 px and 1280 px:
 * an admin's forced enrolment (as in production), the code step, the dashboard's Account &
 * Security view with its messages. Not a test; run it with
 * `make screenshots NAME=account-security`.
 */
import type { Page } from 'playwright-core';
import { createPool } from '@warmline/platform';
import { createAccount } from '@warmline/gateway/domain/users';
import { totpCode, totpStep } from '@warmline/gateway/domain/totp';
import { fromBase32 } from '@warmline/gateway/test/totp-secret';
import { startShots, viewportFor, WIDTHS } from './kit';

const run = await startShots('account-security', { gatewayEnv: { TWO_FACTOR_REQUIRED_FOR_ADMINS: 'true' } });
const { system, browser } = run;
const pool = createPool(system.databaseUrl, 'gateway');
try {
  for (const width of WIDTHS) {
    const shot = (page: Page, name: string) => page.screenshot({ path: `${run.out}/${name}-${width}.png`, fullPage: true });
    const viewport = viewportFor(width);
    const admin = await createAccount(pool, { username: `shot_admin_${width}`, email: `shot.admin.${width}@example.com`, password: 'admin shots password', isAdmin: true, firstName: 'Ada', lastName: 'Admin' });
    const agent = await createAccount(pool, { username: `shot_agent_${width}`, email: `shot.agent.${width}@example.com`, password: 'agent shots password', firstName: 'Carla', lastName: 'Customer' });

    // An admin's first login: enrolment before anything.
    let context = await browser.newContext({ baseURL: system.url, viewport });
    let page = await context.newPage();
    await page.goto('/login', { waitUntil: 'networkidle' });
    await page.getByLabel('Username').fill(admin.username);
    await page.getByLabel('Password', { exact: true }).fill('admin shots password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).waitFor();
    await shot(page, 'login-enrol-intro');
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await page.getByAltText('QR code for your authenticator app').waitFor();
    await shot(page, 'login-enrol-qr');
    const secret = fromBase32(((await page.locator('.two-factor__secret code').textContent()) ?? '').replace(/\s/g, ''));
    await page.getByLabel('Code from the app').fill('000000');
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    await page.getByText('Invalid code').waitFor();
    await shot(page, 'login-enrol-wrong-code');
    await page.getByLabel('Code from the app').fill(totpCode(secret, totpStep()));
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    await page.waitForURL((url) => url.pathname === '/admin');
    await shot(page, 'admin-after-enrolment');
    await page.goto('/account-security', { waitUntil: 'networkidle' });
    await page.getByText('Admin accounts must keep two-factor authentication on.').waitFor();
    await shot(page, 'admin-account-security');
    await context.close();

    // Later logins: the code step.
    context = await browser.newContext({ baseURL: system.url, viewport });
    page = await context.newPage();
    await page.goto('/login', { waitUntil: 'networkidle' });
    await page.getByLabel('Username').fill(admin.username);
    await page.getByLabel('Password', { exact: true }).fill('admin shots password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('heading', { name: 'Two-Factor Authentication' }).waitFor();
    await shot(page, 'login-code');
    await page.getByLabel('Code').fill('123');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Invalid code').waitFor();
    await shot(page, 'login-code-wrong');
    await page.getByLabel('Code').fill(totpCode(secret, totpStep() + 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => url.pathname === '/admin');
    await context.close();

    // An agent's dashboard: Account & Security.
    context = await browser.newContext({ baseURL: system.url, viewport });
    page = await context.newPage();
    await page.goto('/login', { waitUntil: 'networkidle' });
    await page.getByLabel('Username').fill(agent.username);
    await page.getByLabel('Password', { exact: true }).fill('agent shots password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.goto('/dashboard?view=account', { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Change Password' }).waitFor();
    await shot(page, 'dashboard-account');
    await page.getByLabel('Current Password', { exact: true }).fill('not my password');
    await page.getByLabel('New Password', { exact: true }).fill('password1');
    await page.getByLabel('Confirm New Password', { exact: true }).fill('password1');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText('This password is too common').waitFor();
    await page.getByLabel('New Password', { exact: true }).fill('a quiet harbor at dusk');
    await page.getByLabel('Confirm New Password', { exact: true }).fill('a quiet harbor at dusk');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText('Current password is incorrect').waitFor();
    await shot(page, 'dashboard-account-errors');
    await page.getByLabel('Current password', { exact: true }).fill('agent shots password');
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await page.getByAltText('QR code for your authenticator app').waitFor();
    await shot(page, 'dashboard-account-enrol');
    await context.close();
  }
} finally {
  await pool.end();
  await run.finish();
}
