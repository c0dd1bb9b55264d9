import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import type { MarketLead, MarketLeadsResponse, MyLeadsResponse, PurchasedLead } from '@warmline/contracts/catalog';
import { MarketView } from '../src/features/aged-leads/market-view';
import { MyLeadsView } from '../src/features/aged-leads/my-leads-view';
import { certificateUrl, formatConsentDate, formatConsentTime } from '../src/features/aged-leads/consent-format';
import { createQueryClient } from '../src/lib/query-client';
import { TEST_BUYER } from './accounts-fixture';
import { stubApi } from './stub-api';

/**
 * Consent on every lead (issue 13): the market's 'Consent on file' badge with the consent's date,
 * none on a lead without consent; My Leads shows the whole record, the certificate as a link
 * only when it is an https URL. The network is a stand-in `fetch`.
 */

const user = TEST_BUYER;

function marketLead(n: number, consent: Pick<MarketLead, 'consentOnFile' | 'consentDate'>): MarketLead {
  return {
    id: `00000000-0000-4000-8000-00000000000${n}`,
    name: `Lead${n} SmiXX`,
    phone: '(512) XXX-XXXX',
    state: 'TX',
    zip: '78701',
    actualAge: 40,
    currentAgeRange: '30-60',
    currentPrice: 2.5,
    priceCents: 250,
    formFillTime: '2026-06-03T14:02:11.000Z',
    dnc: { checkedOn: '2026-06-01', onRegistry: false, outOfDate: false },
    localTime: '10:04 AM CST', callableNow: true, callingHoursNote: null,
    ...consent,
  };
}

function purchasedLead(
  n: number,
  consent: Pick<PurchasedLead, 'consentCertificate' | 'consentTime' | 'consentIp'> & Partial<Pick<PurchasedLead, 'email'>>,
): MyLeadsResponse['leads'][number] {
  return {
    id: `00000000-0000-4000-8000-00000000001${n}`,
    localTime: '10:04 AM CST', callableNow: true, callingHoursNote: null,
    name: `Dana${n} Smith`,
    phone: '(512) 555-010' + String(n),
    email: null,
    state: 'TX',
    formFillTime: '2026-06-03T14:02:11.000Z',
    source: 'facebook-lead-form',
    consent: {},
    ageRangeAtPurchase: '30-60',
    pricePaid: 2.5,
    priceCents: 250,
    purchasedAt: '2026-07-20T10:00:00.000Z',
    orderId: '5f1c6a0e-7a0b-4f7e-9d5c-0a1b2c3d4e5f',
    optedOutAt: null,
    dnc: { checkedOn: null, onRegistry: false, outOfDate: true },
    ...consent,
  };
}

