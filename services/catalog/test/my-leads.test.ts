import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PurchasedLead } from '@warmline/contracts/catalog';
import type { NewAgedLead } from '../src/db/leads';
import { MY_LEADS_CSV_HEADER } from '../src/market/domain/my-leads';
import { agent, phoneIn, startCatalogFixture, type CatalogFixture } from './catalog-fixture';

/** My Leads: a buyer's purchased leads, with every detail, filterable, and as CSV. */

let fx: CatalogFixture;
const alice = agent('alice');
const bob = agent('bob');
let alicesLeads: NewAgedLead[] = [];
let bobsLeads: NewAgedLead[] = [];
const DANA_CERTIFICATE = 'https://cert.trustedform.com/2b9d4f0c6a8e1357902468ace13579bdf0246813';
const DANA_CONSENT_TIME = new Date(Date.now() - 45 * 86_400_000);

beforeAll(async () => {
  fx = await startCatalogFixture();
  alicesLeads = await fx.addLeads([
    {
      ageDays: 45,
      name: 'Dana "DJ" Smith, Jr.',
      state: 'TX',
      phone: phoneIn('512'),
      email: 'dana@example.com',
      zip: '78701',
      consentCertificate: DANA_CERTIFICATE,
      consentTime: DANA_CONSENT_TIME,
      consentIp: '203.0.113.42',
    },
    // A vendor's certificate is theirs to write: one that a spreadsheet would run stays text.
    {
      ageDays: 70,
      name: '=HYPERLINK("http://evil.example")',
      state: 'CA',
      phone: phoneIn('415'),
      email: null,
      consentCertificate: '=HYPERLINK("http://evil.example/cert")',
      consentIp: '2001:db8::7',
    },
    { ageDays: 120, name: 'Ray Lopez', state: 'TX', phone: phoneIn('214'), email: 'ray@example.com', consent: {} },
  ]);
  bobsLeads = await fx.addLeads([{ ageDays: 50, name: 'Bob Only Lead', state: 'NY', phone: phoneIn('212'), email: 'secret@example.com' }]);
  await fx.buy(alice, alicesLeads.map((l) => l.id));
  await fx.buy(bob, bobsLeads.map((l) => l.id));
});

afterAll(async () => {
  await fx?.cleanup();
});

