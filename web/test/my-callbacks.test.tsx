import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import type { MyCallbacks } from '@warmline/contracts/callbacks';
import { DashboardPage } from '../src/features/dashboard/dashboard-page';
import { BuyCallbacksView, callbackCount } from '../src/features/callbacks/buy-callbacks-view';
import { PENDING_POLL_MS, pendingPollInterval } from '../src/features/callbacks/api';
import { useToasts } from '../src/components/toast-store';
import { createQueryClient } from '../src/lib/query-client';
import { stubApi } from './stub-api';
import { TEST_AGENT } from './accounts-fixture';

/**
 * The agent's call-backs (issue 15 §7): My Call-backs (opened by the e-mail's ?view=my-callbacks)
 * with the balance, states and call-backs, Mark contacted and the states editor; Buy Call-backs'
 * total and its payment session. The network is a stand-in `fetch` answering as the gateway would.
 */

const CALLBACK_ID = '0193a5c2-7e41-7b3a-9f6e-2d4c1b0a9e87';
const DONE_ID = '0193a5c2-7e41-7b3a-9f6e-2d4c1b0a9e88';

const USER = TEST_AGENT;

const MINE: MyCallbacks = {
  balance: 7,
  pending: [],
  states: ['FL', 'TX'],
  callbacks: [
    {
      id: CALLBACK_ID,
      fullName: 'Maria Lopez',
      phone: '5125550143',
      state: 'TX',
      callbackTime: '2026-11-26T21:00:00.000Z',
      transcript: 'Prospect: Please call me back tomorrow after 3 pm.',
      callOutcome: 'callback_requested',
      leadQuality: 'hot',
      interestLevel: 'high',
      status: 'assigned',
      assignedAt: '2026-11-25T21:05:00.000Z',
      optedOutAt: null,
      dnc: { checkedOn: '2026-11-20', onRegistry: true, outOfDate: false },
      localTime: '3:05 PM CST', callableNow: true, callingHoursNote: null, attemptsLast24h: 0, lastAttemptAt: null,
    },
    {
      id: DONE_ID,
      fullName: 'Ana Diaz',
      phone: '3055550100',
      state: 'FL',
      callbackTime: null,
      transcript: null,
      callOutcome: null,
      leadQuality: null,
      interestLevel: null,
      status: 'contacted',
      assignedAt: '2026-11-24T21:05:00.000Z',
      // Issue 24: the prospect opted out after the call-back was delivered.
      optedOutAt: '2026-11-26T18:00:00.000Z',
      dnc: { checkedOn: null, onRegistry: false, outOfDate: true },
      localTime: '4:05 PM EST', callableNow: true, callingHoursNote: null, attemptsLast24h: 0, lastAttemptAt: null,
    },
  ],
};

type Answer = { status: number; body: unknown };
let answers: Record<string, Answer>;
let sent: Array<{ url: string; method: string; body: unknown }>;

