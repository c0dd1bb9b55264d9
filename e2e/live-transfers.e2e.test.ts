import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { CreatedVendorKey } from '@warmline/contracts/callbacks';
import {
  TRANSFER_ROUTE_PATH,
  transferOutcomePath,
  type TransferOutcomeAnswer,
  type TransferOutcomeInput,
  type TransferRouteAnswer,
  type TransferRouteInput,
  type TransferSettingsInput,
} from '@warmline/contracts/live-transfers';
import { formatUsd, quotePackage } from '@warmline/contracts/pricing';
import { createPool } from '@warmline/platform/db/index';
import { GATEWAY_SCHEMA } from '@warmline/gateway/service';
import { createAccount } from '@warmline/gateway/domain/users';
import { ApiClient } from './api-client';
import { logIn, seriousViolations, useE2E, type RunningSystem } from './harness';

/**
 * Live transfers delivered and billed, end to end (issue 23): an agent pays for a Premium package
 * with the sandbox card and sees the balance on My Transfers; the test, as the agent, saves delivery
 * settings and, as the vendor (with a key an admin made through the admin API), routes two prospects
 * in the agent's state and reports their outcomes. 95 connected seconds are buffer-protected and the
 * balance stays; 300 seconds are charged at the package's $37.00 and the balance goes down by one.
 * The agent disputes the charge (prospect not shopping), an admin accepts it in the Transfers tab,
 * and the balance comes back. My Transfers and the tab are axe clean at 390 and 1280 px and never
 * scroll sideways.
 *
 * The prospect's legal calling hours (8 am–9 pm in the prospect's own zone) decide whether a
 * prospect can be routed at all, so the prospect's state is picked by the hour: a state whose local
 * time is now well inside them (Puerto Rico, New York, California or Hawaii, one zone each so the
 * area code cannot move it). Between about 07:00 and 12:00 UTC no US state is inside them (9 pm in
 * Hawaii is 07:00 UTC, 8 am in Puerto Rico is 12:00 UTC); then the transfers service runs on a clock
 * moved forward to the nearest hour one is, the rest of the system on the real one.
 */

interface ProspectState {
  state: string;
  zone: string;
  areaCode: string;
}

/** Single-zone states from east to west: together they are inside calling hours from 12:00 to 07:00 UTC. */
const CANDIDATES: ProspectState[] = [
  { state: 'PR', zone: 'America/Puerto_Rico', areaCode: '787' },
  { state: 'NY', zone: 'America/New_York', areaCode: '212' },
  { state: 'CA', zone: 'America/Los_Angeles', areaCode: '213' },
  { state: 'HI', zone: 'Pacific/Honolulu', areaCode: '808' },
];

