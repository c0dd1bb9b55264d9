import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import type { BulkPurchaseStatusResponse, DashboardConfigResponse } from '@warmline/contracts/catalog';
import { LeadReceiptView } from '../src/features/aged-leads/lead-receipt-view';
import { TrainingVideosView } from '../src/features/dashboard/info-views';
import { createQueryClient } from '../src/lib/query-client';
import { SiteConfigProvider, type SiteConfig } from '../src/lib/site-config';
import { TEST_BUYER } from './accounts-fixture';
import { stubApi, type ApiCall } from './stub-api';

/**
 * The receipt after an aged-lead purchase (issue 17 item 3), read from GET
 * /api/bulk-purchase-leads/{id} (a stand-in fetch here): paid → order number, the leads, the
 * total, My Leads; a made-up id → no purchase found, never paid. And Training Videos without
 * any configured (item 8).
 */

const ORDER_ID = '9a1c6a0e-7a0b-4f7e-9d5c-0a1b2c3d4e5f';
const SITE: SiteConfig = {
  supportPhone: '(555) 010-0199',
  supportEmail: 'help@warmline.example',
  ringcloudSupportEmail: 'support@ringcloud.local',
  testimonial: { name: 'Sarah Mitchell', title: 'Agency Owner', quote: 'Great transfers.' },
  bookingUrl: null,
};
const USER = TEST_BUYER;
const PAID: BulkPurchaseStatusResponse = {
  orderId: ORDER_ID,
  status: 'paid',
  leadCount: 2,
  soldLeadCount: 2,
  reservedUntil: '2026-11-21T10:15:00.000Z',
  leads: [
    {
      leadId: '1b2c3d4e-0000-4000-8000-000000000001',
      name: 'Wanda Cody',
      phone: '(307) 555-0101',
      email: 'wanda@example.com',
      state: 'WY',
      zip: '82001',
      ageRange: '30-60',
      priceCents: 250,
    },
    { leadId: '1b2c3d4e-0000-4000-8000-000000000002', name: 'Wyatt Brinkley', phone: '(307) 555-0102', email: null, state: 'WY', zip: null, ageRange: '90-180', priceCents: 150 },
  ],
  totalCents: 400,
  paidAt: '2026-11-21T10:01:00.000Z',
};

