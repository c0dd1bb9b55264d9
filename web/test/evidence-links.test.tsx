import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { MyLeadsResponse } from '@warmline/contracts/catalog';
import { MyLeadsView } from '../src/features/aged-leads/my-leads-view';
import { EvidenceLink } from '../src/features/compliance/evidence-link';
import { createQueryClient } from '../src/lib/query-client';
import { stubApi } from './stub-api';

/**
 * The consent evidence pack's download (issue 24 §4): a plain link with `download` on each of
 * My Leads' rows (and each call-back card and transfer row), to the agent's own route, and to
 * the admin's route where the admin sees a sale. The network is a stand-in `fetch`.
 */

function lead(n: number): MyLeadsResponse['leads'][number] {
  return {
    id: `00000000-0000-4000-8000-00000000002${n}`,
    name: `Dana${n} Smith`,
    phone: `(512) 555-010${n}`,
    email: null,
    state: 'TX',
    formFillTime: '2026-06-03T14:02:11.000Z',
    source: 'facebook-lead-form',
    consent: {},
    consentCertificate: null,
    consentTime: null,
    consentIp: null,
    ageRangeAtPurchase: '30-60',
    pricePaid: 2.5,
    priceCents: 250,
    purchasedAt: '2026-07-20T10:00:00.000Z',
    orderId: '5f1c6a0e-7a0b-4f7e-9d5c-0a1b2c3d4e5f',
    optedOutAt: null,
    dnc: { checkedOn: null, onRegistry: false, outOfDate: true },
    localTime: '10:04 AM CST',
    callableNow: true,
    callingHoursNote: null,
  };
}

const mine: MyLeadsResponse = { leads: [lead(1), lead(2)], total: 2, page: 1, pageSize: 50 };
beforeEach(() => {
  // Any page of My Leads is `mine`; anything else is not here (and not JSON).
  stubApi({}, { fallback: (call) => (call.url.startsWith('/api/my-leads') ? { status: 200, body: mine } : { status: 404, body: { error: 'not here' }, headers: {} }) });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the evidence pack link', () => {
  it("when My Leads lists two leads, then each row has its own 'Evidence pack' download, named for its lead", async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <MyLeadsView onBrowse={() => undefined} />
      </QueryClientProvider>,
    );

    const rows = (await screen.findAllByRole('row')).filter((r) => r.textContent?.includes('Dana'));
    expect(rows).toHaveLength(2);
    rows.forEach((row, i) => {
      const link = within(row).getByRole('link', { name: `Evidence pack for Dana${i + 1} Smith (PDF and JSON, zip)` });
      expect(link.getAttribute('href')).toBe(`/api/my-leads/${mine.leads[i]!.id}/evidence`);
      expect(link.hasAttribute('download')).toBe(true);
    });
  });

  it("when it is the admin's, then it goes to the admin's route of that kind of sale", () => {
    render(
      <>
        <EvidenceLink kind="callback" id="cb-1" name="Maria Lopez" admin />
        <EvidenceLink kind="transfer" id="tr-1" name="Nora Quinn" admin />
        <EvidenceLink kind="transfer" id="tr-2" name="Nora Quinn" />
      </>,
    );

    const hrefs = screen.getAllByRole('link').map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(['/api/admin/callback-opportunities/cb-1/evidence', '/api/admin/transfers/tr-1/evidence', '/api/my-transfers/tr-2/evidence']);
  });
});