beforeEach(() => {
  sent = [];
  answers = { 'GET /api/my-callbacks': { status: 200, body: MINE } };
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

function renderDashboard(url: string) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[url]}>
        <DashboardPage user={USER} />
        <LatestToast />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('My Call-backs', () => {
  it("opens from the e-mail's link with the balance, states and each call-back", async () => {
    renderDashboard('/dashboard?view=my-callbacks');
    expect(await screen.findByRole('heading', { level: 1, name: 'My Call-backs' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'My Call-backs' }).getAttribute('aria-current')).toBe('page');
    expect((await screen.findByTestId('callback-balance')).textContent).toBe('7');
    expect(screen.getByTestId('callback-states').textContent).toBe('Florida (FL), Texas (TX)');

    const maria = within(screen.getByRole('listitem', { name: 'Maria Lopez' }));
    expect(maria.getByRole('link', { name: '(512) 555-0143' }).getAttribute('href')).toBe('tel:+15125550143');
    expect(maria.getByText('Callback requested')).toBeTruthy();
    expect(maria.getByText('hot / high')).toBeTruthy();
    expect(maria.getByText('To call')).toBeTruthy();
    expect(maria.getByText('Prospect: Please call me back tomorrow after 3 pm.')).toBeTruthy();

    const ana = within(screen.getByRole('listitem', { name: 'Ana Diaz' }));
    expect(ana.getByText('Contacted')).toBeTruthy();
    expect(ana.getByText('Any time')).toBeTruthy();
    expect(ana.queryByRole('button', { name: /Mark/ })).toBeNull();
    // An opted-out phone is marked and is no longer a call link.
    expect(ana.getByTestId('do-not-call').textContent).toBe('Do not call — opted out on 11/26/2026');
    expect(ana.queryByRole('link', { name: '(305) 555-0100' })).toBeNull();
    expect(ana.getByText('(305) 555-0100')).toBeTruthy();
    expect(maria.queryByTestId('do-not-call')).toBeNull();
  });

  it('when 12 call-backs were just paid and are not credited yet, then they show as on their way, and the view asks again by itself until they are in the balance (issue 22)', async () => {
    const ORDER_ID = '0193a5c2-7e41-7b3a-9f6e-2d4c1b0a9e99';
    answers['GET /api/my-callbacks'] = {
      status: 200,
      body: { balance: 0, pending: [{ orderId: ORDER_ID, count: 12, paidAt: new Date().toISOString() }], states: ['TX'], callbacks: [] } satisfies MyCallbacks,
    };
    renderDashboard('/dashboard?view=my-callbacks');

    expect((await screen.findByTestId('callback-balance')).textContent).toBe('12');
    expect(screen.getByTestId('callbacks-on-their-way').textContent).toBe('12 call-backs on their way: your payment is in, and they are being added to your balance.');
    expect(screen.queryByText('Buy call-backs to start receiving them.')).toBeNull();

    // The catalog credits the order: the next answer has it in the balance, and the asking stops.
    answers['GET /api/my-callbacks'] = { status: 200, body: { balance: 12, pending: [], states: ['TX'], callbacks: [] } satisfies MyCallbacks };
    await waitFor(() => expect(screen.queryByTestId('callbacks-on-their-way')).toBeNull(), { timeout: 5_000 });
    expect(screen.getByTestId('callback-balance').textContent).toBe('12');
    const asked = sent.filter((r) => r.url === '/api/my-callbacks').length;
    await new Promise((resolve) => setTimeout(resolve, PENDING_POLL_MS + 500));
    expect(sent.filter((r) => r.url === '/api/my-callbacks').length).toBe(asked);
  });

  it('asks again every 2 seconds while an order is on its way, every 30 once it has waited two minutes, and never with nothing on its way', () => {
    const now = Date.parse('2026-11-27T12:00:00.000Z');
    const waiting = (secondsAgo: number): MyCallbacks => ({ ...MINE, pending: [{ orderId: CALLBACK_ID, count: 5, paidAt: new Date(now - secondsAgo * 1000).toISOString() }] });
    expect(pendingPollInterval(undefined, now)).toBe(false);
    expect(pendingPollInterval(MINE, now)).toBe(false);
    expect(pendingPollInterval(waiting(5), now)).toBe(2_000);
    expect(pendingPollInterval(waiting(121), now)).toBe(30_000);
  });

  it('marks a call-back contacted and reads the list again', async () => {
    answers[`PATCH /api/my-callbacks/${CALLBACK_ID}`] = { status: 200, body: { ...MINE.callbacks[0], status: 'contacted' } };
    renderDashboard('/dashboard?view=my-callbacks');
    fireEvent.click(await screen.findByRole('button', { name: 'Mark contacted: Maria Lopez' }));
    await waitFor(() => expect(sent.filter((r) => r.method === 'PATCH')).toEqual([{ url: `/api/my-callbacks/${CALLBACK_ID}`, method: 'PATCH', body: { status: 'contacted' } }]));
    await waitFor(() => expect(sent.filter((r) => r.url === '/api/my-callbacks' && r.method === 'GET').length).toBe(2));
  });

  it('saves the states taken, sorted', async () => {
    answers['PUT /api/my-callbacks-states'] = { status: 200, body: { states: ['CA', 'FL', 'TX'] } };
    renderDashboard('/dashboard?view=my-callbacks');
    fireEvent.click(await screen.findByRole('button', { name: 'Change states' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'California (CA)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save states' }));
    await waitFor(() => expect(sent.find((r) => r.method === 'PUT')?.body).toEqual({ states: ['CA', 'FL', 'TX'] }));
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toBe('States saved | You take call-backs in 3 states.'));
  });
});

describe('Buy Call-backs', () => {
  it('accepts only whole counts the checkout sells', () => {
    expect(callbackCount(' 12 ')).toBe(12);
    expect(callbackCount('0')).toBeNull();
    expect(callbackCount('1.5')).toBeNull();
    expect(callbackCount('10001')).toBeNull();
    expect(callbackCount('ten')).toBeNull();
  });

  it('shows count × $15.00 and opens the WarmLine Call-Backs payment session for that count', async () => {
    answers['POST /api/create-payment-intent'] = {
      status: 200,
      body: { clientSecret: 'pi_1_secret_2', orderId: 'ord_1', amount: 60, amountCents: 6000, currency: 'usd', paymentProvider: 'sandbox' },
    };
    answers['GET /api/config'] = { status: 200, body: { paymentProvider: 'sandbox' } };
    render(
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter>
          <BuyCallbacksView user={USER} onPaid={() => undefined} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const count = screen.getByLabelText('How many call-backs?');
    fireEvent.change(count, { target: { value: '4' } });
    expect(screen.getByTestId('callbacks-total').textContent).toBe('$60.00');
    fireEvent.change(count, { target: { value: '1200' } });
    expect(screen.getByTestId('callbacks-total').textContent).toBe('$18,000.00');

    fireEvent.change(count, { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue to Payment' }));
    expect(await screen.findByText('Enter how many call-backs, a whole number from 1 to 10,000')).toBeTruthy();
    expect(sent.some((r) => r.url === '/api/create-payment-intent')).toBe(false);

    fireEvent.change(count, { target: { value: '4' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue to Payment' }));
    await waitFor(() => expect(sent.some((r) => r.url === '/api/create-payment-intent')).toBe(true));
    const body = sent.find((r) => r.url === '/api/create-payment-intent')!.body as Record<string, unknown>;
    // WarmLine's own Call-Backs (issue 22), never the second brand's package.
    expect(body).toEqual({ amount: 60, callCount: 4, tier: 'callbacks', idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const summary = await screen.findByRole('region', { name: 'Order Summary' });
    expect(within(summary).getByText('WarmLine Call-Backs')).toBeTruthy();
    expect(summary.textContent).not.toContain('RingCloud');
    expect(within(summary).getByText('4 call-backs')).toBeTruthy();
    expect(within(summary).getByText('$60.00')).toBeTruthy();
  });
});