let stored: BulkPurchaseStatusResponse | undefined;
let videos: DashboardConfigResponse['trainingVideos'] = [];
let calls: ApiCall[] = [];
/** The addresses the screen asked, in order. */
const asked = () => calls.map((c) => c.url);
beforeEach(() => {
  stored = undefined;
  videos = [];
  calls = stubApi(
    {},
    {
      fallback: ({ url }) => {
        if (url === `/api/bulk-purchase-leads/${ORDER_ID}` && stored) return { status: 200, body: stored };
        if (url === '/api/dashboard-config') return { status: 200, body: { trainingVideos: videos } };
        return { status: 404, body: { error: 'Purchase not found' } };
      },
    },
  ).calls;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderView(view: ReactElement) {
  return render(
    <SiteConfigProvider value={SITE}>
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter>{view}</MemoryRouter>
      </QueryClientProvider>
    </SiteConfigProvider>,
  );
}

describe('the aged-lead receipt screen', () => {
  it('when the purchase is paid, then it shows the order number, each lead with the contact details the buyer now owns, the total, My Leads and the support address', async () => {
    stored = PAID;
    renderView(<LeadReceiptView orderParam={ORDER_ID} user={USER} />);

    expect(await screen.findByRole('heading', { level: 1, name: 'Thank you! Your leads are ready' })).toBeTruthy();
    expect(screen.getByTestId('order-number').textContent).toBe(ORDER_ID);
    const rows = within(screen.getByRole('table', { name: 'Leads bought' })).getAllByRole('row');
    // Issue 22: what the buyer owns, never the market's masked names.
    expect(rows.map((r) => r.textContent)).toEqual([
      'LeadStateAgePrice',
      'Wanda Cody(307) 555-0101wanda@example.comWY 8200130-60 days$2.50',
      'Wyatt Brinkley(307) 555-0102WY90-180 days$1.50',
      'Total$4.00',
    ]);
    expect(screen.getByRole('link', { name: 'wanda@example.com' }).getAttribute('href')).toBe('mailto:wanda@example.com');
    expect(screen.getByRole('link', { name: '(307) 555-0101' }).getAttribute('href')).toBe('tel:+13075550101');
    expect(screen.getByTestId('receipt-total').textContent).toBe('$4.00');
    expect(screen.getByRole('link', { name: 'Go to My Leads' }).getAttribute('href')).toBe('/dashboard?view=my-leads');
    expect(screen.getByRole('link', { name: 'help@warmline.example' }).getAttribute('href')).toBe('mailto:help@warmline.example');
    expect(screen.getByText(/A receipt is on its way to tess@example\.com/)).toBeTruthy();
    // The spec's success words, on the receipt itself.
    expect(screen.getByText('Bulk Purchase Successful')).toBeTruthy();
    expect(screen.getByText('Successfully purchased 2 leads.')).toBeTruthy();
  });

  it('when some leads were sold elsewhere before the payment, then it says how many and that their price is refunded', async () => {
    stored = { ...PAID, leadCount: 3 };
    renderView(<LeadReceiptView orderParam={ORDER_ID} user={USER} />);

    expect(await screen.findByText(/One lead was sold to another buyer before your payment arrived/)).toBeTruthy();
  });

  it('when the order id is made up, then it says no purchase was found, and nothing is paid', async () => {
    renderView(<LeadReceiptView orderParam="5f1c6a0e-7a0b-4f7e-9d5c-0a1b2c3d4e5f" user={USER} />);

    expect(await screen.findByRole('heading', { level: 1, name: 'No purchase found' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/\bpaid\b|thank you/i);
    expect(screen.queryByTestId('order-number')).toBeNull();
  });

  it('when the id is not an id, then nothing is asked of the server', async () => {
    renderView(<LeadReceiptView orderParam="../../admin" user={USER} />);

    expect(await screen.findByRole('heading', { level: 1, name: 'No purchase found' })).toBeTruthy();
    expect(asked()).toEqual([]);
  });

  it('when the payment is still being confirmed, then it says so and shows no leads or total as paid', async () => {
    stored = { ...PAID, status: 'held', soldLeadCount: 0, leads: [], totalCents: 0, paidAt: null };
    renderView(<LeadReceiptView orderParam={ORDER_ID} user={USER} />);

    expect(await screen.findByRole('heading', { level: 1, name: 'Confirming your payment' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('when the reservation ended unpaid, then it says the purchase was not paid and nothing was charged', async () => {
    stored = { ...PAID, status: 'expired', soldLeadCount: 0, leads: [], totalCents: 0, paidAt: null };
    renderView(<LeadReceiptView orderParam={ORDER_ID} user={USER} />);

    expect(await screen.findByRole('heading', { level: 1, name: 'This purchase was not paid' })).toBeTruthy();
    expect(screen.getByText(/You have not been charged/)).toBeTruthy();
  });
});

describe('Training Videos', () => {
  it('when no videos are configured, then it says they are on their way and embeds no player', async () => {
    renderView(<TrainingVideosView />);

    expect(await screen.findByText('Videos are on their way')).toBeTruthy();
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
    expect(screen.queryByText('More training videos will be added soon.')).toBeNull();
  });

  it('when videos are configured, then each is embedded with its title', async () => {
    videos = [{ title: 'Intro', embedUrl: 'https://www.youtube-nocookie.com/embed/abc' }];
    renderView(<TrainingVideosView />);

    expect(await screen.findByTitle('Intro')).toBeTruthy();
    expect(screen.queryByText('Videos are on their way')).toBeNull();
  });
});
