import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evidencePackSchema, type EvidencePack } from '@warmline/contracts';
import type { Identity } from '@warmline/platform';
import { download, pdfPageCount, pdfTextRuns, unzipFiles, type Download } from '@warmline/platform/testing/documents';
import { insertCallbackOpportunities } from '../src/callbacks/db/callback-opportunities';
import type { NewAgedLead } from '../src/db/leads';
import { agent, phoneIn, startCatalogFixture, vendorCall, type CatalogFixture } from './catalog-fixture';

/**
 * The consent evidence pack of a bought lead and a delivered call-back (issue 24 §4): one
 * download (a zip of the PDF and the JSON, or either alone) holding the consent record, the
 * do-not-call checks at the moment of sale, the sale record, the vendor's call for a call-back,
 * and whether the phone has opted out since — for the agent who holds it, and for an admin.
 */

let fx: CatalogFixture;
const alice = agent('alice');
const bob = agent('bob');
const admin: Identity = { ...agent('admin'), isAdmin: true };
const CERTIFICATE = 'https://cert.trustedform.com/7c1e0a4b9d2f6e8a0b1c3d5e7f9a2b4c6d8e0f13';
const CONSENT_TEXT = 'By clicking Submit I agree to be called by licensed insurance agents at the number above.';
const CONSENT_TIME = new Date(Date.now() - 50 * 86_400_000);
let checked: NewAgedLead;
let unchecked: NewAgedLead;
let bobs: NewAgedLead;
let unsold: NewAgedLead;
let aliceOrderId = '';
const callbackId = randomUUID();
const call = vendorCall({ vendorName: 'Acme Voice', transcript: 'Agent: Would you like a call back? Prospect: Yes, tomorrow after 3 pm please.', callbackTime: new Date(Date.now() + 86_400_000).toISOString() });

beforeAll(async () => {
  // No gateway answers here: the pack names the buyer by user id when the gateway cannot say their name.
  fx = await startCatalogFixture({ GATEWAY_INTERNAL_URL: 'http://127.0.0.1:9' });
  [checked, unchecked, unsold] = (await fx.addLeads([
    {
      ageDays: 45,
      name: 'Dana Whitfield',
      phone: phoneIn('512'),
      consentCertificate: CERTIFICATE,
      consentTime: CONSENT_TIME,
      consentIp: '203.0.113.42',
      consent: { tcpa: true, text: CONSENT_TEXT, page: 'https://quotes.example.com/final-expense' },
      source: 'trustedform-landing',
    },
    { ageDays: 70, name: 'Ray Lopez', phone: phoneIn('214'), consent: {} },
    { ageDays: 40, name: 'Not Sold', phone: phoneIn('512') },
  ])) as [NewAgedLead, NewAgedLead, NewAgedLead];
  [bobs] = (await fx.addLeads([{ ageDays: 50, name: 'Bob Only Lead', phone: phoneIn('212') }])) as [NewAgedLead];
  ({ orderId: aliceOrderId } = await fx.buy(alice, [checked.id, unchecked.id]));
  await fx.buy(bob, [bobs.id]);
  // The registry check at sale, as the sale writes it (another part of issue 24): the first lead was checked, the second not.
  await fx.pool.query('UPDATE aged_leads SET dnc_registry_checked_on = $2, dnc_registry_match = false WHERE id = $1', [checked.id, '2026-11-20']);

  // A vendor's call-back delivered to alice.
  const now = fx.now();
  await insertCallbackOpportunities(fx.pool, [
    {
      id: callbackId,
      callbackId: call.callbackId,
      vendorKeyId: call.vendorKeyId,
      vendorName: call.vendorName,
      source: 'vendor',
      firstName: call.firstName,
      lastName: call.lastName,
      phone: call.phone,
      state: 'TX',
      priceCents: 1500,
      transcript: call.transcript,
      callbackTime: new Date(call.callbackTime!),
      callOutcome: call.callOutcome,
      agentId: call.agentId,
      leadQuality: call.leadQuality,
      interestLevel: call.interestLevel,
      expiresAt: new Date(now.getTime() + 72 * 3_600_000),
      createdAt: new Date(now.getTime() - 3_600_000),
    },
  ]);
  await fx.pool.query(
    `UPDATE callback_opportunities SET status = 'assigned', assigned_user_id = $2, assigned_at = $3, assigned_by = 'automatic',
            dnc_registry_checked_on = '2026-11-21', dnc_registry_match = false WHERE id = $1`,
    [callbackId, alice.userId, now],
  );
});

