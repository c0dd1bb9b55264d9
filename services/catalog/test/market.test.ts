import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketLead } from '@warmline/contracts/catalog';
import type { NewAgedLead } from '../src/db/leads';
import { matchesLeadFilter, parseLeadFilter } from '../src/market/domain/lead-filter';
import { maskName, maskPhone } from '../src/market/domain/masking';
import { agent, phoneIn, startCatalogFixture, type CatalogFixture } from './catalog-fixture';

/** GET /api/aged-leads: paging, totals, the filter rule and masking, against the real database. */

let fx: CatalogFixture;
const viewer = agent('viewer');
const otherBuyer = agent('other');
let inventory: NewAgedLead[] = [];
/** Leads a viewer may see: 30..180 days old, unsold, not held by someone else. */
let listed: NewAgedLead[] = [];
/** What the buyer who holds some leads sees: those too. */
let listedForHolder: NewAgedLead[] = [];

const KNOWN_PHONE = '2127520155';
const KNOWN_ZIP = '10013';

const STATES: Array<[state: string, areaCodes: string[]]> = [
  ['TX', ['512', '214', '713']],
  ['CA', ['415', '213']],
  ['NY', ['212']],
  ['FL', ['305', '407']],
  ['PA', ['215']],
];

beforeAll(async () => {
  fx = await startCatalogFixture();
  // 400 leads on ~200 different days, so whole days come from the stock table and the two
  // days the window cuts through are counted exactly; ages 25..200 days, some hours apart.
  const specs = Array.from({ length: 400 }, (_, i): Parameters<CatalogFixture['addLeads']>[0][number] => {
    const [state, codes] = STATES[i % STATES.length] as [string, string[]];
    const areaCode = codes[i % codes.length] as string;
    // A zip for most (some sources give none); a few share one, so a zip can match several.
    const zip = i % 7 === 0 ? null : String(30000 + (i % 150));
    const ageDays = 25 + ((i * 37) % 176);
    const ageHours = (i * 5) % 24;
    return { ageDays, ageHours, state, phone: phoneIn(areaCode), zip, ...consentOf(i, ageDays, ageHours) };
  });
  // The window's edges exactly: 29 / 30 and 180 / 181 days, a minute on either side of the line.
  specs.push(
    { ageDays: 29, ageHours: 23.99, state: 'TX', phone: phoneIn('512') },
    { ageDays: 30, ageHours: 0.01, state: 'TX', phone: phoneIn('512') },
    { ageDays: 180, ageHours: 23.99, state: 'TX', phone: phoneIn('512') },
    { ageDays: 181, ageHours: 0.01, state: 'TX', phone: phoneIn('512') },
  );
  // The lead whose phone and zip the mask tests know: a New York number with 75201 (a Dallas
  // zip) among its hidden digits, and a Manhattan zip.
  specs.push({ ageDays: 44, ageHours: 2, state: 'NY', phone: KNOWN_PHONE, zip: KNOWN_ZIP });
  inventory = await fx.addLeads(specs);

  // Some are sold (to someone), some held by another buyer right now.
  const sold = inventory.filter((_, i) => i % 23 === 0 && i < 400);
  await fx.pool.query(
    `UPDATE aged_leads SET sold_to_user_id = $2, sold_order_id = gen_random_uuid(), sold_at = now(), sold_price_cents = 250, sold_age_range = '30-60'
      WHERE id = ANY($1::uuid[])`,
    [sold.map((l) => l.id), otherBuyer.userId],
  );
  const heldIds = inventory.filter((_, i) => i % 29 === 1 && i < 400).map((l) => l.id);
  const heldOrder = '00000000-0000-4000-8000-000000000001';
  await fx.pool.query(
    `INSERT INTO lead_reservations (order_id, buyer_user_id, lead_count, amount_cents, created_at, expires_at)
     VALUES ($1, $2, $3, 100, now(), now() + interval '15 minutes')`,
    [heldOrder, otherBuyer.userId, heldIds.length],
  );
  await fx.pool.query(
    `INSERT INTO lead_reservation_items (order_id, lead_id, age_range, price_cents) SELECT $1, id, '30-60', 250 FROM unnest($2::uuid[]) AS id`,
    [heldOrder, heldIds],
  );
  await fx.pool.query(
    `UPDATE aged_leads SET held_by_order_id = $1, held_by_user_id = $2, held_until = now() + interval '15 minutes' WHERE id = ANY($3::uuid[])`,
    [heldOrder, otherBuyer.userId, heldIds],
  );
  const soldIds = new Set(sold.map((l) => l.id));
  const held = new Set(heldIds);
  const now = fx.now().getTime();
  listedForHolder = inventory
    .filter((l) => {
      const age = Math.floor((now - l.formFillTime.getTime()) / 86_400_000);
      return age >= 30 && age <= 180 && !soldIds.has(l.id);
    })
    .sort((a, b) => b.formFillTime.getTime() - a.formFillTime.getTime() || (a.id < b.id ? 1 : -1));
  listed = listedForHolder.filter((l) => !held.has(l.id));
});

