import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { PartnerApplicationView } from '@warmline/contracts/partners';
import { PartnerAppsTab } from '../src/features/admin/partner-apps/partner-apps-tab';
import { useToasts } from '../src/components/toast-store';
import { createQueryClient } from '../src/lib/query-client';
import { stubApi } from './stub-api';

/**
 * The Partner Apps tab (issue 14): applications newest first with their contact details, answers
 * and documents (downloads), a status filter kept in the URL and a pager from X-Total-Count; the
 * status dropdown PATCHes, Delete asks first; each failure raises spec §8's toast. The network is a
 * stand-in `fetch` answering as the gateway would.
 */

const LONE_STAR_ID = '7d3c1f7e-0c1a-4bb0-9b7e-6a4f3f2e1d00';
const BAYOU_ID = '0f4e2a1b-9c8d-4e7f-a6b5-c4d3e2f1a0b9';

function application(overrides: Partial<PartnerApplicationView> = {}): PartnerApplicationView {
  return {
    id: LONE_STAR_ID,
    businessName: 'Lone Star Leads LLC',
    contactName: 'Maria Gonzales',
    email: 'maria@lonestarleads.example',
    phone: '(512) 555-0143',
    website: 'https://lonestarleads.example',
    experience: '3-5 years',
    leadsPerMonth: '1000-5000',
    monthlyBudget: null,
    status: 'pending',
    documents: [
      {
        filename: 'doc-1.pdf',
        originalName: 'w9-form.pdf',
        size: 48_000,
        contentType: 'application/pdf',
        url: `/api/affnetwork-signups/${LONE_STAR_ID}/documents/doc-1.pdf`,
      },
    ],
    businessType: 'Lead Generation',
    servicesInterested: ['Call Transfers', 'Aged Leads'],
    targetMarkets: 'Final expense in Texas and Florida',
    businessDescription: 'We run inbound final expense campaigns in twelve states, with TCPA consent on every lead.',
    whyPartner: 'We would like to sell our aged leads through WarmLine and buy live transfers in return.',
    createdAt: '2026-11-25T15:32:00.000Z',
    updatedAt: '2026-11-25T15:32:00.000Z',
    ...overrides,
  };
}
const BAYOU = application({ id: BAYOU_ID, businessName: 'Bayou Call Center', status: 'approved', documents: [], createdAt: '2026-11-24T10:00:00.000Z' });

type Answer = { status: number; body: unknown; total?: number };
let answers: Record<string, Answer>;
let sent: Array<{ url: string; method: string; body: unknown }>;