afterAll(async () => {
  await fx?.cleanup();
});

const get = (path: string, identity: Identity, headers?: Record<string, string>): Promise<Download> => download(fx.catalog.url, path, identity, headers);

function packOf(answer: Download): EvidencePack {
  expect(answer.status, answer.text).toBe(200);
  return evidencePackSchema.parse(JSON.parse(answer.text));
}

describe('the evidence pack of a bought lead', () => {
  it('when the buyer asks for its JSON, then it holds the consent record, the checks at sale and the sale record', async () => {
    const pack = packOf(await get(`/api/my-leads/${checked.id}/evidence?format=json`, alice));
    const { rows } = await fx.pool.query<{ sold_at: Date }>('SELECT sold_at FROM aged_leads WHERE id = $1', [checked.id]);
    const soldAt = rows[0]!.sold_at.toISOString();

    expect(pack).toMatchObject({
      kind: 'lead',
      id: checked.id,
      prospect: { name: 'Dana Whitfield', phone: checked.phone, state: 'TX' },
      consent: {
        held: true,
        certificate: CERTIFICATE,
        consentedAt: CONSENT_TIME.toISOString(),
        ip: '203.0.113.42',
        source: 'trustedform-landing',
        text: CONSENT_TEXT,
        raw: { tcpa: true, text: CONSENT_TEXT, page: 'https://quotes.example.com/final-expense' },
      },
      checksAtSale: {
        suppressionList: { checkedAt: soldAt, onList: false },
        dncRegistry: { checked: true, registryDate: '2026-11-20', match: false, statement: 'Not on the national DNC registry as of its upload of 2026-11-20.' },
      },
      sale: { orderId: aliceOrderId, priceCents: 250, price: '$2.50', soldAt, buyer: { userId: alice.userId, name: null } },
      vendorCall: null,
      currentSuppression: { suppressed: false, since: null },
      currentDncRegistry: { registryDate: null, match: false, statement: 'No national DNC registry upload covers this area code now.' },
    });
    expect(Date.parse(pack.generatedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('when no format is asked, then it is one zip, evidence-lead-<id>.zip, of evidence.pdf and evidence.json, the JSON readable in its raw bytes', async () => {
    const answer = await get(`/api/my-leads/${checked.id}/evidence`, alice);

    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/zip');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="evidence-lead-${checked.id}.zip"`);
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(answer.bytes).toString('latin1')).toContain(CERTIFICATE);
    const files = unzipFiles(answer.bytes);
    expect(Object.keys(files).sort()).toEqual(['evidence.json', 'evidence.pdf']);
    const pack = evidencePackSchema.parse(JSON.parse(new TextDecoder().decode(files['evidence.json'])));
    expect(pack.consent.certificate).toBe(CERTIFICATE);
    const pdf = files['evidence.pdf']!;
    expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(await pdfPageCount(pdf)).toBeGreaterThanOrEqual(1);
    const text = pdfTextRuns(pdf).join('');
    expect(text).toContain(CERTIFICATE);
    expect(text).toContain('203.0.113.42');
    expect(text).toContain('Not on the national DNC registry as of its upload of 2026-11-20.');
    expect(text).toContain(aliceOrderId);
  });

  it('when format=pdf, then the answer is the PDF alone, an attachment with its name, and it reads as a lawyer would expect', async () => {
    const answer = await get(`/api/my-leads/${checked.id}/evidence?format=pdf`, alice);

    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="evidence-lead-${checked.id}.pdf"`);
    const runs = pdfTextRuns(answer.bytes);
    for (const heading of ['WarmLine consent evidence pack', 'Prospect', 'Consent record', 'Do-not-call checks at the moment of sale', 'Sale record', 'Suppression status at download']) {
      expect(runs).toContain(heading);
    }
    expect(runs.some((r) => r.startsWith('Generated ') && r.endsWith('page 1 of 1'))).toBe(true);
  });

  it('when format=json, then it is JSON as an attachment; without a format, Accept: application/json alone answers JSON too, and an Accept naming the zip the zip', async () => {
    const asked = await get(`/api/my-leads/${checked.id}/evidence?format=json`, alice);
    expect(asked.headers.get('content-type')).toMatch(/^application\/json/);
    expect(asked.headers.get('content-disposition')).toBe(`attachment; filename="evidence-lead-${checked.id}.json"`);

    const accepted = await get(`/api/my-leads/${checked.id}/evidence`, alice, { accept: 'application/json' });
    expect(accepted.headers.get('content-type')).toMatch(/^application\/json/);
    expect(packOf(accepted).id).toBe(checked.id);

    const both = await get(`/api/my-leads/${checked.id}/evidence`, alice, { accept: 'application/zip, application/json' });
    expect(both.headers.get('content-type')).toBe('application/zip');
    const browser = await get(`/api/my-leads/${checked.id}/evidence`, alice, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(browser.headers.get('content-type')).toBe('application/zip');
    // The query wins over the Accept header.
    const pdf = await get(`/api/my-leads/${checked.id}/evidence?format=pdf`, alice, { accept: 'application/json' });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
  });

  it('when a format is not one of zip, json, pdf, then it is a 400 naming the field', async () => {
    const answer = await get(`/api/my-leads/${checked.id}/evidence?format=docx`, alice);

    expect(answer.status).toBe(400);
    expect(answer.text).toContain('format must be one of zip, json, pdf');
  });

  it('when the registry was not checked at sale and the lead source sent no consent, then the pack says so rather than inventing it', async () => {
    const pack = packOf(await get(`/api/my-leads/${unchecked.id}/evidence?format=json`, alice));

    expect(pack.checksAtSale.dncRegistry).toEqual({
      checked: false,
      registryDate: null,
      match: null,
      statement: 'Not checked: no national DNC registry upload covered this area code at the moment of sale.',
    });
    expect(pack.consent).toMatchObject({ held: false, certificate: null, consentedAt: null, ip: null, text: null, raw: null });
  });

  it("when another agent asks for it, or for a lead nobody bought, or by a malformed id, then it is a 404 and nothing of the lead is shown", async () => {
    for (const path of [`/api/my-leads/${checked.id}/evidence`, `/api/my-leads/${unsold.id}/evidence`, `/api/my-leads/${randomUUID()}/evidence`, '/api/my-leads/not-a-uuid/evidence']) {
      const answer = await get(path, bob);
      expect(answer.status, path).toBe(404);
      expect(answer.text).not.toContain('Dana');
      expect(answer.text).toContain('Lead not found');
    }
    expect((await get(`/api/my-leads/${bobs.id}/evidence?format=json`, bob)).status).toBe(200);
  });

  it('when the phone opts out after the sale, then the pack still shows the checks at sale, and says since when it is suppressed', async () => {
    const suppressed = await fx.call('POST', '/api/admin/suppressions', { body: { phone: unchecked.phone, reason: 'Asked to stop all calls' }, identity: admin });
    expect(suppressed.status).toBe(201);

    const pack = packOf(await get(`/api/my-leads/${unchecked.id}/evidence?format=json`, alice));

    expect(pack.checksAtSale.suppressionList.onList).toBe(false);
    expect(pack.currentSuppression).toEqual({
      suppressed: true,
      since: String(suppressed.body.createdAt),
      statement: expect.stringMatching(/^Opted out since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC: do not call\.$/),
    });
  });
});

describe('the DNC registry now', () => {
  it("when a registry upload lists the phone after the sale, then the pack shows it beside the check at sale, which stays as it was", async () => {
    const upload = randomUUID();
    await fx.pool.query(
      `INSERT INTO dnc_registry_uploads (id, file_name, file_key, status, registry_date, created_by_user_id, created_at) VALUES ($1, '512.txt', 'test/512.txt', 'done', '2026-11-26', $2, now())`,
      [upload, admin.userId],
    );
    await fx.pool.query(`INSERT INTO dnc_registry_area_codes (area_code, upload_id, registry_date) VALUES ('512', $1, '2026-11-26')`, [upload]);
    await fx.pool.query('INSERT INTO dnc_registry_numbers (phone, upload_id) VALUES ($1, $2)', [checked.phone, upload]);

    const pack = packOf(await get(`/api/my-leads/${checked.id}/evidence?format=json`, alice));

    expect(pack.checksAtSale.dncRegistry).toMatchObject({ registryDate: '2026-11-20', match: false });
    expect(pack.currentDncRegistry).toEqual({ registryDate: '2026-11-26', match: true, statement: 'On the national DNC registry as of its newest upload, of 2026-11-26.' });
    expect(pdfTextRuns((await get(`/api/my-leads/${checked.id}/evidence?format=pdf`, alice)).bytes).join(' ')).toContain('On the national DNC registry as of its newest upload, of 2026-11-26.');
  });
});

describe('the admin', () => {
  it("when an admin asks for any agent's lead or call-back, then they get the same pack; an agent at the admin's route is refused", async () => {
    const lead = packOf(await get(`/api/admin/leads/${bobs.id}/evidence?format=json`, admin));
    expect(lead.sale.buyer.userId).toBe(bob.userId);
    const callback = packOf(await get(`/api/admin/callback-opportunities/${callbackId}/evidence?format=json`, admin));
    expect(callback.sale.buyer.userId).toBe(alice.userId);
    const zip = await get(`/api/admin/leads/${checked.id}/evidence`, admin);
    expect(zip.headers.get('content-disposition')).toBe(`attachment; filename="evidence-lead-${checked.id}.zip"`);

    expect((await get(`/api/admin/leads/${bobs.id}/evidence`, bob)).status).toBe(403);
    expect((await get(`/api/admin/callback-opportunities/${callbackId}/evidence`, bob)).status).toBe(403);
  });

  it('when an admin asks by a malformed id, an unsold lead or an undelivered call-back, then it is a 404', async () => {
    const malformedLead = await get('/api/admin/leads/nope/evidence', admin);
    expect(malformedLead.status).toBe(404);
    expect(JSON.parse(malformedLead.text)).toEqual({ error: 'Lead not found' });
    const malformedCallback = await get('/api/admin/callback-opportunities/nope/evidence', admin);
    expect(malformedCallback.status).toBe(404);
    expect(JSON.parse(malformedCallback.text)).toEqual({ error: 'Call-back not found' });
    expect((await get(`/api/admin/leads/${unsold.id}/evidence`, admin)).status).toBe(404);
    expect((await get(`/api/admin/callback-opportunities/${randomUUID()}/evidence`, admin)).status).toBe(404);
  });
});

describe('the evidence pack of a call-back', () => {
  it("when the agent it was delivered to asks, then it holds the vendor's call record, the checks at delivery and the price", async () => {
    const pack = packOf(await get(`/api/my-callbacks/${callbackId}/evidence?format=json`, alice));
    const { rows } = await fx.pool.query<{ assigned_at: Date; created_at: Date }>('SELECT assigned_at, created_at FROM callback_opportunities WHERE id = $1', [callbackId]);

    expect(pack).toMatchObject({
      kind: 'callback',
      prospect: { name: 'Maria Lopez', phone: call.phone, state: 'TX' },
      consent: { held: true, source: 'Acme Voice', certificate: null },
      checksAtSale: {
        suppressionList: { checkedAt: rows[0]!.assigned_at.toISOString(), onList: false },
        dncRegistry: { checked: true, registryDate: '2026-11-21', match: false },
      },
      sale: { orderId: null, priceCents: 1500, price: '$15.00', soldAt: rows[0]!.assigned_at.toISOString(), buyer: { userId: alice.userId } },
      vendorCall: {
        vendorName: 'Acme Voice',
        callTime: rows[0]!.created_at.toISOString(),
        transcript: call.transcript,
        outcome: 'callback_requested',
        callbackTime: call.callbackTime,
        durationSeconds: null,
        recordingUrl: null,
      },
    });
    const pdf = pdfTextRuns((await get(`/api/my-callbacks/${callbackId}/evidence?format=pdf`, alice)).bytes).join(' ');
    expect(pdf).toContain("The vendor's call record");
    expect(pdf).toContain('Prospect: Yes, tomorrow after 3 pm please.');
  });

  it('when another agent asks for it, then it is a 404', async () => {
    const answer = await get(`/api/my-callbacks/${callbackId}/evidence`, bob);

    expect(answer.status).toBe(404);
    expect(answer.text).toContain('Call-back not found');
    expect((await get('/api/my-callbacks/nope/evidence', alice)).status).toBe(404);
  });
});