/**
 * The consent records of the inventory, in turn: the whole record (IPv4 or IPv6), a certificate
 * alone (a Jornaya id), a time alone, and two kinds of none. The time is 7 seconds after the
 * form fill, so its time of day is no form-fill time's.
 */
function consentOf(i: number, ageDays: number, ageHours: number): Partial<NewAgedLead> {
  const consentTime = new Date(Date.now() - ageDays * 86_400_000 - ageHours * 3_600_000 + 7_000);
  switch (i % 5) {
    case 0:
      return {
        consentCertificate: `https://cert.trustedform.com/${String(i).padStart(40, 'a')}`,
        consentTime,
        consentIp: i % 2 === 0 ? `203.0.113.${(i % 250) + 1}` : `2001:db8::${i.toString(16)}`,
      };
    case 1:
      return { consentCertificate: `jornaya-leadid-${String(i).padStart(6, '0')}` };
    case 2:
      return { consentTime };
    default:
      return {};
  }
}

/** The filter rule from what the masked view shows and the zip: the test's own, not the service's. */
function seenMatch(term: string, lead: NewAgedLead): boolean {
  const t = term.trim().toUpperCase();
  return lead.state.includes(t) || (/^\d{3}$/.test(t) && lead.phone.startsWith(t)) || (/^\d{5}$/.test(t) && lead.zip === t);
}

afterAll(async () => {
  await fx?.cleanup();
});

async function everyPage(filter: string, as = viewer): Promise<{ ids: string[]; totals: number[]; pages: MarketLead[][] }> {
  const pages: MarketLead[][] = [];
  const totals: number[] = [];
  for (let page = 1; page < 50; page += 1) {
    const answer = await fx.call('GET', `/api/aged-leads?page=${page}&filter=${encodeURIComponent(filter)}`, { identity: as });
    expect(answer.status).toBe(200);
    totals.push(Number(answer.body.total));
    const leads = answer.body.leads as MarketLead[];
    if (leads.length === 0) break;
    pages.push(leads);
  }
  return { ids: pages.flat().map((l) => l.id), totals, pages };
}

