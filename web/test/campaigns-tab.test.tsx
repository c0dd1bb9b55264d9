import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import type { Campaign } from '@warmline/contracts/campaigns';
import type { SurveyResponseRecord } from '@warmline/contracts/surveys';
import { CampaignsTab } from '../src/features/admin/campaigns/campaigns-tab';
import { useToasts } from '../src/components/toast-store';
import { createQueryClient } from '../src/lib/query-client';
import { stubApi } from './stub-api';

/**
 * The Test Campaigns tab (issue 12): the slug follows the name, the server's refusals show under
 * the field, responses come in sections by lead type in dollars and US dates, and a failed read
 * raises spec §8's toast. The network is a stand-in `fetch` answering as the gateway would.
 */

const JANE: Campaign = { id: '5b7c0a52-5a8e-4b43-9a53-8c3e8f1d2a10', name: 'Jane Doe', slug: 'jane-doe', active: true, responseCount: 2, createdAt: '2026-11-20T15:00:00.000Z' };

function response(overrides: Partial<SurveyResponseRecord>): SurveyResponseRecord {
  return {
    id: 'r1', firstName: 'Dana', lastName: 'Cole', agencyName: 'Cole Insurance', role: 'Agency Owner', phone: '(555) 777-0101',
    email: 'dana@example.com', username: 'dana', leadType: 'Live Transfers', workingStates: 'TX, FL', totalTransfers: 10,
    transfersPerDay: 2, callsPerDay: 100, transferHours: '9am-5pm', timezone: 'CST', totalCallbacks: null,
    callbackPreference: null, ageRange: null, totalPrice: 37_000, salesperson: 'Jane Doe', createdAt: '2026-11-21T18:00:00.000Z',
    ...overrides,
  };
}

type Answer = { status: number; body: unknown };
let answers: Record<string, Answer>;
let sent: Array<{ url: string; method: string; body: unknown }>;

beforeEach(() => {
  sent = [];
  answers = {
    'GET /api/admin/campaigns': { status: 200, body: [JANE] },
    'GET /api/jane-doe-responses': {
      status: 200,
      body: [response({}), response({ id: 'r2', leadType: 'Aged Leads', ageRange: '30-60', totalPrice: 123_450, totalTransfers: null })],
    },
  };
  sent = stubApi(answers).calls;
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function LatestToast() {
  const [latest] = useToasts();
  return <output data-testid="toast">{latest?.open ? latest.title : ''}</output>;
}

function renderTab(url = '/admin?tab=test-campaigns') {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[url]}>
        <CampaignsTab />
        <LatestToast />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('the Test Campaigns tab', () => {
  it('when a name is typed, then the slug follows it until the admin edits the slug', () => {
    renderTab();
    type('Salesperson or campaign name', 'Spring Promo 2026!');
    expect((screen.getByLabelText('Page address (slug)') as HTMLInputElement).value).toBe('spring-promo-2026');
    type('Page address (slug)', 'spring');
    type('Salesperson or campaign name', 'Something else');
    expect((screen.getByLabelText('Page address (slug)') as HTMLInputElement).value).toBe('spring');
  });

  it('when the slug is malformed, then the contracts message shows and nothing is sent', () => {
    renderTab();
    type('Salesperson or campaign name', 'Jane');
    type('Page address (slug)', 'Jane Doe');
    fireEvent.click(screen.getByRole('button', { name: 'Create Campaign' }));
    expect(screen.getByText(/Slug must be lower-case letters, digits and single hyphens/)).toBeTruthy();
    expect(sent.some((s) => s.method === 'POST')).toBe(false);
  });

  it("when the server answers 409, then its words show under the slug field", async () => {
    answers['POST /api/admin/campaigns'] = { status: 409, body: { error: "The slug 'admin' is a page of the site; choose another", field: 'slug' } };
    renderTab();
    type('Salesperson or campaign name', 'Admin');
    fireEvent.click(screen.getByRole('button', { name: 'Create Campaign' }));
    expect(await screen.findByText("The slug 'admin' is a page of the site; choose another")).toBeTruthy();
    expect(sent.find((s) => s.method === 'POST')?.body).toEqual({ name: 'Admin', slug: 'admin' });
    expect(screen.getByLabelText('Page address (slug)').getAttribute('aria-invalid')).toBe('true');
  });

  it('when a campaign is chosen, then its responses come in sections by lead type with dollars, US dates and an Export CSV link', async () => {
    renderTab('/admin?tab=test-campaigns&campaign=jane-doe');
    const live = await screen.findByRole('region', { name: 'Live Transfers responses' });
    expect(within(live).getByText('Dana Cole')).toBeTruthy();
    expect(within(live).getByText('$370.00')).toBeTruthy();
    expect(within(live).getByText('11/21/2026')).toBeTruthy();
    const aged = screen.getByRole('region', { name: 'Aged Leads responses' });
    expect(within(aged).getByText('$1,234.50')).toBeTruthy();
    expect(within(aged).getByText('30-60 days')).toBeTruthy();
    expect(screen.getByText('No Call-Backs responses yet.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(`/api/admin/campaigns/${JANE.id}/responses.csv`);
    expect(screen.getByRole('switch', { name: 'Jane Doe active' }).getAttribute('aria-checked')).toBe('true');
  });

  it("when the responses cannot be read, then spec §8's toast shows", async () => {
    answers['GET /api/jane-doe-responses'] = { status: 500, body: { error: 'Internal error' } };
    renderTab('/admin?tab=test-campaigns&campaign=jane-doe');
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toBe('Failed to fetch test campaign responses'));
  });

  it('when the switch is pressed, then the campaign is switched off on the server', async () => {
    answers[`PATCH /api/admin/campaigns/${JANE.id}`] = { status: 200, body: { ...JANE, active: false } };
    renderTab();
    fireEvent.click(await screen.findByRole('switch', { name: 'Jane Doe active' }));
    await waitFor(() => expect(sent.find((s) => s.method === 'PATCH')?.body).toEqual({ active: false }));
  });
});
