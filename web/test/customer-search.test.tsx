import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import type { CustomerSearchResult } from '@warmline/contracts/customer-search';
import type { SurveyResponseRecord } from '@warmline/contracts/surveys';
import { adminKeys } from '../src/features/admin/shared/api';
import type { CustomerSearchAnswer } from '../src/features/admin/customers/customers-api';
import { CustomerSearch } from '../src/features/admin/customers/customer-search';
import { createQueryClient } from '../src/lib/query-client';

/**
 * The admin's customer search box (issue 12): blank text is refused in the spec's words, and each
 * result opens what it is — a user in User Management, a paying customer's orders, a survey
 * response's details. The answer is put in the query cache as if the server had given it.
 */
afterEach(cleanup);

function result(overrides: Partial<CustomerSearchResult>): CustomerSearchResult {
  return {
    type: 'user', id: crypto.randomUUID(), firstName: null, lastName: null, name: null, mainContact: null, agencyName: null,
    businessName: null, salesperson: null, email: null, contactEmail: null, phone: null, contactPhone: null, leadType: null,
    role: null, username: null, createdAt: '2026-11-20T15:00:00.000Z', exact: false,
    ...overrides,
  };
}

const RESULTS: CustomerSearchResult[] = [
  result({ type: 'user', firstName: 'Dana', lastName: 'Cole', name: 'Dana Cole', email: 'dana@example.com', username: 'dana', exact: true }),
  result({ type: 'customer', name: 'Pat Buyer', email: 'pat@example.com', phone: '(512) 555-0100' }),
  result({ type: 'survey', firstName: 'Sam', lastName: 'Rivera', agencyName: 'Rivera Insurance', email: 'sam@example.com', leadType: 'Live Transfers', salesperson: 'John Smith' }),
];

function renderSearch(asked: string, answer?: Omit<CustomerSearchAnswer, 'more'> & { more?: boolean }, next?: CustomerSearchAnswer, survey?: SurveyResponseRecord) {
  const queryClient = createQueryClient();
  if (survey) queryClient.setQueryData(adminKeys.surveyResponse(survey.id), survey);
  if (answer) queryClient.setQueryData(adminKeys.search(asked, 50), { more: false, ...answer });
  // What "Show more" (the first 100) answers.
  if (next) queryClient.setQueryData(adminKeys.search(asked, 100), next);
  const onAsk = vi.fn();
  const onOpenUser = vi.fn();
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <CustomerSearch asked={asked} onAsk={onAsk} onOpenUser={onOpenUser} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { onAsk, onOpenUser };
}

describe('the customer search', () => {
  it("when Search is pressed with blank text, then it says 'Search text is required' and asks nothing", () => {
    const { onAsk } = renderSearch('');
    fireEvent.change(screen.getByLabelText(/Search customers/), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByRole('alert').textContent).toBe('Search text is required');
    expect(onAsk).not.toHaveBeenCalled();
  });

  it('when text is submitted with Enter, then it is asked trimmed, and Clear empties the box and the search', () => {
    const { onAsk } = renderSearch('');
    const box = screen.getByLabelText(/Search customers/);
    fireEvent.change(box, { target: { value: ' 512.555.0142 ' } });
    fireEvent.submit(box);
    expect(onAsk).toHaveBeenLastCalledWith('512.555.0142');
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect((box as HTMLInputElement).value).toBe('');
    expect(onAsk).toHaveBeenLastCalledWith('');
  });

  it('when a user result is opened, then User Management is asked for their username', () => {
    const { onOpenUser } = renderSearch('cole', { results: RESULTS, missingSources: [] });
    fireEvent.click(screen.getByRole('button', { name: 'Open Dana Cole in User Management' }));
    expect(onOpenUser).toHaveBeenCalledWith('dana');
  });

  it("when a paying customer is listed, then its Open goes to All Orders filtered by the customer's e-mail", () => {
    renderSearch('buyer', { results: RESULTS, missingSources: [] });
    const link = screen.getByRole('link', { name: 'Open the orders of Pat Buyer' });
    expect(link.getAttribute('href')).toBe('/admin-all-orders?q=pat%40example.com');
  });

  it('when a survey response is opened, then a dialog shows its agency, lead type and campaign, and the step-2 answers of its lead type', () => {
    const survey = RESULTS[2]!;
    const answers: SurveyResponseRecord = {
      id: survey.id, firstName: 'Sam', lastName: 'Rivera', agencyName: 'Rivera Insurance', role: 'Agency Owner', phone: '(512) 555-0100',
      email: 'sam@example.com', username: 'sam', leadType: 'Live Transfers', workingStates: 'TX, OK', totalTransfers: 60, transfersPerDay: 5,
      callsPerDay: 8, transferHours: '9am-5pm CST', timezone: 'CST', totalCallbacks: null, callbackPreference: null, ageRange: null,
      totalPrice: 222000, salesperson: 'John Smith', createdAt: '2026-11-20T15:00:00.000Z',
    };
    renderSearch('rivera', { results: RESULTS, missingSources: [] }, undefined, answers);
    fireEvent.click(screen.getByRole('button', { name: "Open Sam Rivera's survey response" }));
    const dialog = screen.getByRole('dialog', { name: 'Survey response' });
    const answer = (label: string) => within(dialog).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(answer('Agency')).toBe('Rivera Insurance');
    expect(answer('Lead Type')).toBe('Live Transfers');
    expect(answer('Salesperson')).toBe('John Smith');
    expect(answer('Total Transfers')).toBe('60');
    expect(answer('Transfers / Day')).toBe('5');
    expect(answer('Transfer Hours')).toBe('9am-5pm CST');
    expect(answer('States')).toBe('TX, OK');
    expect(answer('Total Price')).toBe('$2,220.00');
  });

  it('when a source did not answer in time, then the list says its matches may be missing', () => {
    renderSearch('cole', { results: RESULTS.slice(0, 1), missingSources: ['orders'] });
    expect(screen.getByText(/did not answer in time \(orders\)/)).toBeTruthy();
    expect(screen.getByText('1 result for “cole”')).toBeTruthy();
  });

  it('when more people match than the list holds, then it says so and Show more lists the next 50', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => result({ type: 'customer', id: `c-${i}`, name: `Buyer ${i}`, email: `b${i}@example.com` }));
    renderSearch('buyer', { results: many(50), missingSources: [], more: true }, { results: many(70), missingSources: [], more: false });
    expect(screen.getByText('50 results (more match) for “buyer”')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    expect(screen.getByText('70 results for “buyer”')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  it('when nothing matches, then it says nobody matches the text', () => {
    renderSearch('zzz', { results: [], missingSources: [] });
    expect(screen.getByText('Nobody matches “zzz”.')).toBeTruthy();
  });
});
