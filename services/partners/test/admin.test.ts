import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Identity } from '@warmline/platform';
import { IDENTITY_HEADER } from '@warmline/platform/http/identity';
import { signTestIdentity } from '@warmline/platform/testing/index';
import { agentIdentity } from '@warmline/platform/testing/calls';
import { adminIdentity, minimalPdf, minimalPng, startPartnersFixture, validFields, type PartnersFixture } from './partners-fixture';

/** The admins' side of partner applications (issue 14): downloads, status changes, deletion. */
let f: PartnersFixture;
const admin = adminIdentity();
const customer = agentIdentity('customer');

beforeAll(async () => {
  f = await startPartnersFixture();
});

afterAll(async () => {
  await f?.cleanup();
});

async function apply(overrides: Record<string, string> = {}, files = [{ name: 'profile.pdf', bytes: minimalPdf() }]): Promise<string> {
  const answer = await f.apply(validFields(overrides), files);
  if (answer.status !== 201) throw new Error(`apply answered ${answer.status}: ${answer.text}`);
  return String(answer.body.id);
}

/** A download as the browser gets it (the bytes, not text). */
function download(id: string, filename: string, identity: Identity): Promise<Response> {
  return fetch(`${f.partners.url}/api/affnetwork-signups/${id}/documents/${filename}`, {
    headers: { [IDENTITY_HEADER]: signTestIdentity('partners', identity) },
  });
}

describe('a document download', () => {
  let id: string;
  beforeAll(async () => {
    id = await apply({}, [
      { name: 'Résumé "final"; v2.pdf', bytes: minimalPdf() },
      { name: 'logo.png', bytes: minimalPng() },
    ]);
  });

  it('streams the bytes to an admin as an attachment in the detected type', async () => {
    const pdf = await download(id, 'doc-1.pdf', admin);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(
      `attachment; filename="R_sum_ _final_; v2.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22%3B%20v2.pdf`,
    );
    expect(pdf.headers.get('x-content-type-options')).toBe('nosniff');
    expect(pdf.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await pdf.arrayBuffer()).equals(Buffer.from(minimalPdf()))).toBe(true);

    const png = await download(id, 'doc-2.png', admin);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.headers.get('content-disposition')).toBe(`attachment; filename="logo.png"; filename*=UTF-8''logo.png`);
    expect(png.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await png.arrayBuffer()).equals(Buffer.from(minimalPng()))).toBe(true);
  });

  it('is 401 without an identity or anonymous, 403 for a customer', async () => {
    const path = `/api/affnetwork-signups/${id}/documents/doc-1.pdf`;
    expect((await f.call('GET', path, { identity: null })).status).toBe(401);
    expect((await f.call('GET', path)).status).toBe(401);
    expect((await f.call('GET', path, { identity: customer })).status).toBe(403);
  });

  it('is 404 for an unknown document or application', async () => {
    for (const path of [
      `/api/affnetwork-signups/${id}/documents/doc-3.pdf`,
      `/api/affnetwork-signups/${id}/documents/doc-1.png`,
      `/api/affnetwork-signups/${id}/documents/..%2F..%2Fetc%2Fpasswd`,
      `/api/affnetwork-signups/${crypto.randomUUID()}/documents/doc-1.pdf`,
      `/api/affnetwork-signups/not-a-uuid/documents/doc-1.pdf`,
    ]) {
      expect((await f.call('GET', path, { identity: admin })).status, path).toBe(404);
    }
  });
});

