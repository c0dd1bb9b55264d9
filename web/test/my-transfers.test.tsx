import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import {
  TRANSFER_SETTINGS_MESSAGES,
  type MyTransfersAnswer,
  type TransferSettingsView,
  type TransferView,
} from '@warmline/contracts/live-transfers';
import { DashboardPage } from '../src/features/dashboard/dashboard-page';
import { useToasts } from '../src/components/toast-store';
import { createQueryClient } from '../src/lib/query-client';
import { TEST_AGENT } from './accounts-fixture';
import { stubApi } from './stub-api';

/**
 * My Transfers (issue 23 §5, §6): the balance by the price it was bought at, today against the cap
 * in the agent's zone, the log's status words ('Charged $37.00', 'Buffer protected — not charged', …),
 * the dispute form, the settings' field messages (the browser's and the server's 400), Pause, and
 * the Buy Call Transfers intro's balance. The network is a stand-in `fetch` answering as the gateway would.
 */

const CHARGED_ID = 'tr_0193a5c2-charged';
const PROTECTED_ID = 'tr_0193a5c2-protected';

function transfer(overrides: Partial<TransferView> = {}): TransferView {
  return {
    id: CHARGED_ID,
    routedAt: '2026-11-27T16:04:00.000Z',
    firstName: 'Maria',
    lastName: 'Lopez',
    phone: '5125550143',
    state: 'TX',
    leadType: 'Final Expense',
    durationSeconds: 300,
    status: 'charged',
    chargedCents: 3700,
    transcript: 'Agent: Are you still shopping for final expense cover? Prospect: Yes.',
    recordingUrl: 'https://recordings.example/call-1.mp3',
    disposition: 'transferred',
    dispute: null,
    disputable: true,
    optedOutAt: null,
    localTime: '10:04 AM CST', callableNow: true, callingHoursNote: null,
    ...overrides,
  };
}

const PROTECTED = transfer({ id: PROTECTED_ID, firstName: 'Ana', lastName: 'Diaz', phone: '3055550100', state: 'FL', durationSeconds: 95, status: 'buffer_protected', chargedCents: null, transcript: null, recordingUrl: null, disputable: false });

function mine(overrides: Partial<MyTransfersAnswer> = {}): MyTransfersAnswer {
  return {
    balance: {
      transfers: 59,
      inFlight: 0,
      lots: [
        { unitCents: 3700, transfersLeft: 49, creditedAt: '2026-11-20T10:00:00.000Z', source: 'order' },
        { unitCents: 3500, transfersLeft: 10, creditedAt: '2026-11-25T10:00:00.000Z', source: 'order' },
      ],
    },
    today: {
      date: '2026-11-27',
      timeZone: 'America/Chicago',
      timeZoneName: 'Central Time',
      count: 3,
      cap: 10,
      paused: false,
      withinHours: true,
      nextHours: 'Fri 9:00 AM – 5:00 PM Central Time',
    },
    transfers: [transfer(), PROTECTED],
    total: 2,
    page: 1,
    pageSize: 50,
    ...overrides,
  };
}

const SETTINGS: TransferSettingsView = {
  transferPhone: '5125550100',
  states: ['FL', 'TX'],
  timeZone: 'America/Chicago',
  hours: ['mon', 'tue', 'wed', 'thu', 'fri'].map((day) => ({ day: day as 'mon', from: '09:00', to: '17:00' })),
  dailyCap: 10,
  atOnce: 1,
  paused: false,
  saved: true,
  timeZoneName: 'Central Time',
};

type Answer = { status: number; body: unknown };
let answers: Record<string, Answer>;
let sent: Array<{ url: string; method: string; body: unknown }>;

