import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { quotePackage } from '@warmline/contracts/pricing';
import { enqueue } from '@warmline/platform/bus/index';
import { createPool } from '@warmline/platform/db/index';
import { GATEWAY_SCHEMA } from '@warmline/gateway/service';
import { createAccount } from '@warmline/gateway/domain/users';
import { ORDERS_SCHEMA } from '@warmline/orders/service';
import { logIn, seriousViolations, useE2E, type RunningSystem } from './harness';

/**
 * What a paying buyer meets on their screens (issue 22): the transfer order form pre-filled from
 * the survey's transfers per day; My Call-backs right after paying, before the catalog has credited
 * the order; and a signed-in buyer's package checkout and success page. At 390 and 1280 px, axe
 * on each; SCREENSHOT_DIR=… keeps a picture of each screen.
 */
const e2e = useE2E();
const WIDTHS = [1280, 390] as const;
const FUTURE_EXPIRY = `12 / ${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`;

async function screenshot(page: Page, name: string) {
  const dir = process.env.SCREENSHOT_DIR;
  if (dir) await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

interface Agent {
  id: string;
  username: string;
  password: string;
  email: string;
}

/** An agent with an account; with `survey`, their latest survey says it (as the main survey stores it). */
async function newAgent(system: RunningSystem, survey?: { totalTransfers: number; transfersPerDay: number; callsPerDay: number }): Promise<Agent> {
  const tag = randomBytes(4).toString('hex');
  const spec = { username: `buyer_${tag}`, password: `buyer-password-${tag}`, email: `buyer_${tag}@example.com`, firstName: 'Nora', lastName: 'Newagent', phone: '(512) 555-0142' };
  const pool = createPool(system.databaseUrl, GATEWAY_SCHEMA);
  try {
    const user = await createAccount(pool, spec);
    if (survey) {
      await pool.query(
        `INSERT INTO survey_responses (user_id, funnel, brand, salesperson, first_name, last_name, agency_name, role, phone, email, username,
                                       lead_type, working_states, total_transfers, transfers_per_day, calls_per_day, transfer_hours)
         VALUES ($1, 'main', 'WarmLine', 'Survey Form', 'Nora', 'Newagent', 'Newagent Insurance', 'Agency Owner', '5125550142', $2, $3,
                 'Live Transfers', 'Texas', $4, $5, $6, 'Mon-Fri 9am-5pm CST')`,
        [user.id, spec.email, spec.username, survey.totalTransfers, survey.transfersPerDay, survey.callsPerDay],
      );
    }
    return { id: user.id, username: spec.username, password: spec.password, email: spec.email };
  } finally {
    await pool.end();
  }
}

describe('the transfer order form of a new agent (item 7)', () => {
  it('when the survey says 160 calls a day and 10 transfers a day out of 100, then the form starts at 10 transfers per day, the order goes through, and the summary names the field the same', async () => {
    const { page, system } = e2e;
    const agent = await newAgent(system, { totalTransfers: 100, transfersPerDay: 10, callsPerDay: 160 });
    await logIn(page, agent.username, agent.password, '/dashboard');

    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/dashboard?view=buy-call-transfers');
      await page.getByRole('button', { name: 'Order Call Transfers' }).click();
      await page.getByRole('heading', { name: 'Order Call Transfers' }).waitFor();
      expect(await page.getByLabel('Total transfers').inputValue()).toBe('100');
      expect(await page.getByLabel('Transfers per day').inputValue()).toBe('10');
      expect(await page.getByLabel('Calls per day').count()).toBe(0);
      // Nothing refused before the agent has typed anything.
      expect(await page.getByLabel('Transfers per day').getAttribute('aria-invalid')).not.toBe('true');
      expect(await noSidewaysScroll(page)).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `i22-transfer-form-${width}`);
    }

    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await page.getByRole('heading', { name: 'Complete Your Order', level: 1 }).waitFor();
    const summaryRow = page.locator('dl > div', { has: page.locator('dt', { hasText: 'Transfers per day' }) }).locator('dd');
    expect(await summaryRow.textContent()).toBe('10');
    await screenshot(page, 'i22-transfer-summary-390');
  });
});

