import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PARTNER_DOCUMENT_MAX_BYTES, PARTNER_SUBMITTED_MESSAGE } from '@warmline/contracts';
import { minimalPdf, minimalPng, pdfOfSize, startPartnersFixture, validFields, type PartnersFixture } from './partners-fixture';

/** The public application form (issue 14): stored all or nothing, documents typed by their bytes. */
let f: PartnersFixture;

beforeAll(async () => {
  f = await startPartnersFixture();
});

afterAll(async () => {
  await f?.cleanup();
});

async function countRows(): Promise<{ applications: number; documents: number; outbox: number }> {
  const { rows } = await f.pool.query<{ applications: number; documents: number; outbox: number }>(
    `SELECT (SELECT count(*)::int FROM partner_applications) AS applications,
            (SELECT count(*)::int FROM partner_documents) AS documents,
            (SELECT count(*)::int FROM outbox) AS outbox`,
  );
  return rows[0]!;
}

describe('a valid application', () => {
  it('is stored with its two documents, partner.applied and both e-mail commands', async () => {
    const answer = await f.apply(validFields(), [
      { name: 'Company Profile.pdf', bytes: minimalPdf(), type: 'application/pdf' },
      { name: 'license.PNG', bytes: minimalPng(), type: 'image/png' },
    ]);
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.message).toBe(PARTNER_SUBMITTED_MESSAGE);
    const id = String(answer.body.id);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const { rows } = await f.pool.query(
      `SELECT business_name, contact_name, email, phone, website, business_type, experience_years, monthly_volume,
              services_interested, status, applicant_ip, created_at = updated_at AS untouched
         FROM partner_applications WHERE id = $1`,
      [id],
    );
    expect(rows).toEqual([
      {
        business_name: 'Acme Lead Partners',
        contact_name: 'Dana Cole',
        email: 'dana.cole@acme-leads.example',
        phone: '(512) 555-0143',
        website: 'https://acme-leads.example',
        business_type: 'Lead Generation',
        experience_years: '3-5 years',
        monthly_volume: '1000-5000',
        services_interested: ['Aged Leads', 'Call Transfers'],
        status: 'pending',
        applicant_ip: '203.0.113.9',
        untouched: true,
      },
    ]);
    const documents = await f.pool.query(
      'SELECT position, filename, original_name, size::int AS size, content_type, blob_key FROM partner_documents WHERE application_id = $1 ORDER BY position',
      [id],
    );
    expect(documents.rows).toEqual([
      { position: 1, filename: 'doc-1.pdf', original_name: 'Company Profile.pdf', size: minimalPdf().length, content_type: 'application/pdf', blob_key: `partner-documents/${id}/doc-1.pdf` },
      { position: 2, filename: 'doc-2.png', original_name: 'license.PNG', size: minimalPng().length, content_type: 'image/png', blob_key: `partner-documents/${id}/doc-2.png` },
    ]);
    expect(await f.storedFiles()).toEqual(expect.arrayContaining([`partner-documents/${id}/doc-1.pdf`, `partner-documents/${id}/doc-2.png`]));

    const [applied] = (await f.outbox('partner.applied')).filter((e) => e.data.applicationId === id);
    expect(applied?.data).toEqual({
      applicationId: id,
      businessType: 'Lead Generation',
      servicesInterested: ['Aged Leads', 'Call Transfers'],
      documentCount: 2,
      appliedAt: expect.any(String),
    });
    // Thin: no name, e-mail or phone in the event.
    expect(JSON.stringify(applied)).not.toMatch(/Dana|acme-leads|555/);

    const [received] = (await f.outbox('email.partner_application_received')).filter((e) => e.data.applicationId === id);
    expect(received?.data).toMatchObject({ to: 'dana.cole@acme-leads.example', contactName: 'Dana Cole', businessName: 'Acme Lead Partners' });

    const [notice] = (await f.outbox('email.partner_application_notice')).filter((e) => e.data.applicationId === id);
    expect(notice?.data).toMatchObject({
      answers: { businessName: 'Acme Lead Partners', email: 'dana.cole@acme-leads.example', servicesInterested: ['Aged Leads', 'Call Transfers'] },
      documents: [
        { originalName: 'Company Profile.pdf', size: minimalPdf().length, contentType: 'application/pdf' },
        { originalName: 'license.PNG', size: minimalPng().length, contentType: 'image/png' },
      ],
    });
  });

  it('needs no documents', async () => {
    const answer = await f.apply(validFields({ email: 'no.docs@acme-leads.example' }));
    expect(answer.status, answer.text).toBe(201);
    const { rows } = await f.pool.query('SELECT count(*)::int AS n FROM partner_documents WHERE application_id = $1', [answer.body.id]);
    expect(rows[0].n).toBe(0);
  });

  it('takes a document of exactly 10 MB', async () => {
    const answer = await f.apply(validFields({ email: 'ten.mb@acme-leads.example' }), [{ name: 'big.pdf', bytes: pdfOfSize(PARTNER_DOCUMENT_MAX_BYTES) }]);
    expect(answer.status, answer.text).toBe(201);
  });

  it('is refused without the gateway\'s signed identity', async () => {
    const before = await countRows();
    const answer = await f.apply(validFields(), [{ name: 'a.pdf', bytes: minimalPdf() }], { identity: null });
    expect(answer.status).toBe(401);
    expect(await countRows()).toEqual(before);
  });
});