describe('My Leads', () => {
  it("shows the buyer's purchased leads with full details, the purchase date and the price paid", async () => {
    const answer = await fx.call('GET', '/api/my-leads', { identity: alice });

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ total: 3, page: 1, pageSize: 50 });
    const leads = answer.body.leads as PurchasedLead[];
    const dana = leads.find((l) => l.id === alicesLeads[0]?.id);
    const source = alicesLeads[0] as NewAgedLead;
    expect(dana).toMatchObject({
      name: 'Dana "DJ" Smith, Jr.',
      phone: `(${source.phone.slice(0, 3)}) ${source.phone.slice(3, 6)}-${source.phone.slice(6)}`,
      email: 'dana@example.com',
      state: 'TX',
      source: 'facebook-lead-form',
      ageRangeAtPurchase: '30-60',
      pricePaid: 2.5,
      priceCents: 250,
      consent: source.consent,
      consentCertificate: DANA_CERTIFICATE,
      consentTime: DANA_CONSENT_TIME.toISOString(),
      consentIp: '203.0.113.42',
    });
    expect(Date.parse(dana?.purchasedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect(leads.map((l) => l.priceCents).sort()).toEqual([150, 200, 250]);
  });

  it('shows the consent record of each lead bought as it is on file, and null where a part is missing', async () => {
    const answer = await fx.call('GET', '/api/my-leads', { identity: alice });
    const leads = answer.body.leads as PurchasedLead[];
    const byId = (i: number) => leads.find((l) => l.id === alicesLeads[i]?.id);

    expect(byId(1)).toMatchObject({ consentCertificate: '=HYPERLINK("http://evil.example/cert")', consentTime: null, consentIp: '2001:db8::7' });
    expect(byId(2)).toMatchObject({ consent: {}, consentCertificate: null, consentTime: null, consentIp: null });
  });

  it("filters the buyer's leads with the market's rule", async () => {
    const tx = await fx.call('GET', '/api/my-leads?filter=tx', { identity: alice });
    const area = await fx.call('GET', '/api/my-leads?filter=415', { identity: alice });
    const zip = await fx.call('GET', '/api/my-leads?filter=78701', { identity: alice });

    expect((tx.body.leads as PurchasedLead[]).map((l) => l.id).sort()).toEqual([alicesLeads[0]!.id, alicesLeads[2]!.id].sort());
    expect(tx.body.total).toBe(2);
    expect((area.body.leads as PurchasedLead[]).map((l) => l.id)).toEqual([alicesLeads[1]!.id]);
    expect((zip.body.leads as PurchasedLead[]).map((l) => l.id)).toEqual([alicesLeads[0]!.id]);
  });

  it("never shows one buyer another buyer's leads, in the list or the CSV", async () => {
    const bobsList = await fx.call('GET', '/api/my-leads', { identity: bob });
    const aliceCsv = await fx.call('GET', '/api/my-leads/export.csv', { identity: alice });
    const stranger = await fx.call('GET', '/api/my-leads', { identity: agent('stranger') });
    const strangerCsv = await fx.call('GET', '/api/my-leads/export.csv', { identity: agent('stranger') });

    expect((bobsList.body.leads as PurchasedLead[]).map((l) => l.id)).toEqual([bobsLeads[0]!.id]);
    expect(bobsList.text).not.toContain('dana@example.com');
    expect(aliceCsv.text).not.toContain('secret@example.com');
    expect(stranger.body).toMatchObject({ leads: [], total: 0 });
    expect(strangerCsv.text).toBe(`${MY_LEADS_CSV_HEADER.join(',')}\r\n`);
  });

  it('requires a logged-in buyer', async () => {
    expect((await fx.call('GET', '/api/my-leads')).status).toBe(401);
    expect((await fx.call('GET', '/api/my-leads/export.csv')).status).toBe(401);
  });

  it('downloads the leads as a CSV file with every detail, quoted where needed and formulas defused', async () => {
    const answer = await fx.call('GET', '/api/my-leads/export.csv', { identity: alice });

    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="warmline-my-leads-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = answer.text.split('\r\n');
    expect(lines[0]).toBe(
      'Name,Phone,Email,State,Zip,First Name,Last Name,Form Fill Time (UTC),Age Range (days),Source,Price Paid (USD),Purchased At (UTC),Order ID,Lead ID,Consent Certificate,Consent Time (UTC),Consent IP,Do Not Call,DNC Registry,DNC Checked On',
    );
    expect(lines).toHaveLength(5); // header, 3 leads, and the empty string after the last CRLF
    expect(lines[4]).toBe('');
    const dana = lines.find((l) => l.includes(alicesLeads[0]!.id)) as string;
    const source = alicesLeads[0] as NewAgedLead;
    // The zip after the state, then the name split for a CRM's two columns (issue 22).
    expect(
      dana.startsWith(`"Dana ""DJ"" Smith, Jr.",(${source.phone.slice(0, 3)}) ${source.phone.slice(3, 6)}-${source.phone.slice(6)},dana@example.com,TX,78701,"Dana ""DJ""","Smith, Jr.",`),
    ).toBe(true);
    expect(dana).toContain(`,${source.formFillTime.toISOString()},30-60,facebook-lead-form,2.50,`);
    // The consent evidence in readable columns: the certificate, the consent time in UTC and the
    // address, never the free-form record as JSON.
    // Issue 24: then Do Not Call (empty: not opted out) and the DNC registry's check (no registry uploaded here).
    expect(dana.endsWith(`,${source.id},${DANA_CERTIFICATE},${DANA_CONSENT_TIME.toISOString()},203.0.113.42,,Not checked,`)).toBe(true);
    expect(answer.text).not.toMatch(/[{}]|""tcpa""/);
    const formula = lines.find((l) => l.includes(alicesLeads[1]!.id)) as string;
    expect(formula.startsWith(`"'=HYPERLINK(""http://evil.example"")",`)).toBe(true);
    expect(formula).toContain(`,,CA,,"'=HYPERLINK(""http://evil.example"")",,`); // no e-mail, no zip: empty fields; the name split defused too
    expect(formula.endsWith(`,"'=HYPERLINK(""http://evil.example/cert"")",,2001:db8::7,,Not checked,`)).toBe(true);
    const ray = lines.find((l) => l.includes(alicesLeads[2]!.id)) as string;
    expect(ray).toMatch(/^Ray Lopez,\(214\) \d{3}-\d{4},ray@example\.com,TX,,Ray,Lopez,/);
    expect(ray.endsWith(`,${alicesLeads[2]!.id},,,,,Not checked,`)).toBe(true);
    const filtered = await fx.call('GET', '/api/my-leads/export.csv?filter=CA', { identity: alice });
    expect(filtered.text.split('\r\n')).toHaveLength(3);
  });
});
