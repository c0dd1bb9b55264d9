import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createPool } from '@warmline/platform/db/index';
import { GATEWAY_SCHEMA } from '@warmline/gateway/service';
import { createAccount } from '@warmline/gateway/domain/users';
import { logIn, seriousViolations, useE2E, type RunningSystem } from './harness';

/**
 * Go to Dashboard (issue 12 §3, docs/adr/0014-view-as.md) in Chromium: the admin's click opens the
 * agent's dashboard in a new tab, as the agent sees it, under a banner; a purchase there is refused
 * by the server; the admin's own tab stays the admin's; End viewing closes the tab; both ends are
 * in the audit log; axe finds nothing serious with the banner.
 */
const e2e = useE2E();

async function newAgent(system: RunningSystem) {
  const tag = randomBytes(4).toString('hex');
  const pool = createPool(system.databaseUrl, GATEWAY_SCHEMA);
  try {
    const spec = { username: `dana_${tag}`, password: `agent-password-${tag}`, email: `dana_${tag}@example.com`, firstName: 'Dana', lastName: 'Cole' };
    const user = await createAccount(pool, spec);
    return { id: user.id, ...spec };
  } finally {
    await pool.end();
  }
}

async function transferOrdersOf(system: RunningSystem, userId: string): Promise<number> {
  const pool = createPool(system.databaseUrl, 'orders');
  try {
    const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM transfer_orders WHERE user_id = $1', [userId]);
    return Number(rows[0]!.n);
  } finally {
    await pool.end();
  }
}

async function chooseState(page: Page, name: string, code: string) {
  await page.getByLabel('Search states').fill(name);
  await page.getByRole('checkbox', { name: `${name} (${code})` }).check();
}

describe('Go to Dashboard', () => {
  it("when an admin clicks Go to Dashboard, then a new tab shows the agent's dashboard read only under the banner, a purchase is refused, the admin's tab stays the admin's, and End viewing closes it", async () => {
    const { page, context, system } = e2e;
    const agent = await newAgent(system);

    await logIn(page, system.admin.username, system.admin.password, '/admin');
    await page.goto(`/admin?tab=user-management&users=${agent.username}`);
    const row = page.getByTestId('user-row').filter({ hasText: agent.email });
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      row.getByRole('button', { name: 'Go to Dashboard of Dana Cole' }).click(),
    ]);

    // The new tab: the agent's dashboard, the grant gone from the address bar.
    await tab.getByRole('status').filter({ hasText: 'Viewing as Dana Cole — read only' }).waitFor();
    await tab.waitForURL((url) => url.pathname === '/dashboard' && !url.searchParams.has('viewAs'));
    expect(await tab.getByTestId('current-user-name').textContent()).toBe('Dana Cole');
    await tab.getByRole('heading', { name: 'Welcome, Dana' }).waitFor();
    expect(await tab.getByTestId('view-as-time-left').textContent()).toMatch(/^(29|30) min left$/);
    expect(await seriousViolations(tab)).toEqual([]);

    // A purchase: the screen lets the agent try, the server refuses it, nothing is ordered.
    await tab.getByRole('link', { name: 'Buy Call Transfers' }).click();
    expect(await tab.getByTestId('live-transfer-price').textContent()).toBe('$35.00 per transfer');
    await tab.getByRole('button', { name: 'Order Call Transfers' }).click();
    await tab.getByLabel('Total transfers').fill('20');
    await tab.getByLabel('Transfers per day').fill('5');
    await tab.getByLabel('Transfer hours').fill('Mon-Fri 9am-5pm CST');
    await tab.getByLabel('Transfer phone').fill('(405) 555-0199');
    await chooseState(tab, 'Texas', 'TX');
    await tab.getByRole('button', { name: 'Continue to Payment' }).click();
    await tab.getByText('Read only while viewing as Dana Cole').first().waitFor();
    expect(await tab.getByRole('heading', { name: 'Complete Your Order' }).count()).toBe(0);
    expect(await transferOrdersOf(system, agent.id)).toBe(0);
    expect(await seriousViolations(tab)).toEqual([]);

    // The admin's own tab, same session: still the admin, still /admin.
    expect(new URL(page.url()).pathname).toBe('/admin');
    await page.reload();
    await page.getByRole('heading', { name: 'Admin Panel', level: 1 }).waitFor();
    const adminSelf = await page.evaluate(async () => (await (await fetch('/api/current-user')).json()) as { username: string; isAdmin: boolean });
    expect(adminSelf).toMatchObject({ username: system.admin.username, isAdmin: true });

    // End viewing: the tab it opened closes.
    await Promise.all([tab.waitForEvent('close'), tab.getByRole('button', { name: 'End viewing' }).click()]);

    await page.goto('/admin-audit-log');
    await page.getByRole('heading', { name: 'Audit Log', level: 1 }).waitFor();
    await page.getByRole('row').filter({ hasText: agent.email }).filter({ hasText: 'view_as.started' }).waitFor();
    await page.getByRole('row').filter({ hasText: agent.email }).filter({ hasText: 'view_as.ended' }).waitFor();
  });

  it('when the grant has ended while the tab is open, then the tab says viewing has ended and never shows the admin', async () => {
    const { page, context, system } = e2e;
    const agent = await newAgent(system);
    await logIn(page, system.admin.username, system.admin.password, '/admin');
    await page.goto(`/admin?tab=user-management&users=${agent.username}`);
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      page.getByTestId('user-row').filter({ hasText: agent.email }).getByRole('button', { name: 'Go to Dashboard of Dana Cole' }).click(),
    ]);
    await tab.getByRole('status').filter({ hasText: 'Viewing as Dana Cole — read only' }).waitFor();

    // The admin logs out in another tab of the same browser: the grant ends with the session.
    const other = await context.newPage();
    await other.goto('/api/logout');
    await other.waitForURL((url) => url.pathname === '/login');

    // Its next request learns the grant is over (a reload: the grant is this tab's, kept across reloads).
    await tab.reload();
    await tab.getByRole('heading', { name: 'Viewing has ended', level: 1 }).waitFor();
    expect(await tab.getByText('Dana Cole').count()).toBe(0);
    expect(await seriousViolations(tab)).toEqual([]);
  });
});