let market: MarketLeadsResponse = { leads: [], total: 0, page: 1, pageSize: 50 };
let mine: MyLeadsResponse = { leads: [], total: 0, page: 1, pageSize: 50 };
beforeEach(() => {
  // Any page of the market is `market`, of My Leads `mine`; anything else is not here (and not JSON).
  stubApi(
    {},
    {
      fallback: ({ url }) => {
        const body = url.startsWith('/api/aged-leads') ? market : url.startsWith('/api/my-leads') ? mine : undefined;
        return body ? { status: 200, body } : { status: 404, body: { error: 'not here' }, headers: {} };
      },
    },
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const client = () => createQueryClient();

describe('the consent badge in the market', () => {
  it("when a lead has consent on file, then its row says 'Consent on file' with the date; without one, no badge", async () => {
    market = {
      leads: [
        marketLead(1, { consentOnFile: true, consentDate: '2026-06-03' }),
        marketLead(2, { consentOnFile: true, consentDate: null }),
        marketLead(3, { consentOnFile: false, consentDate: null }),
      ],
      total: 3,
      page: 1,
      pageSize: 50,
    };
    render(
      <QueryClientProvider client={client()}>
        {/* The market goes on to the receipt once paid: it needs a router. */}
        <MemoryRouter>
          <MarketView user={user} />
        </MemoryRouter>
      </QueryClientProvider>,
    );

    const rows = await screen.findAllByRole('row');
    const row = (name: string) => rows.find((r) => r.textContent?.includes(name))!;
    expect(screen.getByRole('columnheader', { name: 'Consent' })).toBeTruthy();
    expect(row('Lead1').querySelector('.consent-badge')?.textContent).toBe('Consent on file · 06/03/2026');
    expect(row('Lead2').querySelector('.consent-badge')?.textContent).toBe('Consent on file');
    expect(row('Lead3').querySelector('.consent-badge')).toBeNull();
    // Words, not a colour: the cell of a lead without consent says so to a screen reader.
    expect(within(row('Lead3')).getByText('No consent on file')).toBeTruthy();
    // The masked phone may wrap after its area code, and still reads as one number.
    expect(within(row('Lead1')).getByRole('cell', { name: /^\(512\) XXX-XXXX/ })).toBeTruthy();
  });
});

describe('the consent record in My Leads', () => {
  it('shows the certificate as a link that opens in a new tab, the consent time and the address', async () => {
    mine = {
      leads: [
        purchasedLead(1, {
          email: 'dana.j.smith@example.com',
          consentCertificate: 'https://cert.trustedform.com/2b9d4f0c6a8e1357902468ace13579bdf0246813',
          consentTime: '2026-06-03T14:02:19.000Z',
          consentIp: '203.0.113.42',
        }),
        purchasedLead(2, { consentCertificate: 'jornaya-leadid-000042', consentTime: null, consentIp: '2001:db8::7' }),
        purchasedLead(3, { consentCertificate: 'javascript:alert(1)', consentTime: null, consentIp: null }),
        purchasedLead(4, { consentCertificate: null, consentTime: null, consentIp: null }),
      ],
      total: 4,
      page: 1,
      pageSize: 50,
    };
    render(
      <QueryClientProvider client={client()}>
        <MyLeadsView onBrowse={() => undefined} />
      </QueryClientProvider>,
    );

    const rows = await screen.findAllByRole('row');
    const row = (name: string) => rows.find((r) => r.textContent?.includes(name))!;
    const link = within(row('Dana1')).getByRole('link', { name: /^trustedform\.com certificate for Dana1 Smith/ });
    expect(link.getAttribute('href')).toBe('https://cert.trustedform.com/2b9d4f0c6a8e1357902468ace13579bdf0246813');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(link.textContent).toContain('(opens in a new tab)');
    expect(row('Dana1').querySelector('time')?.getAttribute('datetime')).toBe('2026-06-03T14:02:19.000Z');
    expect(within(row('Dana1')).getByText('IP 203.0.113.42')).toBeTruthy();

    // An id, or anything but an https URL, is text and never a link.
    expect(within(row('Dana2')).getByText('jornaya-leadid-000042')).toBeTruthy();
    expect(within(row('Dana2')).getByText('IP 2001:db8::7')).toBeTruthy();
    expect(within(row('Dana2')).queryByRole('link', { name: /certificate/ })).toBeNull();
    expect(within(row('Dana3')).getByText('javascript:alert(1)')).toBeTruthy();
    expect(within(row('Dana3')).queryByRole('link', { name: /certificate/ })).toBeNull();
    expect(within(row('Dana4')).getByText('None on file')).toBeTruthy();
    // Phone and e-mail may wrap (after the area code, after a dot of the name) and stay whole.
    expect(within(row('Dana1')).getByRole('link', { name: '(512) 555-0101' }).getAttribute('href')).toBe('tel:+15125550101');
    expect(within(row('Dana1')).getByRole('link', { name: 'dana.j.smith@example.com' }).getAttribute('href')).toBe('mailto:dana.j.smith@example.com');
  });
});

describe('consent wording', () => {
  it('dates the badge by the day the catalog gave, whatever the time zone', () => {
    expect(formatConsentDate('2026-06-03')).toBe('06/03/2026');
    expect(formatConsentDate('2026-12-31')).toBe('12/31/2026');
  });

  it('links only https certificates', () => {
    expect(certificateUrl('https://cert.trustedform.com/abc')?.host).toBe('cert.trustedform.com');
    expect(certificateUrl('http://cert.example.com/abc')).toBeNull();
    expect(certificateUrl('javascript:alert(1)')).toBeNull();
    expect(certificateUrl('3f2a9c1e-jornaya-id')).toBeNull();
  });

  it('gives the consent time to the second with its time zone', () => {
    expect(formatConsentTime('2026-06-03T14:02:19.000Z', 'America/Chicago')).toBe('06/03/2026, 9:02:19 AM CDT');
  });
});
