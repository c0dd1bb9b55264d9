import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPool } from '@warmline/platform/db/index';
import { GATEWAY_SCHEMA } from '@warmline/gateway/service';
import { createAccount } from '@warmline/gateway/domain/users';
import { logIn, seriousViolations, useE2E, type RunningSystem } from './harness';

/**
 * The back office in the browser (issue 12): an admin finds an agent by phone, sets the agent's
 * price, and the agent sees it; the tabs live in the URL; a customer who types /admin lands on
 * /dashboard; axe finds nothing serious on the admin screens.
 */
const e2e = useE2E();

async function newAgent(system: RunningSystem, phone: string) {
  const tag = randomBytes(4).toString('hex');
  const pool = createPool(system.databaseUrl, GATEWAY_SCHEMA);
  try {
    const spec = { username: `dana_${tag}`, password: `agent-password-${tag}`, email: `dana_${tag}@example.com`, firstName: 'Dana', lastName: `Cole${tag}`, phone };
    const user = await createAccount(pool, spec);
    return { id: user.id, ...spec };
  } finally {
    await pool.end();
  }
}

describe('the admin back office', () => {
  it('when an admin finds an agent by phone and sets their price to 31.50, then the agent sees $31.50 in Buy Call Transfers and the audit log has it', async () => {
    const { page, system, browser } = e2e;
    const phoneDigits = `512${String(Date.now()).slice(-7)}`;
    const agent = await newAgent(system, `(${phoneDigits.slice(0, 3)}) ${phoneDigits.slice(3, 6)}-${phoneDigits.slice(6)}`);

    await logIn(page, system.admin.username, system.admin.password, '/admin');
    await page.getByRole('heading', { name: 'Admin Panel', level: 1 }).waitFor();
    for (const card of ['Total Users', 'New Sign-ups', 'Revenue', 'Open Transfer Orders']) await page.getByText(card, { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Blank search says why; then the phone typed another way finds the agent.
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Search text is required' }).waitFor();
    await page.getByLabel(/Search customers/).fill(`${phoneDigits.slice(0, 3)}.${phoneDigits.slice(3, 6)}.${phoneDigits.slice(6)}`);
    await page.getByLabel(/Search customers/).press('Enter');
    const results = page.getByRole('list', { name: /Results for/ });
    await results.getByText(agent.email, { exact: false }).waitFor();
    await results.getByRole('listitem').filter({ hasText: agent.email }).getByRole('button', { name: 'Open' }).click();

    // The User Management tab, in the URL, filtered to the agent.
    await page.waitForURL((url) => url.searchParams.get('tab') === 'user-management' && url.searchParams.get('users') === agent.username);
    const row = page.getByTestId('user-row').filter({ hasText: agent.email });
    expect(await row.getByTestId('user-price').textContent()).toBe('$35.00');
    await row.getByRole('button', { name: /Set Price/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Set Live Transfer Price' });
    await dialog.getByLabel('Price per transfer ($)').fill('-1');
    await dialog.getByRole('button', { name: 'Save Price' }).click();
    await dialog.getByText('Price must be at least 0').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByLabel('Price per transfer ($)').fill('31.50');
    await dialog.getByRole('button', { name: 'Save Price' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row.getByTestId('user-price').filter({ hasText: '$31.50' }).waitFor();

    // The tab is in the URL: a reload comes back to it; Back goes to where the admin was.
    await page.reload();
    await page.getByRole('tab', { name: 'User Management', selected: true }).waitFor();
    await page.getByRole('tab', { name: 'Upload Aged Leads' }).click();
    await page.waitForURL((url) => url.searchParams.get('tab') === 'upload-aged-leads');
    await page.getByRole('tabpanel').getByRole('heading', { name: 'Upload Aged Leads' }).waitFor();
    await page.getByRole('tab', { name: 'Test Campaigns' }).click();
    await page.waitForURL((url) => url.searchParams.get('tab') === 'test-campaigns');
    await page.getByRole('tab', { name: 'Test Campaigns', selected: true }).waitFor();
    await page.goBack();
    await page.getByRole('tab', { name: 'Upload Aged Leads', selected: true }).waitFor();
    await page.goBack();
    await page.getByRole('tab', { name: 'User Management', selected: true }).waitFor();
    // The search is in the URL too: its results are still there after the tab changes.
    await page.getByRole('list', { name: /Results for/ }).getByText(agent.email).waitFor();

    // The agent, in a browser of their own.
    const agentContext = await browser.newContext({ baseURL: system.url });
    try {
      const agentPage = await agentContext.newPage();
      await logIn(agentPage, agent.username, agent.password, '/dashboard');
      await agentPage.getByRole('link', { name: 'Buy Call Transfers' }).click();
      expect(await agentPage.getByTestId('live-transfer-price').textContent()).toBe('$31.50 per transfer');
    } finally {
      await agentContext.close();
    }

    await page.getByRole('link', { name: 'Audit Log' }).click();
    await page.getByRole('heading', { name: 'Audit Log', level: 1 }).waitFor();
    const entry = page.getByTestId('audit-entry').filter({ hasText: agent.email }).filter({ hasText: 'user.price_changed' });
    await entry.waitFor();
    expect(await entry.textContent()).toContain('live transfer price: 35.00 → 31.50');
    expect(await entry.textContent()).toContain(system.admin.username);
    expect(await seriousViolations(page)).toEqual([]);
    // Read only: the entries offer nothing to change (the controls are the filters').
    expect(await page.locator('.audit-table').locator('input, textarea, select, button').count()).toBe(0);

    // Filters (issue 22): by action and subject, in the URL; the CSV holds what the filter keeps.
    await page.getByRole('combobox', { name: /^Action/ }).selectOption('user.price_changed');
    await page.getByLabel('Subject', { exact: true }).fill(agent.email);
    await page.waitForURL((url) => url.searchParams.get('action') === 'user.price_changed' && url.searchParams.get('subject') === agent.email);
    await page.getByText('1 action matching, newest first').waitFor();
    expect(await page.getByTestId('audit-entry').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `test-results/audit-log-filtered-${width}.png`, fullPage: true });
    }
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^warmline-audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = (await readFile(await download.path())).toString('utf8').trimEnd().split('\r\n');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain('user.price_changed');
    expect(csv[1]).toContain(agent.email);
    await page.getByLabel('Subject', { exact: true }).fill('nobody-matches-this');
    await page.getByText('No admin actions match these filters.').waitFor();
  });

  it('when an admin opens Change Password and Delete, then the dialogs say what is wrong and a deleted agent leaves the list', async () => {
    const { page, system } = e2e;
    const agent = await newAgent(system, '(415) 555-0177');
    await logIn(page, system.admin.username, system.admin.password, '/admin');
    await page.goto(`/admin?tab=user-management&users=${agent.username}`);
    const row = page.getByTestId('user-row').filter({ hasText: agent.email });
    await row.getByRole('button', { name: /Change Password/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Password' });
    await dialog.getByLabel('New Password', { exact: true }).fill('short');
    await dialog.getByLabel('Confirm Password', { exact: true }).fill('other');
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await dialog.getByText('Password must be at least 8 characters').waitFor();
    await dialog.getByLabel('New Password', { exact: true }).fill('quiet-meadow-88');
    await dialog.getByLabel('Confirm Password', { exact: true }).fill('quiet-meadow-89');
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await dialog.getByText("Passwords don't match").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByLabel('Confirm Password', { exact: true }).fill('quiet-meadow-88');
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await dialog.waitFor({ state: 'detached' });

    await row.getByRole('button', { name: /Delete/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete User' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText(`No users match “${agent.username}”.`).waitFor();
  });

  it('when an admin opens a card or logs out, then the card opens what it counts and Logout ends the session at /login', async () => {
    const { page, system } = e2e;
    await logIn(page, system.admin.username, system.admin.password, '/admin');
    await page.getByRole('tab', { name: 'User Management', selected: true }).waitFor();
    await page.getByRole('link', { name: /Open Transfer Orders/ }).click();
    await page.waitForURL((url) => url.pathname === '/admin-orders');
    await page.goBack();
    await page.getByRole('link', { name: /^Revenue/ }).click();
    await page.waitForURL((url) => url.pathname === '/admin-all-orders');
    await page.goBack();
    await page.getByRole('tab', { name: 'Partner Apps' }).click();
    await page.getByRole('button', { name: /^Total Users/ }).click();
    await page.waitForURL((url) => url.searchParams.get('tab') === 'user-management');

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    // The session is over on the server, not only in this tab.
    await page.goto('/admin');
    await page.waitForURL((url) => url.pathname === '/login');
  });

  it('when a customer types /admin, then they land on /dashboard', async () => {
    const { page, system } = e2e;
    const agent = await newAgent(system, '(212) 555-0100');
    await logIn(page, agent.username, agent.password, '/dashboard');
    await page.goto('/admin');
    await page.waitForURL((url) => url.pathname === '/dashboard');
  });
});