beforeEach(() => {
  sent = [];
  answers = {
    'GET /api/affnetwork-signups?page=1': { status: 200, body: [application(), BAYOU], total: 2 },
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

function Address() {
  return <output data-testid="address">{useLocation().search}</output>;
}

function renderTab(url = '/admin?tab=partner-apps') {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[url]}>
        <PartnerAppsTab />
        <LatestToast />
        <Address />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const card = (name: string) => screen.getByRole('listitem', { name });
const toastText = () => screen.getByTestId('toast').textContent;

describe('the Partner Apps tab', () => {
  it('lists the applications with contact details, answers and documents to download', async () => {
    renderTab();
    const loneStar = await screen.findByRole('listitem', { name: 'Lone Star Leads LLC' });
    expect(screen.getByText('2 applications, newest first')).toBeTruthy();
    expect(screen.getAllByTestId('partner-application').map((li) => within(li).getByRole('heading', { level: 3 }).textContent)).toEqual(['Lone Star Leads LLC', 'Bayou Call Center']);

    const the = within(loneStar);
    // In the browser's zone, named (e.g. '3:32 PM UTC').
    const appliedAt = new Date('2026-11-25T15:32:00.000Z').toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
    expect(the.getByText(`Applied 11/25/2026, ${appliedAt} · Lead Generation`)).toBeTruthy();
    expect(the.getByText('Maria Gonzales')).toBeTruthy();
    expect(the.getByRole('link', { name: 'maria@lonestarleads.example' }).getAttribute('href')).toBe('mailto:maria@lonestarleads.example');
    expect(the.getByRole('link', { name: '(512) 555-0143' }).getAttribute('href')).toBe('tel:5125550143');
    const site = the.getByRole('link', { name: /^lonestarleads\.example\s*\(opens in a new tab\)$/ });
    expect(site.getAttribute('href')).toBe('https://lonestarleads.example');
    expect(site.getAttribute('rel')).toBe('noopener noreferrer');
    expect(the.getByText('3-5 years')).toBeTruthy();
    expect(the.getByText('1000-5000')).toBeTruthy();
    expect(the.getByText('Call Transfers, Aged Leads')).toBeTruthy();
    expect(the.getByText('Final expense in Texas and Florida')).toBeTruthy();
    expect(the.getByText(/We run inbound final expense campaigns/)).toBeTruthy();
    expect(the.getByText(/sell our aged leads through WarmLine/)).toBeTruthy();
    expect(the.getByTestId('partner-status').textContent).toBe('Pending');
    expect((the.getByLabelText('Status of Lone Star Leads LLC') as HTMLSelectElement).value).toBe('pending');

    const document = the.getByRole('link', { name: /w9-form\.pdf/ });
    expect(document.getAttribute('href')).toBe(`/api/affnetwork-signups/${LONE_STAR_ID}/documents/doc-1.pdf`);
    expect(document.hasAttribute('download')).toBe(true);
    expect(document.textContent).toContain('46.9 KB');
    expect(within(card('Bayou Call Center')).getByText('No documents attached.')).toBeTruthy();
  });

  it('when a status is chosen in the filter, then only those are asked for and the filter is in the address; a new filter starts at page 1', async () => {
    answers['GET /api/affnetwork-signups?page=1'] = { status: 200, body: [0, 1].map((i) => application({ id: `id-${i}`, businessName: `Agency ${i}` })), total: 120 };
    answers['GET /api/affnetwork-signups?page=2'] = { status: 200, body: [application({ id: 'p2', businessName: 'Page Two Agency' })], total: 120 };
    answers['GET /api/affnetwork-signups?page=1&status=approved'] = { status: 200, body: [BAYOU], total: 1 };
    renderTab();
    await screen.findByRole('listitem', { name: 'Agency 0' });
    const pager = screen.getByRole('navigation', { name: 'Partner application pages' });
    expect(within(pager).getByRole('button', { name: 'Page 3' })).toBeTruthy();
    fireEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    await screen.findByRole('listitem', { name: 'Page Two Agency' });

    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'approved' } });
    await screen.findByRole('listitem', { name: 'Bayou Call Center' });
    expect(screen.getByText('1 approved application, newest first')).toBeTruthy();
    expect(screen.getByTestId('address').textContent).toBe('?tab=partner-apps&status=approved');
    expect(sent.at(-1)!.url).toBe('/api/affnetwork-signups?page=1&status=approved');
  });

  it('when the filter has nothing, then it says so', async () => {
    answers['GET /api/affnetwork-signups?page=1&status=rejected'] = { status: 200, body: [], total: 0 };
    renderTab('/admin?tab=partner-apps&status=rejected');
    expect(await screen.findByText('No rejected applications.')).toBeTruthy();
  });

  it('when a status is chosen for an application, then a confirmation says what is e-mailed; Keep sends nothing, confirming sends it with the note and the list is read again', async () => {
    answers[`PATCH /api/affnetwork-signups/${LONE_STAR_ID}/status`] = { status: 200, body: application({ status: 'approved' }) };
    renderTab();
    const select = (await screen.findByLabelText('Status of Lone Star Leads LLC')) as HTMLSelectElement;
    fireEvent.change(select, { target: { value: 'approved' } });
    let dialog = screen.getByRole('dialog', { name: 'Approve Lone Star Leads LLC?' });
    expect(within(dialog).getByTestId('email-preview').textContent).toContain('Maria Gonzales is e-mailed at maria@lonestarleads.example: “Your WarmLine partner application is approved”');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep Pending' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sent.some((r) => r.method === 'PATCH')).toBe(false);
    expect((screen.getByLabelText('Status of Lone Star Leads LLC') as HTMLSelectElement).value).toBe('pending');

    answers['GET /api/affnetwork-signups?page=1'] = { status: 200, body: [application({ status: 'approved' }), BAYOU], total: 2 };
    fireEvent.change(select, { target: { value: 'approved' } });
    dialog = screen.getByRole('dialog', { name: 'Approve Lone Star Leads LLC?' });
    fireEvent.change(within(dialog).getByLabelText(/Note to Maria Gonzales/), { target: { value: '  Welcome aboard!  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve and E-mail' }));
    await waitFor(() => expect(toastText()).toBe('Status updated | Lone Star Leads LLC is approved. Maria Gonzales has been e-mailed.'));
    expect(sent.find((r) => r.method === 'PATCH')).toEqual({ url: `/api/affnetwork-signups/${LONE_STAR_ID}/status`, method: 'PATCH', body: { status: 'approved', note: 'Welcome aboard!' } });
    await waitFor(() => expect(within(card('Lone Star Leads LLC')).getByTestId('partner-status').textContent).toBe('Approved'));
    expect((screen.getByLabelText('Status of Lone Star Leads LLC') as HTMLSelectElement).value).toBe('approved');
  });

  it("when a status change fails, then the toast says 'Failed to update application status' and the dropdown shows the status it has", async () => {
    answers[`PATCH /api/affnetwork-signups/${LONE_STAR_ID}/status`] = { status: 500, body: { error: 'The partners service did not answer' } };
    renderTab();
    const select = (await screen.findByLabelText('Status of Lone Star Leads LLC')) as HTMLSelectElement;
    fireEvent.change(select, { target: { value: 'rejected' } });
    const dialog = screen.getByRole('dialog', { name: 'Reject Lone Star Leads LLC?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject and E-mail' }));
    await waitFor(() => expect(toastText()).toBe('Failed to update application status | The partners service did not answer'));
    // The dialog stays for another try; closing it leaves the status it has.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep Pending' }));
    expect((screen.getByLabelText('Status of Lone Star Leads LLC') as HTMLSelectElement).value).toBe('pending');
  });

  it('when Delete is pressed, then a confirmation names the application; Cancel keeps it and Delete removes it', async () => {
    answers[`DELETE /api/affnetwork-signups/${LONE_STAR_ID}`] = { status: 204, body: null };
    renderTab();
    await screen.findByRole('listitem', { name: 'Lone Star Leads LLC' });
    fireEvent.click(screen.getByRole('button', { name: 'Delete application of Lone Star Leads LLC' }));
    let dialog = screen.getByRole('dialog', { name: 'Delete Partner Application' });
    expect(dialog.textContent).toContain('Delete the application of Lone Star Leads LLC (Maria Gonzales, maria@lonestarleads.example)? Its document is deleted too.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sent.some((r) => r.method === 'DELETE')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Delete application of Lone Star Leads LLC' }));
    dialog = screen.getByRole('dialog', { name: 'Delete Partner Application' });
    answers['GET /api/affnetwork-signups?page=1'] = { status: 200, body: [BAYOU], total: 1 };
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toastText()).toBe('Application deleted | The application of Lone Star Leads LLC is deleted.'));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Lone Star Leads LLC' })).toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("when a deletion fails, then the toast says 'Failed to delete partner application' and the dialog stays", async () => {
    answers[`DELETE /api/affnetwork-signups/${LONE_STAR_ID}`] = { status: 403, body: { error: 'Admins only' } };
    renderTab();
    await screen.findByRole('listitem', { name: 'Lone Star Leads LLC' });
    fireEvent.click(screen.getByRole('button', { name: 'Delete application of Lone Star Leads LLC' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toastText()).toBe('Failed to delete partner application | Admins only'));
    expect(screen.getByRole('dialog', { name: 'Delete Partner Application' })).toBeTruthy();
  });

  it("when the list cannot be read, then the toast says 'Failed to fetch affiliate network signups' and the tab offers Retry", async () => {
    answers['GET /api/affnetwork-signups?page=1'] = { status: 502, body: { error: 'The partners service is unavailable' } };
    renderTab();
    await waitFor(() => expect(toastText()).toBe('Failed to fetch affiliate network signups | The partners service is unavailable'));
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    answers['GET /api/affnetwork-signups?page=1'] = { status: 200, body: [BAYOU], total: 1 };
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('listitem', { name: 'Bayou Call Center' })).toBeTruthy();
  });
});
