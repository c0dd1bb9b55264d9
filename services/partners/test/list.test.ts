import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARTNER_APPLICATION_PAGE_SIZE, type PartnerApplicationView } from '@warmline/contracts';
import { agentIdentity } from '@warmline/platform/testing/calls';
import { adminIdentity, minimalPdf, startPartnersFixture, validFields, type PartnersFixture } from './partners-fixture';

/** `GET /api/affnetwork-signups?status=&page=`: newest first, 50 a page, X-Total-Count. */
let f: PartnersFixture;
const admin = adminIdentity();
/** Ids by status, newest first. */
const ids: Record<'pending' | 'approved' | 'rejected', string[]> = { pending: [], approved: [], rejected: [] };
let all: string[] = [];

beforeAll(async () => {
  f = await startPartnersFixture();
  // 60 pending, 7 approved, 3 rejected, a minute apart, written straight to the table.
  const base = Date.UTC(2026, 0, 1);
  const statuses = [...Array(60).fill('pending'), ...Array(7).fill('approved'), ...Array(3).fill('rejected')] as Array<keyof typeof ids>;
  const rows = statuses.map((status, i) => ({ id: randomUUID(), status, at: new Date(base + ((i * 37) % 70) * 60_000) }));
  for (const row of rows) {
    await f.pool.query(
      `INSERT INTO partner_applications (id, business_name, contact_name, email, phone, website, business_type, experience_years,
         monthly_volume, services_interested, target_markets, business_description, why_partner, agreed_to_terms, status, created_at, updated_at)
       VALUES ($1, 'Biz', 'Contact', 'c@example.com', '5125550100', 'https://example.com', 'Other', '1-3 years', '100-500',
         ARRAY['Aged Leads'], 'TX', repeat('d', 50), repeat('w', 50), true, $2, $3, $3)`,
      [row.id, row.status, row.at],
    );
  }
  const newestFirst = [...rows].sort((a, b) => b.at.getTime() - a.at.getTime());
  all = newestFirst.map((r) => r.id);
  for (const r of newestFirst) ids[r.status].push(r.id);
});

afterAll(async () => {
  await f?.cleanup();
});

async function list(query: string) {
  const answer = await f.call('GET', `/api/affnetwork-signups${query}`, { identity: admin });
  expect(answer.status, answer.text).toBe(200);
  return { applications: JSON.parse(answer.text) as PartnerApplicationView[], total: Number(answer.headers.get('x-total-count')), answer };
}

describe('the list', () => {
  it('is newest first, 50 a page, with the total in X-Total-Count', async () => {
    const first = await list('');
    expect(first.total).toBe(70);
    expect(first.applications.map((a) => a.id)).toEqual(all.slice(0, PARTNER_APPLICATION_PAGE_SIZE));
    expect(first.answer.headers.get('cache-control')).toBe('private, no-store');
    const second = await list('?page=2');
    expect(second.total).toBe(70);
    expect(second.applications.map((a) => a.id)).toEqual(all.slice(PARTNER_APPLICATION_PAGE_SIZE));
    expect((await list('?page=3')).applications).toEqual([]);
  });

  it('filters by status', async () => {
    const pending = await list('?status=pending');
    expect(pending.total).toBe(60);
    expect(pending.applications.map((a) => a.id)).toEqual(ids.pending.slice(0, 50));
    expect((await list('?status=pending&page=2')).applications.map((a) => a.id)).toEqual(ids.pending.slice(50));
    const approved = await list('?status=approved');
    expect(approved.total).toBe(7);
    expect(approved.applications.map((a) => a.id)).toEqual(ids.approved);
    expect(approved.applications.every((a) => a.status === 'approved')).toBe(true);
    expect((await list('?status=rejected')).total).toBe(3);
  });

  it('shows every answer and the documents of an application', async () => {
    const applied = await f.apply(validFields({ businessName: 'Newest Co' }), [{ name: 'profile.pdf', bytes: minimalPdf() }]);
    expect(applied.status, applied.text).toBe(201);
    const [newest] = (await list('')).applications;
    expect(newest).toEqual({
      id: applied.body.id,
      businessName: 'Newest Co',
      contactName: 'Dana Cole',
      email: 'dana.cole@acme-leads.example',
      phone: '(512) 555-0143',
      website: 'https://acme-leads.example',
      experience: '3-5 years',
      leadsPerMonth: '1000-5000',
      monthlyBudget: null,
      status: 'pending',
      documents: [
        { filename: 'doc-1.pdf', originalName: 'profile.pdf', size: minimalPdf().length, contentType: 'application/pdf', url: `/api/affnetwork-signups/${applied.body.id}/documents/doc-1.pdf` },
      ],
      businessType: 'Lead Generation',
      servicesInterested: ['Aged Leads', 'Call Transfers'],
      targetMarkets: 'Final expense and Medicare supplement buyers in TX, FL and AZ',
      businessDescription: validFields().businessDescription,
      whyPartner: validFields().whyPartner,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    await f.call('DELETE', `/api/affnetwork-signups/${applied.body.id}`, { identity: admin });
  });

  it('refuses a bad status or page, a customer and a missing identity', async () => {
    const bad = await f.call('GET', '/api/affnetwork-signups?status=open', { identity: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Status must be pending, approved or rejected');
    expect((await f.call('GET', '/api/affnetwork-signups?page=0', { identity: admin })).status).toBe(400);
    expect((await f.call('GET', '/api/affnetwork-signups', { identity: agentIdentity() })).status).toBe(403);
    expect((await f.call('GET', '/api/affnetwork-signups')).status).toBe(401);
    expect((await f.call('GET', '/api/affnetwork-signups', { identity: null })).status).toBe(401);
  });
});
