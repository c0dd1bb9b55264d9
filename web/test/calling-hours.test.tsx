import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import type { MyCallbacks } from '@warmline/contracts/callbacks';
import type { CallAttemptAnswer } from '@warmline/contracts/calling-hours';
import { DashboardPage } from '../src/features/dashboard/dashboard-page';
import { CallingHoursBadge, OutsideCallingHoursFlag } from '../src/features/compliance/calling-hours-badge';
import { useToasts } from '../src/components/toast-store';
import { createQueryClient } from '../src/lib/query-client';
import { stubApi } from './stub-api';
import { TEST_AGENT } from './accounts-fixture';

/**
 * Issue 24 §3 in the SPA: the one badge that says the prospect's local time and whether a call is
 * allowed now, the admin's flag, and My Call-backs' call log (the count, and logging one more).
 */

const FL_ID = '0193a5c2-7e41-7b3a-9f6e-2d4c1b0a9e01';
const USER = TEST_AGENT;

const card = (overrides: Partial<MyCallbacks['callbacks'][number]> = {}): MyCallbacks['callbacks'][number] => ({
  id: FL_ID,
  fullName: 'Ana Diaz',
  phone: '3055550100',
  state: 'FL',
  callbackTime: null,
  transcript: null,
  callOutcome: null,
  leadQuality: null,
  interestLevel: null,
  status: 'assigned',
  assignedAt: '2026-11-25T21:05:00.000Z',
  localTime: '1:30 PM EST',
  callableNow: true,
  callingHoursNote: '2 of 3 calls in 24 hours (Florida)',
  attemptsLast24h: 2,
  lastAttemptAt: '2026-11-27T18:00:00.000Z',
  optedOutAt: null,
  dnc: { checkedOn: null, onRegistry: false, outOfDate: true },
  ...overrides,
});

let answers: Record<string, { status: number; body: unknown }>;
let sent: Array<{ url: string; method: string; body: unknown }>;

beforeEach(() => {
  sent = [];
  answers = { 'GET /api/my-callbacks': { status: 200, body: { balance: 3, pending: [], states: ['FL'], callbacks: [card()] } satisfies MyCallbacks } };
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

describe('the calling-hours badge', () => {
  it("says the prospect's clock and 'Callable now', or 'Not callable' with when it opens", () => {
    render(
      <>
        <CallingHoursBadge hours={{ localTime: '3:45 PM CST', callableNow: true, callingHoursNote: null }} />
        <CallingHoursBadge hours={{ localTime: '9:12 PM EST', callableNow: false, callingHoursNote: 'Opens 8:00 AM' }} />
        <OutsideCallingHoursFlag outside />
        <OutsideCallingHoursFlag outside={false} />
      </>,
    );
    const [open, closed] = screen.getAllByTestId('calling-hours');
    expect(open!.textContent).toBe('3:45 PM CST · , Callable now');
    expect(closed!.textContent).toBe('9:12 PM EST · , Not callable — Opens 8:00 AM');
    expect(closed!.className).toContain('calling-hours--closed');
    expect(screen.getAllByTestId('callback-time-outside-hours').map((e) => e.textContent)).toEqual(['Callback time outside calling hours']);
  });
});

describe('My Call-backs: calling hours and the call log', () => {
  it('shows the card\'s clock and calls logged; logging the third call sends it, says so, and reads the list again', async () => {
    const answer: CallAttemptAnswer = {
      attempt: { id: '0193a5c2-7e41-7b3a-9f6e-2d4c1b0a9e02', callbackId: FL_ID, outcome: 'voicemail', note: null, at: '2026-11-27T18:30:00.000Z' },
      allowedWhenMade: true,
      outsideCallingHours: false,
      message: 'Recorded.',
      attemptsLast24h: 3,
      localTime: '1:30 PM EST',
      callableNow: false,
      callingHoursNote: '3 calls in 24 hours reached (Florida)',
    };
    answers[`POST /api/my-callbacks/${FL_ID}/attempts`] = { status: 201, body: answer };
    render(
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={['/dashboard?view=my-callbacks']}>
          <DashboardPage user={USER} />
          <LatestToast />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const ana = within(await screen.findByRole('listitem', { name: 'Ana Diaz' }));
    expect(ana.getByTestId('calling-hours').textContent).toBe('1:30 PM EST · , Callable now (2 of 3 calls in 24 hours (Florida))');
    expect(ana.getByTestId('call-attempts').textContent).toContain('Calls logged in the last 24 hours: 2');

    answers['GET /api/my-callbacks'] = {
      status: 200,
      body: { balance: 3, pending: [], states: ['FL'], callbacks: [card({ callableNow: false, callingHoursNote: '3 calls in 24 hours reached (Florida)', attemptsLast24h: 3 })] } satisfies MyCallbacks,
    };
    fireEvent.change(ana.getByLabelText('Outcome'), { target: { value: 'voicemail' } });
    fireEvent.click(ana.getByRole('button', { name: 'Log a call: Ana Diaz' }));
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toBe('Call logged | Recorded.'));
    expect(sent.find((s) => s.method === 'POST')).toEqual({ url: `/api/my-callbacks/${FL_ID}/attempts`, method: 'POST', body: { outcome: 'voicemail' } });
    await waitFor(() => expect(ana.getByTestId('calling-hours').textContent).toBe('1:30 PM EST · , Not callable — 3 calls in 24 hours reached (Florida)'));
    expect(ana.getByTestId('call-attempts').textContent).toContain('Calls logged in the last 24 hours: 3');
  });
});
