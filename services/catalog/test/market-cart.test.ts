import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_PURCHASE_MAX_LEADS, type CartLead } from '@warmline/contracts/catalog';
import type { NewAgedLead } from '../src/db/leads';
import { agent, phoneIn, startCatalogFixture, type CatalogFixture } from './catalog-fixture';

/**
 * The cart's two questions (issue 17): 'Select all N matching this filter' (GET
 * /api/aged-leads/matching) and which of the cart's leads are still for sale (GET
 * /api/aged-leads/available), against the real database.
 */

let fx: CatalogFixture;
const viewer = agent('cart-viewer');
const otherBuyer = agent('cart-other');
let texas: NewAgedLead[] = [];
let california: NewAgedLead[] = [];
let soldToOther: NewAgedLead[] = [];
let heldByOther: NewAgedLead[] = [];
let heldByViewer: NewAgedLead[] = [];

/** Newest first, ties by id descending: the market's order, computed here, not by the service. */
const newestFirst = (leads: NewAgedLead[]) =>
  [...leads].sort((a, b) => b.formFillTime.getTime() - a.formFillTime.getTime() || (a.id < b.id ? 1 : -1));

beforeAll(async () => {
  fx = await startCatalogFixture();
  // More Texan leads than one purchase may hold, on many days and at all three prices.
  texas = await fx.addLeads(
    Array.from({ length: BULK_PURCHASE_MAX_LEADS + 40 }, (_, i) => ({ ageDays: 31 + (i % 150), ageHours: (i * 7) % 24, state: 'TX', phone: phoneIn('512') })),
  );
  california = await fx.addLeads(Array.from({ length: 12 }, (_, i) => ({ ageDays: 40 + i, state: 'CA', phone: phoneIn('415'), zip: '94110' })));

  soldToOther = california.slice(0, 2);
  await fx.buy(otherBuyer, soldToOther.map((l) => l.id));
  // An unpaid reservation of another buyer, and one of the viewer's own.
  heldByOther = california.slice(2, 4);
  const other = await fx.call('POST', '/api/bulk-purchase-leads', { body: { leadIds: heldByOther.map((l) => l.id) }, identity: otherBuyer });
  expect(other.status).toBe(201);
  heldByViewer = california.slice(4, 5);
  const own = await fx.call('POST', '/api/bulk-purchase-leads', { body: { leadIds: heldByViewer.map((l) => l.id) }, identity: viewer });
  expect(own.status).toBe(201);
});

afterAll(async () => {
  await fx?.cleanup();
});

const matching = (filter: string, as = viewer) => fx.call('GET', `/api/aged-leads/matching?filter=${encodeURIComponent(filter)}`, { identity: as });
const available = (ids: string[], as = viewer) => fx.call('GET', `/api/aged-leads/available?ids=${ids.join(',')}`, { identity: as });

/** The price of a lead of this many whole days (spec §9), the test's own table. */
const priceOfAge = (days: number) => (days <= 60 ? 250 : days <= 90 ? 200 : 150);
const ageOf = (lead: NewAgedLead) => Math.floor((fx.now().getTime() - lead.formFillTime.getTime()) / 86_400_000);

describe('select all matching a filter', () => {
  it('when the filter matches more than one purchase may hold, then the newest up to the limit come, masked and priced, with the full total', async () => {
    const answer = await matching('TX');

    expect(answer.status).toBe(200);
    const leads = answer.body.leads as CartLead[];
    expect(answer.body.total).toBe(texas.length);
    expect(leads).toHaveLength(BULK_PURCHASE_MAX_LEADS);
    const expected = newestFirst(texas).slice(0, BULK_PURCHASE_MAX_LEADS);
    expect(leads.map((l) => l.id)).toEqual(expected.map((l) => l.id));
    for (const [i, lead] of leads.entries()) {
      const source = expected[i]!;
      expect(lead.state).toBe('TX');
      expect(lead.actualAge).toBe(ageOf(source));
      expect(lead.priceCents).toBe(priceOfAge(ageOf(source)));
      // Masked as in the market: the last word's first three letters, then X's.
      expect(lead.name).not.toBe(source.name);
      expect(lead.name).toMatch(/^\S+ \S{3}X+$/);
    }
    expect(Object.keys(leads[0]!).sort()).toEqual(['actualAge', 'id', 'name', 'priceCents', 'state', 'zip']);
  });

  it("leaves out leads sold or reserved by another buyer, keeps the viewer's own reserved ones, and follows zip codes", async () => {
    const answer = await matching('CA');

    const expected = newestFirst(california.filter((l) => !soldToOther.includes(l) && !heldByOther.includes(l)));
    expect(answer.body.total).toBe(expected.length);
    expect((answer.body.leads as CartLead[]).map((l) => l.id)).toEqual(expected.map((l) => l.id));
    expect((answer.body.leads as CartLead[]).map((l) => l.id)).toContain(heldByViewer[0]!.id);

    // The other buyer sees their own reservation but not the viewer's.
    const asOther = await matching('94110', otherBuyer);
    const otherIds = (asOther.body.leads as CartLead[]).map((l) => l.id);
    expect(otherIds).toContain(heldByOther[0]!.id);
    expect(otherIds).not.toContain(heldByViewer[0]!.id);
    expect(asOther.body.total).toBe(otherIds.length);
  });

  it('when nothing matches, then none come with a total of 0', async () => {
    const answer = await matching('WY');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ leads: [], total: 0 });
  });
});