beforeEach(() => {
  sent = [];
  answers = {
    'GET /api/my-transfers?page=1': { status: 200, body: mine() },
    'GET /api/my-transfers/settings': { status: 200, body: SETTINGS },
  };
  sent = stubApi(answers).calls;
  vi.stubGlobal('scrollTo', () => undefined);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function LatestToast() {
  const [latest] = useToasts();
  return <output data-testid="toast">{latest?.open ? `${latest.title}${latest.description ? ` | ${latest.description}` : ''}` : ''}</output>;
}

function renderDashboard(url = '/dashboard?view=my-transfers') {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[url]}>
        <DashboardPage user={TEST_AGENT} />
        <LatestToast />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** A transfer's main row (the row under it holds its transcript, recording and dispute). */
function row(name: string): HTMLElement {
  const found = screen.getAllByTestId('transfer-row').find((tr) => within(tr).queryByRole('rowheader', { name }));
  if (!found) throw new Error(`no transfer row for ${name}`);
  return found;
}

describe('My Transfers', () => {
  it('is in the dashboard menu beside My Call-backs, with the balance by price, today against the cap in the agent’s zone, and the next hours', async () => {
    renderDashboard();
    expect(await screen.findByRole('heading', { level: 1, name: 'My Transfers' })).toBeTruthy();
    const menu = screen.getByRole('navigation', { name: 'Dashboard' });
    const links = within(menu).getAllByRole('link').map((a) => a.textContent);
    expect(links.slice(links.indexOf('My Leads'), links.indexOf('My Leads') + 3)).toEqual(['My Leads', 'My Call-backs', 'My Transfers']);
    expect(within(menu).getByRole('link', { name: 'My Transfers' }).getAttribute('aria-current')).toBe('page');

    expect((await screen.findByTestId('transfer-balance')).textContent).toBe('59');
    expect(within(screen.getByRole('list', { name: 'Bought at' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['49 at $37.00', '10 at $35.00']);
    expect(screen.getByTestId('transfers-today').textContent).toBe('3 of 10 a day');
    expect(screen.getByText('Today, 11/27/2026 (Central Time)')).toBeTruthy();
    expect(screen.getByText('Next hours: Fri 9:00 AM – 5:00 PM Central Time')).toBeTruthy();
    expect(screen.getByTestId('transfer-state').textContent).toBe('Receiving transfers now');
  });

  it('lists each transfer with its time in the agent’s zone, the prospect unmasked, the duration as m:ss and the status in words', async () => {
    answers['GET /api/my-transfers?page=1'] = {
      status: 200,
      body: mine({
        transfers: [
          transfer(),
          PROTECTED,
          transfer({ id: 'nc', firstName: 'Nico', lastName: 'Never', status: 'not_connected', durationSeconds: 0, chargedCents: null, disputable: false, transcript: null, recordingUrl: null }),
          transfer({ id: 'ro', firstName: 'Rita', lastName: 'Routed', status: 'routed', durationSeconds: null, chargedCents: null, disputable: false, transcript: null, recordingUrl: null }),
          transfer({ id: 'cr', firstName: 'Cara', lastName: 'Credited', status: 'credited', chargedCents: null, disputable: false, transcript: null, recordingUrl: null }),
        ],
        total: 5,
      }),
    };
    renderDashboard();
    const log = await screen.findByTestId('transfer-log');
    expect(within(log).getByRole('columnheader', { name: 'Time (Central Time)' })).toBeTruthy();
    expect(within(log).getAllByTestId('transfer-status').map((s) => s.textContent)).toEqual([
      'Charged $37.00',
      'Buffer protected — not charged',
      'Not connected',
      'Awaiting outcome',
      'Credited',
    ]);
    const maria = within(row('Maria Lopez'));
    // 16:04 UTC is 10:04 AM in Chicago.
    expect(maria.getByText('11/27/2026, 10:04 AM CST')).toBeTruthy();
    expect(maria.getByRole('link', { name: '(512) 555-0143' }).getAttribute('href')).toBe('tel:+15125550143');
    expect(maria.getByText('5:00')).toBeTruthy();
    expect(within(row('Ana Diaz')).getByText('1:35')).toBeTruthy();
    expect(within(row('Rita Routed')).getByText('—')).toBeTruthy();
    expect(screen.getByText('Agent: Are you still shopping for final expense cover? Prospect: Yes.')).toBeTruthy();
    expect(screen.getByRole('link', { name: /^Recording/ }).getAttribute('href')).toBe('https://recordings.example/call-1.mp3');
    expect(screen.getByText('5 transfers, newest first')).toBeTruthy();
  });

  it('when a status and dates are chosen, then the log is asked with them and the CSV link carries them', async () => {
    answers['GET /api/my-transfers?page=1&status=charged&from=2026-11-01'] = { status: 200, body: mine({ transfers: [transfer()], total: 1 }) };
    renderDashboard();
    await screen.findByTestId('transfer-log');
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'charged' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    await waitFor(() => expect(sent.at(-1)!.url).toBe('/api/my-transfers?page=1&status=charged&from=2026-11-01'));
    expect(await screen.findByText('1 transfer, newest first')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe('/api/my-transfers/export.csv?status=charged&from=2026-11-01');
  });

  it('disputes a charged transfer with a reason and a note, and shows it waiting for review once the log is read again', async () => {
    answers[`POST /api/my-transfers/${CHARGED_ID}/dispute`] = { status: 201, body: { id: 'd1', status: 'pending' } };
    renderDashboard();
    await screen.findByTestId('transfer-log');
    expect(within(row('Ana Diaz')).queryByRole('button', { name: /Dispute/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Dispute: Maria Lopez' }));

    fireEvent.click(screen.getByRole('button', { name: 'Send dispute' }));
    expect(await screen.findByText('Choose why you dispute this transfer')).toBeTruthy();
    expect(sent.some((r) => r.method === 'POST')).toBe(false);

    expect(within(screen.getByLabelText(/^Reason/)).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Choose a reason',
      'Wrong state',
      'Out of my hours',
      'Duplicate of an earlier transfer',
      'Not the prospect / wrong number',
      'Prospect not shopping for insurance',
      'Call dropped',
    ]);
    fireEvent.change(screen.getByLabelText(/^Reason/), { target: { value: 'not_shopping' } });
    fireEvent.change(screen.getByLabelText('Note (optional)'), { target: { value: ' Said she already bought a policy. ' } });
    answers['GET /api/my-transfers?page=1'] = {
      status: 200,
      body: mine({
        transfers: [
          transfer({ status: 'disputed', disputable: false, dispute: { id: 'd1', reason: 'not_shopping', status: 'pending', decisionReason: null, openedAt: '2026-11-27T16:30:00.000Z', decidedAt: null } }),
          PROTECTED,
        ],
      }),
    };
    fireEvent.click(screen.getByRole('button', { name: 'Send dispute' }));
    await waitFor(() =>
      expect(sent.find((r) => r.method === 'POST')).toEqual({
        url: `/api/my-transfers/${CHARGED_ID}/dispute`,
        method: 'POST',
        body: { reason: 'not_shopping', note: 'Said she already bought a policy.' },
      }),
    );
    expect((await screen.findByTestId('dispute-outcome')).textContent).toBe('Disputed (prospect not shopping for insurance): waiting for review');
    expect(within(row('Maria Lopez')).getByTestId('transfer-status').textContent).toBe('Disputed');
    expect(screen.queryByRole('button', { name: 'Dispute: Maria Lopez' })).toBeNull();
  });

  it('shows a decided dispute with its words: refused with the record’s reason, accepted as credited back', async () => {
    answers['GET /api/my-transfers?page=1'] = {
      status: 200,
      body: mine({
        transfers: [
          transfer({ status: 'charged', disputable: false, dispute: { id: 'd1', reason: 'wrong_state', status: 'refused', decisionReason: 'The prospect was in Texas, one of your states', openedAt: '2026-11-27T16:30:00.000Z', decidedAt: '2026-11-27T16:30:00.000Z' } }),
          transfer({ id: 'x', firstName: 'Cara', lastName: 'Credited', status: 'credited', chargedCents: null, disputable: false, dispute: { id: 'd2', reason: 'call_dropped', status: 'accepted', decisionReason: null, openedAt: '2026-11-27T16:30:00.000Z', decidedAt: '2026-11-27T17:00:00.000Z' } }),
        ],
      }),
    };
    renderDashboard();
    await screen.findByTestId('transfer-log');
    expect(screen.getAllByTestId('dispute-outcome').map((p) => p.textContent)).toEqual([
      'Dispute refused (wrong state): The prospect was in Texas, one of your states',
      'Dispute accepted (call dropped): the transfer is back in your balance',
    ]);
  });

  it('pauses and resumes from the next routing decision', async () => {
    answers['PATCH /api/my-transfers/pause'] = { status: 200, body: { paused: true } };
    renderDashboard();
    const pause = await screen.findByRole('button', { name: 'Pause transfers' });
    answers['GET /api/my-transfers?page=1'] = { status: 200, body: mine({ today: { ...mine().today, paused: true } }) };
    fireEvent.click(pause);
    await waitFor(() => expect(sent.find((r) => r.method === 'PATCH')).toEqual({ url: '/api/my-transfers/pause', method: 'PATCH', body: { paused: true } }));
    expect(await screen.findByRole('button', { name: 'Resume transfers' })).toBeTruthy();
    expect(screen.getByTestId('transfer-state').textContent).toBe('Paused: no transfer is sent to you');
    expect(screen.getByTestId('toast').textContent).toBe('Transfers paused | No transfer is sent to you from the next call until you resume.');
  });

  it('asks again by itself, so a transfer reported a moment ago shows without a reload', async () => {
    renderDashboard();
    await screen.findByTestId('transfer-log');
    answers['GET /api/my-transfers?page=1'] = {
      status: 200,
      body: mine({ transfers: [transfer({ id: 'new', firstName: 'Nate', lastName: 'Newest', status: 'buffer_protected', chargedCents: null, durationSeconds: 95, disputable: false }), transfer(), PROTECTED], total: 3 }),
    };
    expect(await screen.findByRole('rowheader', { name: 'Nate Newest' }, { timeout: 8_000 })).toBeTruthy();
  }, 10_000);

  it('when the settings are only suggested, then it says so; a wrong field shows its message under it, in the browser and from the server', async () => {
    answers['GET /api/my-transfers/settings'] = { status: 200, body: { ...SETTINGS, saved: false, transferPhone: '512555', dailyCap: 0 } };
    renderDashboard();
    expect((await screen.findByTestId('settings-suggested')).textContent).toContain('Suggested from your survey and your latest transfer order');
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText(TRANSFER_SETTINGS_MESSAGES.transferPhone)).toBeTruthy();
    expect(screen.getByText(TRANSFER_SETTINGS_MESSAGES.dailyCap)).toBeTruthy();
    expect(screen.getByLabelText(/^Transfer phone/).getAttribute('aria-invalid')).toBe('true');
    expect(sent.some((r) => r.method === 'PUT')).toBe(false);

    // Valid in the browser; the server refuses the states (e.g. a state it no longer sells).
    fireEvent.change(screen.getByLabelText(/^Transfer phone/), { target: { value: '(512) 555-0100' } });
    fireEvent.change(screen.getByLabelText(/^Daily cap/), { target: { value: '12' } });
    answers['PUT /api/my-transfers/settings'] = { status: 400, body: { error: TRANSFER_SETTINGS_MESSAGES.states, issues: [{ path: 'states', message: TRANSFER_SETTINGS_MESSAGES.states }, { path: 'hours.0.to', message: TRANSFER_SETTINGS_MESSAGES.hours }] } };
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText(TRANSFER_SETTINGS_MESSAGES.states)).toBeTruthy();
    expect(screen.getByText(TRANSFER_SETTINGS_MESSAGES.hours)).toBeTruthy();
    expect(sent.find((r) => r.method === 'PUT')?.body).toEqual({
      transferPhone: '(512) 555-0100',
      states: ['FL', 'TX'],
      timeZone: 'America/Chicago',
      hours: ['mon', 'tue', 'wed', 'thu', 'fri'].map((day) => ({ day, from: '09:00', to: '17:00' })),
      dailyCap: 12,
      atOnce: 1,
      paused: false,
    });
  });

  it('saves changed hours, zone and cap, then shows the saved settings in words', async () => {
    answers['GET /api/my-transfers/settings'] = { status: 200, body: { ...SETTINGS, saved: false } };
    answers['PUT /api/my-transfers/settings'] = { status: 200, body: SETTINGS };
    renderDashboard();
    await screen.findByTestId('settings-suggested');
    expect(within(screen.getByLabelText('Time zone')).getByRole('option', { name: 'Hawaii Time (Pacific/Honolulu)' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Time zone'), { target: { value: 'America/New_York' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Saturday' }));
    fireEvent.change(screen.getByLabelText('Saturday from'), { target: { value: '00:00' } });
    fireEvent.change(screen.getByLabelText('Saturday to'), { target: { value: '24:00' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Monday' }));
    answers['GET /api/my-transfers/settings'] = { status: 200, body: { ...SETTINGS, timeZone: 'America/New_York', timeZoneName: 'Eastern Time' } };
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(sent.some((r) => r.method === 'PUT')).toBe(true));
    const body = sent.find((r) => r.method === 'PUT')!.body as { timeZone: string; hours: unknown[] };
    expect(body.timeZone).toBe('America/New_York');
    expect(body.hours).toEqual([
      ...['tue', 'wed', 'thu', 'fri'].map((day) => ({ day, from: '09:00', to: '17:00' })),
      { day: 'sat', from: '00:00', to: '24:00' },
    ]);
    const saved = await screen.findByTestId('transfer-settings');
    expect(within(saved).getByText('Eastern Time')).toBeTruthy();
    expect(within(saved).getByText('(512) 555-0100')).toBeTruthy();
    expect(within(saved).getByText('Mon–Fri 9:00 AM – 5:00 PM')).toBeTruthy();
    expect(screen.getByTestId('toast').textContent).toBe('Settings saved | Transfers reach you by these settings from the next call.');
  });
});

describe('the Buy Call Transfers intro', () => {
  it('says how many transfers are left, and nothing when the transfers service does not answer', async () => {
    renderDashboard('/dashboard?view=buy-call-transfers');
    expect((await screen.findByTestId('intro-transfer-balance')).textContent).toBe('You have 59 transfers left. See My Transfers');
    cleanup();
    answers['GET /api/my-transfers?page=1'] = { status: 503, body: { error: 'Service unavailable' } };
    renderDashboard('/dashboard?view=buy-call-transfers');
    await screen.findByRole('heading', { level: 1, name: 'Buy Call Transfers' });
    await waitFor(() => expect(sent.filter((r) => r.url === '/api/my-transfers?page=1').length).toBe(2));
    expect(screen.queryByTestId('intro-transfer-balance')).toBeNull();
  });
});