const localMinutes = (at: Date, zone: string) => {
  const [h = 0, m = 0] = at.toLocaleTimeString('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).split(':').map(Number);
  return h * 60 + m;
};

/**
 * The prospect's state and how far ahead the transfers service's clock runs (0 when a state is
 * inside calling hours now). A margin of an hour on each side keeps a slow run inside them.
 */
function callingHoursPlan(now = new Date()): { prospect: ProspectState; aheadMs: number } {
  for (let hours = 0; hours < 24; hours += 1) {
    const at = new Date(now.getTime() + hours * 3_600_000);
    const prospect = CANDIDATES.find((c) => localMinutes(at, c.zone) >= 9 * 60 && localMinutes(at, c.zone) < 20 * 60);
    if (prospect) return { prospect, aheadMs: hours * 3_600_000 };
  }
  throw new Error('no US state is inside calling hours at any hour of the day (cannot happen)');
}

const PLAN = callingHoursPlan();
const e2e = useE2E({
  system: () => (PLAN.aheadMs ? { transfersClock: () => new Date(Date.now() + PLAN.aheadMs) } : {}),
});

const FUTURE_EXPIRY = `12 / ${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`;
const MY_TRANSFERS = '/dashboard?view=my-transfers';
const WIDTHS = [390, 1280] as const;

interface Agent {
  id: string;
  username: string;
  password: string;
  name: string;
}

/** A new agent account straight in the gateway's schema (unique names every run). */
async function newAgent(system: RunningSystem): Promise<Agent> {
  const tag = randomBytes(4).toString('hex');
  const pool = createPool(system.databaseUrl, GATEWAY_SCHEMA);
  try {
    const spec = { username: `live_${tag}`, password: `agent-password-${tag}`, email: `live_${tag}@example.com`, firstName: 'Terry', lastName: `Transfer${tag}`, phone: '(512) 555-0101' };
    const user = await createAccount(pool, spec);
    return { id: user.id, username: spec.username, password: spec.password, name: `${spec.firstName} ${spec.lastName}` };
  } finally {
    await pool.end();
  }
}

async function must<T>(answer: Promise<{ status: number; text: string; json: unknown }>, what: string, status = 200): Promise<T> {
  const done = await answer;
  if (done.status !== status) throw new Error(`${what} answered ${done.status}: ${done.text}`);
  return done.json as T;
}

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** At both widths: axe finds nothing serious and the page does not scroll sideways. */
async function checkBothWidths(page: Page, what: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    expect({ what, width, violations: await seriousViolations(page) }).toEqual({ what, width, violations: [] });
    expect({ what, width, sideways: !(await noSidewaysScroll(page)) }).toEqual({ what, width, sideways: false });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const balance = (page: Page) => page.getByTestId('transfer-balance');
/** A transfer's row in the log, by the prospect's name (its row header). */
const transferRow = (page: Page, name: string) => page.getByTestId('transfer-row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

describe('live transfers, from the payment to the log', () => {
  it('when an agent pays for Premium and the vendor reports 95 s then 300 s, then one is buffer-protected, one charged $37.00, and a dispute an admin accepts gives it back', async () => {
    const { page, system, browser } = e2e;
    const agent = await newAgent(system);
    const quote = quotePackage({ tier: 'premium', count: 2 });
    expect(quote.unitPriceCents).toBe(3700);

    // The agent pays for two Premium transfers with the sandbox card.
    await logIn(page, agent.username, agent.password, '/dashboard');
    await page.goto('/checkout-premium');
    await page.getByRole('heading', { name: 'Premium Volume Package', level: 1 }).waitFor();
    await page.getByLabel('How many transfers would you like to purchase?').fill('2');
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM / YY)').fill(FUTURE_EXPIRY);
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: `Complete Payment - ${formatUsd(quote.amountCents)}` }).click();
    await page.waitForURL((url) => url.pathname === '/onboarding-success', { timeout: 20_000 });

    // My Transfers, from the dashboard's menu: the balance arrives with the payment's event (the view asks again by itself).
    await page.goto('/dashboard');
    await page.getByRole('link', { name: 'My Transfers' }).click();
    await page.waitForURL((url) => url.searchParams.get('view') === 'my-transfers');
    await expect.poll(() => balance(page).textContent(), { timeout: 30_000 }).toBe('2');
    await page.getByText('2 at $37.00', { exact: true }).waitFor();
    await checkBothWidths(page, 'My Transfers with a balance');
    await page.goto('/dashboard?view=buy-call-transfers');
    expect(await page.getByTestId('intro-transfer-balance').textContent()).toContain('You have 2 transfers left.');

    // The agent's delivery settings: the prospect's state, every hour of every day in their zone.
    const agentApi = new ApiClient(system.url);
    await agentApi.login(agent.username, agent.password);
    const settings: TransferSettingsInput = {
      transferPhone: '(512) 555-0101',
      states: [PLAN.prospect.state],
      timeZone: 'America/Chicago',
      hours: (['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const).map((day) => ({ day, from: '00:00', to: '24:00' })),
      dailyCap: 10,
      atOnce: 1,
      paused: false,
    };
    await must(agentApi.call('PUT', '/api/my-transfers/settings', settings), 'PUT /api/my-transfers/settings');

    // The vendor's key, made by an admin through the admin API.
    const adminApi = new ApiClient(system.url);
    await adminApi.login(system.admin.username, system.admin.password);
    const { key } = await must<CreatedVendorKey>(adminApi.call('POST', '/api/admin/vendor-keys', { name: `BrightCall ${Date.now()}` }), 'POST /api/admin/vendor-keys', 201);
    const vendor = new ApiClient(system.url, { 'x-api-key': key });

    /** The vendor routes a prospect in the agent's state, connects them and reports how long the call lasted. */
    const deliver = async (firstName: string, lastName: string, phoneLast4: string, durationSeconds: number): Promise<TransferOutcomeAnswer> => {
      const route: TransferRouteInput = { call_id: `e2e-${randomBytes(6).toString('hex')}`, first_name: firstName, last_name: lastName, phone_number: `${PLAN.prospect.areaCode}555${phoneLast4}`, state: PLAN.prospect.state };
      const routed = await must<TransferRouteAnswer>(vendor.call('POST', TRANSFER_ROUTE_PATH, route), `route ${firstName}`);
      if (!routed.routed) throw new Error(`${firstName} was not routed: ${routed.reason} (prospect in ${PLAN.prospect.state})`);
      expect(routed.agent_name).toBe(agent.name);
      expect(routed.transfer_phone.replace(/\D/g, '')).toContain('5125550101');
      const outcome: TransferOutcomeInput = { connected: true, duration_seconds: durationSeconds };
      return must<TransferOutcomeAnswer>(vendor.call('POST', transferOutcomePath(routed.transfer_id), outcome), `outcome of ${firstName}`);
    };

    await page.goto(MY_TRANSFERS);
    await balance(page).waitFor();

    // 95 seconds: inside the 120-second buffer, not charged; it shows without a reload.
    const protectedOutcome = await deliver('Ana', 'Diaz', '0195', 95);
    expect(protectedOutcome).toMatchObject({ status: 'buffer_protected', charged: false });
    const ana = transferRow(page, 'Ana Diaz');
    await ana.waitFor({ timeout: 20_000 });
    expect(await ana.getByTestId('transfer-status').textContent()).toBe('Buffer protected — not charged');
    expect(await ana.textContent()).toContain('1:35');
    expect(await balance(page).textContent()).toBe('2');

    // 300 seconds: one transfer charged at the package's price.
    const chargedOutcome = await deliver('Maria', 'Lopez', '0300', 300);
    expect(chargedOutcome).toMatchObject({ status: 'charged', charged: true, charged_cents: 3700 });
    const maria = transferRow(page, 'Maria Lopez');
    await maria.waitFor({ timeout: 20_000 });
    expect(await maria.getByTestId('transfer-status').textContent()).toBe('Charged $37.00');
    expect(await maria.textContent()).toContain('5:00');
    await expect.poll(() => balance(page).textContent(), { timeout: 20_000 }).toBe('1');
    await checkBothWidths(page, 'My Transfers with a protected and a charged transfer');

    // The agent disputes the charge: the prospect was not shopping; an admin must decide.
    await maria.getByRole('button', { name: 'Dispute: Maria Lopez' }).click();
    await page.getByLabel(/^Reason/).selectOption('not_shopping');
    await page.getByLabel('Note (optional)').fill('She said she had bought a policy last week.');
    await checkBothWidths(page, 'the dispute form');
    await page.getByRole('button', { name: 'Send dispute' }).click();
    await page.getByText('Disputed (prospect not shopping for insurance): waiting for review', { exact: true }).waitFor({ timeout: 20_000 });
    expect(await maria.getByTestId('transfer-status').textContent()).toBe('Disputed');

    // The admin accepts it in the Transfers tab.
    const adminContext = await browser.newContext({ baseURL: system.url, viewport: { width: 1280, height: 900 } });
    try {
      const admin = await adminContext.newPage();
      await logIn(admin, system.admin.username, system.admin.password, '/admin');
      await admin.getByRole('tab', { name: 'Transfers' }).click();
      await admin.waitForURL((url) => url.searchParams.get('tab') === 'transfers');
      expect(new URL(admin.url()).search).toBe('?tab=transfers');
      const dispute = admin.getByTestId('transfer-dispute').filter({ hasText: agent.name });
      await dispute.waitFor();
      expect(await dispute.textContent()).toContain('Prospect not shopping for insurance');
      expect(await dispute.textContent()).toContain('She said she had bought a policy last week.');
      const agentCard = admin.getByTestId('transfer-agent').filter({ has: admin.getByRole('heading', { name: agent.name, exact: true }) });
      await agentCard.waitFor();
      expect(await agentCard.getByTestId('agent-balance').textContent()).toBe('1');
      await admin.getByTestId('admin-transfer').filter({ hasText: 'Maria Lopez' }).waitFor();
      await checkBothWidths(admin, 'the Transfers tab');
      await dispute.getByRole('button', { name: `Accept dispute: ${agent.name}` }).click();
      await dispute.waitFor({ state: 'detached', timeout: 20_000 });
      await expect.poll(() => agentCard.getByTestId('agent-balance').textContent(), { timeout: 20_000 }).toBe('2');
    } finally {
      await adminContext.close();
    }

    // The agent's balance comes back and the transfer reads Credited, without a reload.
    await expect.poll(() => balance(page).textContent(), { timeout: 20_000 }).toBe('2');
    await expect.poll(() => maria.getByTestId('transfer-status').textContent(), { timeout: 20_000 }).toBe('Credited');
    await page.getByText(/^Dispute accepted \(prospect not shopping for insurance\)/).waitFor();
    expect(await ana.getByTestId('transfer-status').textContent()).toBe('Buffer protected — not charged');
    await checkBothWidths(page, 'My Transfers after the dispute');
  });
});