describe('a status change', () => {
  it('answers the view and publishes partner.status_changed, the e-mail command and the audit command', async () => {
    const id = await apply({ email: 'approve.me@acme-leads.example' });
    const answer = await f.call('PATCH', `/api/affnetwork-signups/${id}/status`, { body: { status: 'approved' }, identity: admin });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({
      id,
      status: 'approved',
      businessName: 'Acme Lead Partners',
      contactName: 'Dana Cole',
      email: 'approve.me@acme-leads.example',
      experience: '3-5 years',
      leadsPerMonth: '1000-5000',
      monthlyBudget: null,
      documents: [
        { filename: 'doc-1.pdf', originalName: 'profile.pdf', size: minimalPdf().length, contentType: 'application/pdf', url: `/api/affnetwork-signups/${id}/documents/doc-1.pdf` },
      ],
    });
    expect(answer.body.updatedAt).not.toBe(answer.body.createdAt);

    const changed = (await f.outbox('partner.status_changed')).filter((e) => e.data.applicationId === id);
    expect(changed.map((e) => e.data)).toEqual([
      { applicationId: id, from: 'pending', to: 'approved', changedByUserId: admin.userId, changedAt: expect.any(String) },
    ]);
    const emails = (await f.outbox('email.partner_status_changed')).filter((e) => e.data.applicationId === id);
    expect(emails.map((e) => e.data)).toEqual([
      {
        to: 'approve.me@acme-leads.example',
        contactName: 'Dana Cole',
        businessName: 'Acme Lead Partners',
        applicationId: id,
        status: 'approved',
        changedAt: expect.any(String),
      },
    ]);
    const audits = (await f.outbox('audit.record')).filter((e) => e.data.subjectId === id);
    expect(audits.map((e) => e.data)).toEqual([
      {
        actorId: admin.userId,
        actorUsername: admin.username,
        action: 'partner_application.status_changed',
        subjectType: 'partner_application',
        subjectId: id,
        subjectLabel: 'Acme Lead Partners (Dana Cole)',
        before: { status: 'pending' },
        after: { status: 'approved' },
        at: expect.any(String),
      },
    ]);
  });

  it("carries the admin's note into the applicant's e-mail and the audit entry's reason; a note too long is refused", async () => {
    const id = await apply();
    const long = await f.call('PATCH', `/api/affnetwork-signups/${id}/status`, { body: { status: 'rejected', note: 'n'.repeat(501) }, identity: admin });
    expect(long.status).toBe(400);
    expect(long.body.error).toBe('Note must be at most 500 characters');
    const answer = await f.call('PATCH', `/api/affnetwork-signups/${id}/status`, { body: { status: 'rejected', note: ' Volumes too low for now. ' }, identity: admin });
    expect(answer.status, answer.text).toBe(200);
    const emails = (await f.outbox('email.partner_status_changed')).filter((e) => e.data.applicationId === id);
    expect(emails.map((e) => e.data.note)).toEqual(['Volumes too low for now.']);
    const audits = (await f.outbox('audit.record')).filter((e) => e.data.subjectId === id);
    expect(audits.map((e) => e.data.reason)).toEqual(['Volumes too low for now.']);
  });

  it('back to pending is published and audited but e-mails nobody; the same status again says nothing', async () => {
    const id = await apply();
    expect((await f.call('PATCH', `/api/affnetwork-signups/${id}/status`, { body: { status: 'rejected' }, identity: admin })).status).toBe(200);
    expect((await f.call('PATCH', `/api/affnetwork-signups/${id}/status`, { body: { status: 'rejected' }, identity: admin })).status).toBe(200);
    const back = await f.call('PATCH', `/api/affnetwork-signups/${id}/status`, { body: { status: 'pending' }, identity: admin });
    expect(back.body.status).toBe('pending');
    const changes = (await f.outbox('partner.status_changed')).filter((e) => e.data.applicationId === id);
    expect(changes.map((e) => [e.data.from, e.data.to])).toEqual([['pending', 'rejected'], ['rejected', 'pending']]);
    const emails = (await f.outbox('email.partner_status_changed')).filter((e) => e.data.applicationId === id);
    expect(emails.map((e) => e.data.status)).toEqual(['rejected']);
    expect((await f.outbox('audit.record')).filter((e) => e.data.subjectId === id)).toHaveLength(2);
  });

  it('refuses a bad status (400), an unknown application (404), a customer (403), no identity (401)', async () => {
    const id = await apply();
    const bad = await f.call('PATCH', `/api/affnetwork-signups/${id}/status`, { body: { status: 'maybe' }, identity: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Status must be pending, approved or rejected');
    expect((await f.call('PATCH', `/api/affnetwork-signups/${crypto.randomUUID()}/status`, { body: { status: 'approved' }, identity: admin })).status).toBe(404);
    expect((await f.call('PATCH', `/api/affnetwork-signups/${id}/status`, { body: { status: 'approved' }, identity: customer })).status).toBe(403);
    expect((await f.call('PATCH', `/api/affnetwork-signups/${id}/status`, { body: { status: 'approved' }, identity: null })).status).toBe(401);
    const { rows } = await f.pool.query('SELECT status FROM partner_applications WHERE id = $1', [id]);
    expect(rows[0].status).toBe('pending');
  });
});

describe('a deletion', () => {
  it('removes the rows and the files, audited', async () => {
    const id = await apply({}, [
      { name: 'profile.pdf', bytes: minimalPdf() },
      { name: 'logo.png', bytes: minimalPng() },
    ]);
    expect((await f.storedFiles()).filter((k) => k.startsWith(`partner-documents/${id}/`))).toHaveLength(2);

    expect((await f.call('DELETE', `/api/affnetwork-signups/${id}`, { identity: customer })).status).toBe(403);
    const answer = await f.call('DELETE', `/api/affnetwork-signups/${id}`, { identity: admin });
    expect(answer.status, answer.text).toBe(204);

    const { rows } = await f.pool.query(
      `SELECT (SELECT count(*)::int FROM partner_applications WHERE id = $1) AS applications,
              (SELECT count(*)::int FROM partner_documents WHERE application_id = $1) AS documents`,
      [id],
    );
    expect(rows[0]).toEqual({ applications: 0, documents: 0 });
    expect((await f.storedFiles()).filter((k) => k.includes(id))).toEqual([]);
    expect((await download(id, 'doc-1.pdf', admin)).status).toBe(404);

    const audits = (await f.outbox('audit.record')).filter((e) => e.data.subjectId === id);
    expect(audits.map((e) => e.data)).toEqual([
      expect.objectContaining({ action: 'partner_application.deleted', actorId: admin.userId, subjectType: 'partner_application', after: null }),
    ]);
    expect((await f.call('DELETE', `/api/affnetwork-signups/${id}`, { identity: admin })).status).toBe(404);
  });
});