describe('which leads of a cart are still for sale', () => {
  it('when a cart holds sold, reserved, vanished and free leads, then the free ones and its own come at today\'s price and the rest are named', async () => {
    const free = [texas[0]!, texas[1]!, california[6]!];
    const neverExisted = randomUUID();
    const ids = [...free, ...soldToOther, ...heldByOther, ...heldByViewer].map((l) => l.id).concat(neverExisted);

    const answer = await available(ids);

    expect(answer.status).toBe(200);
    const leads = answer.body.leads as CartLead[];
    expect(new Set(leads.map((l) => l.id))).toEqual(new Set([...free, ...heldByViewer].map((l) => l.id)));
    for (const lead of leads) {
      const source = [...texas, ...california].find((l) => l.id === lead.id)!;
      expect(lead.priceCents).toBe(priceOfAge(ageOf(source)));
      expect(lead.state).toBe(source.state);
    }
    expect(new Set(answer.body.unavailableLeadIds as string[])).toEqual(new Set([...soldToOther.map((l) => l.id), ...heldByOther.map((l) => l.id), neverExisted]));
  });

  it('when a lead ages into a cheaper range, then its new price comes; past 180 days it is unavailable', async () => {
    const [aging, ending] = await fx.addLeads([
      { ageDays: 60, ageHours: 23.5 },
      { ageDays: 180, ageHours: 23.5 },
    ]);
    const before = await available([aging!.id, ending!.id]);
    expect((before.body.leads as CartLead[]).map((l) => [l.id, l.priceCents])).toEqual([
      [aging!.id, 250],
      [ending!.id, 150],
    ]);

    fx.advance(3_600_000);
    try {
      const after = await available([aging!.id, ending!.id]);
      expect((after.body.leads as CartLead[]).map((l) => [l.id, l.priceCents, l.actualAge])).toEqual([[aging!.id, 200, 61]]);
      expect(after.body.unavailableLeadIds).toEqual([ending!.id]);
    } finally {
      fx.advance(-3_600_000);
    }
  });

  it('refuses a missing, too long or malformed list of ids with 400 and its message, and callers who are not logged in with 401', async () => {
    const tooMany = Array.from({ length: 101 }, () => randomUUID());
    const cases: Array<[string, string]> = [
      ['/api/aged-leads/available', 'Name between 1 and 100 lead ids, separated by commas'],
      ['/api/aged-leads/available?ids=', 'Name between 1 and 100 lead ids, separated by commas'],
      [`/api/aged-leads/available?ids=${tooMany.join(',')}`, 'Name between 1 and 100 lead ids, separated by commas'],
      [`/api/aged-leads/available?ids=${randomUUID()},not-a-lead`, 'Each lead id must be a UUID'],
      [`/api/aged-leads/matching?filter=${'TX,'.repeat(101)}`, 'Filter must be at most 300 characters'],
    ];
    for (const [path, message] of cases) {
      const answer = await fx.call('GET', path, { identity: viewer });
      expect(answer.status, path).toBe(400);
      expect(answer.body.error, path).toBe(message);
    }
    // The same id twice is one lead.
    const twice = await available([texas[2]!.id, texas[2]!.id.toUpperCase()]);
    expect((twice.body.leads as CartLead[]).map((l) => l.id)).toEqual([texas[2]!.id]);

    expect((await fx.call('GET', `/api/aged-leads/available?ids=${texas[2]!.id}`)).status).toBe(401);
    expect((await fx.call('GET', '/api/aged-leads/matching?filter=TX')).status).toBe(401);
  });
});
