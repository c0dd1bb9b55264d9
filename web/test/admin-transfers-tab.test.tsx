import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { ADJUSTMENT_BELOW_ZERO_MESSAGE, type AdminTransferAgent, type AdminTransferView, type AdminTransferRevenueAnswer, type AdminTransferDispute } from '@warmline/contracts/live-transfers';
import { TransfersTab } from '../src/features/admin/transfers/transfers-tab';
import { useToasts } from '../src/components/toast-store';
import { createQueryClient } from '../src/lib/query-client';
import { SiteConfigProvider } from '../src/lib/site-config';
import { TEST_SITE } from './site-config-fixture';
import { stubApi } from './stub-api';

/**
 * The back office's Transfers tab (issue 23 §7): today's transfers with their agent and status in
 * words, each agent's balance, cap and hours with why they can take no transfer now, the dispute
 * queue (Accept; Refuse needs a reason), Adjust balance, and earned beside cash. The network is a
 * stand-in `fetch` answering as the gateway would.
 */

const JANE_ID = '3f1d2c4b-5a69-4788-9a0b-1c2d3e4f5a6b';
const TESS_ID = '7d9f5d0e-3b0a-4c55-9f0e-2a6b1c2d3e4f';
const DISPUTE_ID = '0193a5c2-7e41-7b3a-9f6e-2d4c1b0a9e87';
/** Today on the business's clock (Chicago, as TEST_SITE says), as the tab asks for it. */
const TODAY = new Date().toLocaleDateString('en-CA', { timeZone: 'America/Chicago', year: 'numeric', month: '2-digit', day: '2-digit' });

function adminTransfer(overrides: Partial<AdminTransferView> = {}): AdminTransferView {
  return {
    id: 'tr_1',
    routedAt: '2026-11-27T16:04:00.000Z',
    firstName: 'Maria',
    lastName: 'Lopez',
    phone: '5125550143',
    state: 'TX',
    leadType: null,
    durationSeconds: 300,
    status: 'charged',
    chargedCents: 3700,
    transcript: null,
    recordingUrl: null,
    disposition: null,
    dispute: null,
    disputable: true,
    optedOutAt: null,
    localTime: '10:04 AM CST', callableNow: true, callingHoursNote: null,
    agent: { id: JANE_ID, name: 'Jane Agent' },
    ...overrides,
  };
}