describe('My Call-backs right after paying (item 8)', () => {
  it('when 12 call-backs are paid and not credited yet, then they show as on their way, and the view shows them in the balance by itself once credited', async () => {
    const { page, system } = e2e;
    const agent = await newAgent(system);
    // Orders has taken the payment; its payment.succeeded is not out yet (as in the moment after paying).
    const pool = createPool(system.databaseUrl, ORDERS_SCHEMA);
    try {
      const quote = quotePackage({ tier: 'ringcloud', leadType: 'Call-Backs', count: 12 });
      const { rows } = await pool.query<{ id: string; paid_at: Date }>(
        `INSERT INTO package_orders (id, tier, lead_type, count, unit_price_cents, amount_cents, currency, description, buyer_user_id, provider, status, paid_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'sandbox', 'paid', now()) RETURNING id, paid_at`,
        [randomUUID(), quote.tier, quote.leadType, quote.count, quote.unitPriceCents, quote.amountCents, quote.currency, quote.description, agent.id],
      );
      const paid = rows[0]!;

      await logIn(page, agent.username, agent.password, '/dashboard');
      await page.goto('/dashboard?view=my-callbacks');
      const onTheirWay = page.getByTestId('callbacks-on-their-way');
      await onTheirWay.waitFor();
      expect(await onTheirWay.textContent()).toContain('12 call-backs on their way');
      expect(await page.getByTestId('callback-balance').textContent()).toBe('12');
      expect(await page.getByText('Buy call-backs to start receiving them.').count()).toBe(0);
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        expect(await noSidewaysScroll(page)).toBe(true);
        expect(await seriousViolations(page)).toEqual([]);
        await screenshot(page, `i22-my-callbacks-on-their-way-${width}`);
      }

      // The payment's event goes out as orders sends it; the catalog credits the order and the
      // view follows without a reload.
      await enqueue(pool, {
        type: 'payment.succeeded',
        source: 'orders',
        correlationId: randomUUID(),
        data: {
          orderId: paid.id,
          kind: 'package',
          tier: 'ringcloud',
          leadType: 'Call-Backs',
          count: 12,
          unitPriceCents: quote.unitPriceCents,
          amountCents: quote.amountCents,
          currency: 'usd',
          description: quote.description,
          buyerUserId: agent.id,
          provider: 'sandbox',
          paymentIntentId: `pi_sandbox_${randomBytes(6).toString('hex')}`,
          paidAt: paid.paid_at.toISOString(),
        },
      });
      await onTheirWay.waitFor({ state: 'detached', timeout: 20_000 });
      expect(await page.getByTestId('callback-balance').textContent()).toBe('12');
      await screenshot(page, 'i22-my-callbacks-credited-1280');
    } finally {
      await pool.end();
    }
  });
});

describe('a signed-in buyer at a package checkout (item 11)', () => {
  it('when a logged-in agent pays a premium package, then the billing name and e-mail start as theirs, and the success page offers their dashboard, not a login or the survey', async () => {
    const { page, system } = e2e;
    const agent = await newAgent(system);
    await logIn(page, agent.username, agent.password, '/dashboard');

    await page.goto('/checkout-premium');
    await page.getByRole('heading', { name: 'Premium Volume Package', level: 1 }).waitFor();
    await page.getByLabel('How many transfers would you like to purchase?').fill('60');
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    await page.getByLabel('Card number').waitFor();
    expect(await page.getByLabel('Name on card').inputValue()).toBe('Nora Newagent');
    expect(await page.getByLabel('Email for your receipt').inputValue()).toBe(agent.email);
    await screenshot(page, 'i22-checkout-prefilled-1280');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM / YY)').fill(FUTURE_EXPIRY);
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Complete Payment - $2,220.00' }).click();

    await page.waitForURL((url) => url.pathname === '/onboarding-success', { timeout: 20_000 });
    await page.getByRole('heading', { name: 'Welcome to WarmLine!', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Go to Dashboard' }).waitFor();
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.getByRole('link', { name: 'Login' }).count()).toBe(0);
      expect(await page.getByText('No account yet? Complete our survey').count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Dashboard', exact: true }).getAttribute('href')).toBe('/dashboard');
      expect(await page.getByRole('link', { name: 'See your orders in My Orders' }).getAttribute('href')).toBe('/dashboard?view=my-orders');
      expect(await noSidewaysScroll(page)).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `i22-onboarding-success-signed-in-${width}`);
    }
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
  });
});