describe('a refused application stores nothing: no row, no event, no file', () => {
  let before: Awaited<ReturnType<typeof countRows>>;
  let filesBefore: string[];

  beforeEach(async () => {
    before = await countRows();
    filesBefore = await f.storedFiles();
  });

  async function expectNothingStored(): Promise<void> {
    expect(await countRows()).toEqual(before);
    expect(await f.storedFiles()).toEqual(filesBefore);
  }

  it('a bad field: 400 with the first message and every issue by field, documents deleted', async () => {
    const answer = await f.apply(validFields({ email: 'not-an-email', businessDescription: 'too short' }), [
      { name: 'profile.pdf', bytes: minimalPdf() },
      { name: 'logo.png', bytes: minimalPng() },
    ]);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('Invalid email address');
    expect(answer.body.issues).toEqual(
      expect.arrayContaining([
        { path: 'email', message: 'Invalid email address' },
        { path: 'businessDescription', message: 'Please provide at least 50 characters' },
      ]),
    );
    await expectNothingStored();
  });

  it('terms not agreed', async () => {
    const answer = await f.apply(validFields({ agreeToTerms: 'false' }), [{ name: 'profile.pdf', bytes: minimalPdf() }]);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('You must agree to the terms and conditions');
    await expectNothingStored();
  });

  it('a NUL character in a field', async () => {
    const answer = await f.apply(validFields({ targetMarkets: 'TX\u0000FL' }), [{ name: 'profile.pdf', bytes: minimalPdf() }]);
    expect(answer.status).toBe(400);
    await expectNothingStored();
  });

  it('a document whose bytes are another type than its name says (a PNG named .pdf)', async () => {
    const answer = await f.apply(validFields(), [
      { name: 'profile.pdf', bytes: minimalPdf() },
      { name: 'scan.pdf', bytes: minimalPng(), type: 'application/pdf' },
    ]);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain('scan.pdf');
    await expectNothingStored();
  });

  it('an HTML page renamed .pdf', async () => {
    const html = new TextEncoder().encode('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
    const answer = await f.apply(validFields(), [
      { name: 'profile.pdf', bytes: minimalPdf() },
      { name: 'invoice.pdf', bytes: html, type: 'application/pdf' },
    ]);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain('invoice.pdf');
    await expectNothingStored();
  });

  it('a type that is not accepted (.html, .exe)', async () => {
    for (const name of ['page.html', 'setup.exe']) {
      const answer = await f.apply(validFields(), [
        { name: 'profile.pdf', bytes: minimalPdf() },
        { name, bytes: new TextEncoder().encode('MZ not a document') },
      ]);
      expect(answer.status, name).toBe(400);
      expect(answer.body.error).toContain(name);
      await expectNothingStored();
    }
  });

  it('six documents (five at most)', async () => {
    const files = Array.from({ length: 6 }, (_, i) => ({ name: `doc${i}.pdf`, bytes: minimalPdf() }));
    const answer = await f.apply(validFields(), files);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('At most 5 documents can be attached');
    await expectNothingStored();
  });

  it('a document of 10 MB and one byte', async () => {
    const answer = await f.apply(validFields(), [
      { name: 'profile.pdf', bytes: minimalPdf() },
      { name: 'big.pdf', bytes: pdfOfSize(PARTNER_DOCUMENT_MAX_BYTES + 1) },
    ]);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain('big.pdf');
    await expectNothingStored();
  });
});