const JANE: AdminTransferAgent = {
  id: JANE_ID,
  name: 'Jane Agent',
  balance: 59,
  inFlight: 1,
  today: 3,
  dailyCap: 10,
  atOnce: 1,
  timeZone: 'America/Chicago',
  states: ['FL', 'TX'],
  hours: [{ day: 'mon', from: '09:00', to: '17:00' }],
  paused: false,
  idleReasons: [],
  lastTransferAt: '2026-11-27T16:04:00.000Z',
};
const TESS: AdminTransferAgent = { ...JANE, id: TESS_ID, name: 'Tess Rancher', hours: (['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const).map((day) => ({ day, from: '00:00', to: '24:00' })), balance: 12, inFlight: 0, today: 10, paused: true, idleReasons: ['paused', 'cap_reached', 'outside_hours'], lastTransferAt: null };

const DISPUTE: AdminTransferDispute = {
  id: DISPUTE_ID,
  reason: 'not_shopping',
  reasonLabel: 'Prospect not shopping for insurance',
  note: 'Said she already bought a policy.',
  status: 'pending',
  openedAt: '2026-11-27T16:30:00.000Z',
  decidedAt: null,
  decisionReason: null,
  agent: { id: JANE_ID, name: 'Jane Agent' },
  transfer: adminTransfer({ status: 'disputed', disputable: false }),
};

const REVENUE: AdminTransferRevenueAnswer = {
  timeZone: 'America/Chicago',
  days: [
    { date: '2026-11-26', chargedTransfers: 2, earnedCents: 7400, cashCents: 222000, refundedCents: 0 },
    { date: '2026-11-27', chargedTransfers: 1, earnedCents: 3700, cashCents: 0, refundedCents: 0 },
  ],
  totals: { earnedCents: 11100, cashCents: 222000, refundedCents: 0 },
};

type Answer = { status: number; body: unknown };
let answers: Record<string, Answer>;
let sent: Array<{ url: string; method: string; body: unknown }>;

beforeEach(() => {
  sent = [];
  answers = {
    [`GET /api/admin/transfers?date=${TODAY}&page=1`]: {
      status: 200,
      body: { transfers: [adminTransfer(), adminTransfer({ id: 'tr_2', firstName: 'Ana', lastName: 'Diaz', status: 'buffer_protected', chargedCents: null, durationSeconds: 95, agent: { id: TESS_ID, name: 'Tess Rancher' } })], total: 2, page: 1, pageSize: 50 },
    },
    'GET /api/admin/transfer-agents': { status: 200, body: { agents: [JANE, TESS] } },
    'GET /api/admin/transfer-disputes?status=pending': { status: 200, body: { disputes: [DISPUTE] } },
    'GET /api/admin/transfer-revenue': { status: 200, body: REVENUE },
  };
  sent = stubApi(answers).calls;
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function LatestToast() {
  const [latest] = useToasts();
  return <output data-testid="toast">{latest?.open ? `${latest.title}${latest.description ? ` | ${latest.description}` : ''}` : ''}</output>;
}

function renderTab() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <SiteConfigProvider value={TEST_SITE}>
        <MemoryRouter initialEntries={['/admin?tab=transfers']}>
          <TransfersTab />
          <LatestToast />
        </MemoryRouter>
      </SiteConfigProvider>
    </QueryClientProvider>,
  );
}

const agentCard = (name: string) => within(screen.getAllByTestId('transfer-agent').find((li) => within(li).queryByRole('heading', { name }))!);

describe('the Transfers tab', () => {
  it("shows today's transfers with their agent and status in words, and revenue earned beside cash", async () => {
    renderTab();
    const today = await screen.findByTestId('admin-transfers');
    expect(sent.some((r) => r.url === `/api/admin/transfers?date=${TODAY}&page=1`)).toBe(true);
    const rows = within(today).getAllByTestId('admin-transfer');
    expect(rows.map((li) => within(li).getByTestId('transfer-status').textContent)).toEqual(['Charged $37.00', 'Buffer protected — not charged']);
    expect(rows[0]!.textContent).toContain('Jane Agent');
    expect(rows[0]!.textContent).toContain('Jane Agent ← Maria Lopez');
    expect(rows[0]!.textContent).toContain('(512) 555-0143 · TX · 5:00');
    // 16:04 UTC on Chicago's clock.
    expect(within(rows[0]!).getByText('10:04 AM CST')).toBeTruthy();
    expect(rows[1]!.textContent).toContain('Tess Rancher');
    expect(screen.getByText('2 transfers today, newest first')).toBeTruthy();

    expect((await screen.findByTestId('revenue-earned')).textContent).toBe('$111.00');
    expect(screen.getByTestId('revenue-cash').textContent).toBe('$2,220.00');
    expect(screen.getAllByRole('row').map((tr) => tr.textContent)).toEqual(['DayEarnedCash', '11/27/2026$37.00$0.00', '11/26/2026$74.00$2,220.00']);
  });

  it('shows each agent’s balance, cap, hours and pause, and why one with transfers left can take none now', async () => {
    renderTab();
    await screen.findAllByTestId('transfer-agent');
    const jane = agentCard('Jane Agent');
    expect(jane.getByTestId('agent-balance').textContent).toBe('59');
    expect(jane.getByText('3 of 10')).toBeTruthy();
    expect(jane.getByText('Mon 9:00 AM – 5:00 PM')).toBeTruthy();
    expect(jane.getByText('Central Time')).toBeTruthy();
    expect(jane.getByText('Active')).toBeTruthy();
    expect(jane.getByTestId('agent-idle').textContent).toBe('Can take a transfer now');
    const tess = agentCard('Tess Rancher');
    expect(tess.getByText('Paused')).toBeTruthy();
    expect(tess.getByTestId('agent-idle').textContent).toBe("Can take no transfer now: Paused, Today's cap reached, Outside their hours");
    expect(tess.getByText('Never')).toBeTruthy();
    expect(tess.getByText('Mon–Sun all day')).toBeTruthy();
  });

  it('accepts a dispute, and the queue is read again without it', async () => {
    answers[`POST /api/admin/transfer-disputes/${DISPUTE_ID}`] = { status: 200, body: { id: DISPUTE_ID, status: 'accepted' } };
    renderTab();
    const card = within(await screen.findByTestId('transfer-dispute'));
    expect(card.getByRole('heading', { name: 'Jane Agent: Prospect not shopping for insurance' })).toBeTruthy();
    expect(card.getByText('“Said she already bought a policy.”')).toBeTruthy();
    expect(card.getByText(/Maria Lopez, \(512\) 555-0143, TX · 5:00/)).toBeTruthy();
    answers['GET /api/admin/transfer-disputes?status=pending'] = { status: 200, body: { disputes: [] } };
    fireEvent.click(card.getByRole('button', { name: 'Accept dispute: Jane Agent' }));
    await waitFor(() => expect(sent.find((r) => r.method === 'POST')).toEqual({ url: `/api/admin/transfer-disputes/${DISPUTE_ID}`, method: 'POST', body: { decision: 'accept' } }));
    expect(await screen.findByText('No dispute waits for a decision.')).toBeTruthy();
    expect(screen.getByTestId('toast').textContent).toBe('Dispute accepted | The transfer is credited back to Jane Agent.');
  });

  it('refuses a dispute only with a reason', async () => {
    answers[`POST /api/admin/transfer-disputes/${DISPUTE_ID}`] = { status: 200, body: { id: DISPUTE_ID, status: 'refused' } };
    renderTab();
    const card = within(await screen.findByTestId('transfer-dispute'));
    fireEvent.click(card.getByRole('button', { name: 'Refuse dispute: Jane Agent' }));
    fireEvent.click(card.getByRole('button', { name: 'Refuse dispute' }));
    expect(await card.findByText('Say why the dispute is refused')).toBeTruthy();
    expect(sent.some((r) => r.method === 'POST')).toBe(false);
    fireEvent.change(card.getByLabelText('Why is it refused?'), { target: { value: 'The recording shows a 5-minute quote conversation' } });
    fireEvent.click(card.getByRole('button', { name: 'Refuse dispute' }));
    await waitFor(() =>
      expect(sent.find((r) => r.method === 'POST')?.body).toEqual({ decision: 'refuse', reason: 'The recording shows a 5-minute quote conversation' }),
    );
  });

  it('adjusts an agent’s balance with a reason, and shows the server’s refusal to go below zero', async () => {
    renderTab();
    await screen.findAllByTestId('transfer-agent');
    fireEvent.click(agentCard('Tess Rancher').getByRole('button', { name: 'Adjust balance: Tess Rancher' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Adjust balance: Tess Rancher' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Save adjustment' }));
    expect(dialog.getByText('Enter a whole number of transfers, not 0 (negative to take back)')).toBeTruthy();
    expect(dialog.getByText('Give a reason for the adjustment')).toBeTruthy();

    answers[`POST /api/admin/users/${TESS_ID}/transfer-credits`] = { status: 409, body: { error: ADJUSTMENT_BELOW_ZERO_MESSAGE } };
    fireEvent.change(dialog.getByLabelText(/^Transfers/), { target: { value: '-20' } });
    fireEvent.change(dialog.getByLabelText(/^Reason/), { target: { value: 'Refunded by phone' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save adjustment' }));
    expect(await dialog.findByText(ADJUSTMENT_BELOW_ZERO_MESSAGE)).toBeTruthy();

    answers[`POST /api/admin/users/${TESS_ID}/transfer-credits`] = { status: 201, body: { balance: 17 } };
    answers['GET /api/admin/transfer-agents'] = { status: 200, body: { agents: [JANE, { ...TESS, balance: 17 }] } };
    fireEvent.change(dialog.getByLabelText(/^Transfers/), { target: { value: '5' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save adjustment' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      { transfers: -20, reason: 'Refunded by phone' },
      { transfers: 5, reason: 'Refunded by phone' },
    ]);
    await waitFor(() => expect(agentCard('Tess Rancher').getByTestId('agent-balance').textContent).toBe('17'));
    expect(screen.getByTestId('toast').textContent).toBe('Balance adjusted | 5 credited to Tess Rancher.');
  });
});