describe('listing aged leads', () => {
  it('when a buyer pages through, then every listed lead comes once, newest first, 50 a page, with the same total on every page', async () => {
    const { ids, totals, pages } = await everyPage('');

    expect(ids).toEqual(listed.map((l) => l.id));
    expect(new Set(totals)).toEqual(new Set([listed.length]));
    expect(pages.slice(0, -1).every((p) => p.length === 50)).toBe(true);
  });

  it('answers { leads, total, page, pageSize: 50 }, and a page past the end is empty with the total', async () => {
    const last = Math.ceil(listed.length / 50);

    const answer = await fx.call('GET', `/api/aged-leads?page=${last + 1}`, { identity: viewer });

    expect(answer.body).toEqual({ leads: [], total: listed.length, page: last + 1, pageSize: 50 });
  });

  it('lists leads from 30 through 180 days old, and neither the 29- nor the 181-day-old one', async () => {
    const { ids } = await everyPage('');
    const [young, thirty, oneEighty, old] = inventory.slice(400, 404) as [NewAgedLead, NewAgedLead, NewAgedLead, NewAgedLead];

    expect(ids).toContain(thirty.id);
    expect(ids).toContain(oneEighty.id);
    expect(ids).not.toContain(young.id);
    expect(ids).not.toContain(old.id);
  });

  it('prices each lead by its age today and shows its age range', async () => {
    const { pages } = await everyPage('');
    for (const lead of pages.flat()) {
      const expected = lead.actualAge <= 60 ? ['30-60', 250] : lead.actualAge <= 90 ? ['60-90', 200] : ['90-180', 150];
      expect([lead.currentAgeRange, lead.priceCents]).toEqual(expected);
      expect(lead.currentPrice).toBe(lead.priceCents / 100);
    }
  });

  it.each(['TX', 'tx', 'CA,TX', 'ca , ny', 'a', '512', '512,TX', '213,CA', '75201', '10013', '10013,FL', '30010', '30010,30020,NY', 'Y', 'texas', '999'])(
    "when filtering by '%s', then exactly the matching leads come, with their count as the total",
    async (filter) => {
      const rule = parseLeadFilter(filter);
      const expected = listed.filter((l) => matchesLeadFilter(rule, l)).map((l) => l.id);

      const { ids, totals } = await everyPage(filter);

      expect(ids).toEqual(expected);
      expect(totals[0]).toBe(expected.length);
    },
  );

  it('finds a lead by its zip code, and a 5-digit run of its phone finds nothing', async () => {
    const byZip = await everyPage(KNOWN_ZIP);
    const byPhone = await everyPage('75201');

    expect(byZip.ids).toEqual([inventory[404]?.id]);
    expect(byZip.totals[0]).toBe(1);
    expect(byPhone.ids).toEqual([]);
    expect(byPhone.totals[0]).toBe(0);
  });

  it('hides leads another buyer holds, but shows that buyer their own held leads', async () => {
    const { rows } = await fx.pool.query<{ id: string }>('SELECT id FROM aged_leads WHERE held_by_user_id = $1', [otherBuyer.userId]);
    const heldIds = rows.map((r) => r.id);
    expect(heldIds.length).toBeGreaterThan(0);

    const mine = await everyPage('', otherBuyer);

    expect((await everyPage('')).ids.filter((id) => heldIds.includes(id))).toEqual([]);
    expect(listedForHolder.length).toBeGreaterThan(listed.length);
    expect(mine.ids).toEqual(listedForHolder.map((l) => l.id));
    expect(mine.totals[0]).toBe(listedForHolder.length);
  });

  it("when a buyer filters by any run of digits that reaches into a lead's hidden phone digits, then neither the list nor the total finds it, while its zip does", async () => {
    const target = inventory[404] as NewAgedLead;
    expect([target.phone, target.zip]).toEqual([KNOWN_PHONE, KNOWN_ZIP]);
    // Every run of the phone's digits that holds at least one of digits 4-10 (the masked ones):
    // what a buyer who sees '(212) XXX-XXXX' would slide over it.
    const runs = new Set<string>();
    for (let from = 0; from < 10; from += 1) {
      for (let to = Math.max(from + 1, 4); to <= 10; to += 1) runs.add(target.phone.slice(from, to));
    }

    for (const run of runs) {
      const { ids, totals } = await everyPage(run);
      // What the masked view alone can answer: a state, a shown area code, a zip.
      const expected = listed.filter((l) => seenMatch(run, l)).map((l) => l.id);
      expect({ run, ids, total: totals[0] }).toEqual({ run, ids: expected, total: expected.length });
      expect(ids).not.toContain(target.id);
    }
    expect((await everyPage(target.zip as string)).ids).toEqual([target.id]);
  });

  it('never sends a name, phone or e-mail unmasked, and shows the zip a filter could find anyway', async () => {
    const answers: string[] = [];
    for (const filter of ['', 'TX', '512', '75201']) {
      for (const page of [1, 2, 5]) {
        const answer = await fx.call('GET', `/api/aged-leads?page=${page}&filter=${filter}`, { identity: viewer });
        answers.push(answer.text);
        for (const lead of answer.body.leads as Array<Record<string, unknown>>) {
          expect(Object.keys(lead).sort()).toEqual(
            [
              'actualAge',
              // Issue 24: the prospect's clock and whether a call is allowed now (never the number).
              'callableNow',
              'callingHoursNote',
              'localTime',
              'consentDate',
              'consentOnFile',
              'currentAgeRange',
              'currentPrice',
              'dnc',
              'formFillTime',
              'id',
              'name',
              'phone',
              'priceCents',
              'state',
              'zip',
            ].sort(),
          );
          const source = inventory.find((l) => l.id === lead.id) as NewAgedLead;
          expect(lead.name).toBe(maskName(source.name));
          expect(lead.phone).toBe(maskPhone(source.phone));
          expect(lead.zip).toBe(source.zip ?? '');
        }
      }
    }
    const all = answers.join('\n');
    for (const lead of inventory) {
      expect(all).not.toContain(lead.phone);
      expect(all).not.toContain(lead.phone.slice(3));
      expect(all).not.toContain(lead.email as string);
      expect(all).not.toContain(lead.name);
    }
    // Of the consent only whether it is on file and its date: never the certificate, the address,
    // the time of day or the free-form record.
    for (const lead of inventory) {
      if (lead.consentCertificate) expect(all).not.toContain(lead.consentCertificate);
      if (lead.consentIp) expect(all).not.toContain(lead.consentIp);
      if (lead.consentTime) expect(all).not.toContain(lead.consentTime.toISOString().slice(10, 19));
    }
    expect(all).not.toContain('trustedform');
    expect(all).not.toContain('I agree to be contacted');
    expect(all).not.toContain('tcpa');
  });

  it("shows 'consent on file' with the consent's date on each lead that has a certificate or a consent time, and not on the others", async () => {
    const { pages } = await everyPage('');
    const shown = pages.flat();

    for (const lead of shown) {
      const source = inventory.find((l) => l.id === lead.id) as NewAgedLead;
      expect({ id: lead.id, consentOnFile: lead.consentOnFile, consentDate: lead.consentDate }).toEqual({
        id: lead.id,
        consentOnFile: Boolean(source.consentCertificate || source.consentTime),
        consentDate: source.consentTime ? source.consentTime.toISOString().slice(0, 10) : null,
      });
    }
    // Every kind is on the market: the whole record, a certificate alone (no date), a time alone, none.
    const kinds = new Set(shown.map((l) => `${l.consentOnFile}/${l.consentDate === null ? 'no date' : 'date'}`));
    expect(kinds).toEqual(new Set(['true/date', 'true/no date', 'false/no date']));
  });

  it('answers only logged-in users, and refuses a bad page or filter with 400', async () => {
    const anonymous = await fx.call('GET', '/api/aged-leads', {});
    const unsigned = await fx.call('GET', '/api/aged-leads', { identity: null });
    const badPage = await fx.call('GET', '/api/aged-leads?page=0', { identity: viewer });
    const textPage = await fx.call('GET', '/api/aged-leads?page=two', { identity: viewer });
    const longFilter = await fx.call('GET', `/api/aged-leads?filter=${'x'.repeat(301)}`, { identity: viewer });

    expect(anonymous.status).toBe(401);
    expect(unsigned.status).toBe(401);
    expect(badPage.status).toBe(400);
    expect(badPage.body.error).toBe('Page must be a whole number of 1 or more');
    expect(textPage.status).toBe(400);
    expect(longFilter.status).toBe(400);
    expect(longFilter.body.error).toBe('Filter must be at most 300 characters');
  });

  it('keeps the per-day stock equal to the unsold leads after inserts and sales', async () => {
    const { rows } = await fx.pool.query<{ bad: number }>(
      `SELECT count(*)::int AS bad FROM (
         SELECT (form_fill_time AT TIME ZONE 'UTC')::date AS fill_day, state, area_code, count(*)::int AS n
           FROM aged_leads WHERE sold_at IS NULL GROUP BY 1, 2, 3) AS actual
       FULL JOIN (SELECT * FROM lead_stock WHERE leads > 0) AS s USING (fill_day, state, area_code)
      WHERE actual.n IS DISTINCT FROM s.leads`,
    );
    expect(rows[0]?.bad).toBe(0);
    const { rows: daily } = await fx.pool.query<{ bad: number }>(
      `SELECT count(*)::int AS bad FROM (
         SELECT (form_fill_time AT TIME ZONE 'UTC')::date AS fill_day, count(*)::int AS n
           FROM aged_leads WHERE sold_at IS NULL GROUP BY 1) AS actual
       FULL JOIN (SELECT * FROM lead_stock_daily WHERE leads > 0) AS d USING (fill_day)
      WHERE actual.n IS DISTINCT FROM d.leads`,
    );
    expect(daily[0]?.bad).toBe(0);
  });
});
