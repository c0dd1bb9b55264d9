import type { Queryable } from '@warmline/platform/db/index';
import { prospectCallingHours } from '@warmline/contracts/calling-hours';
import {
  AGED_LEAD_PAGE_SIZE,
  BULK_PURCHASE_MAX_LEADS,
  type AvailableLeadsResponse,
  type CartLead,
  type MarketLead,
  type MarketLeadsResponse,
  type MatchingLeadsResponse,
} from '@warmline/contracts/catalog';
import { dncCheckOf } from '@warmline/contracts/dnc-registry';
import { inReadSnapshot } from '../../db/snapshot';
import { forSaleAmong, marketExceptions, marketPage, stateOrAreaDayCounts, type MarketRow, type StateOrAreaFilter } from '../db/market';
import type { CatalogContext } from '../../domain/context';
import { listingWindow, priceLead } from './lead-age';
import { canMatch, matchesLeadFilter, matchesStateOrAreaCode, parseLeadFilter } from './lead-filter';
import type { LeadFilter } from '../db/my-leads';
import { startOfUtcHour, utcDay } from '../../db/utc-days';
import { combineDayCounts, locatePage, totalOf } from './market-pages';
import { maskName, maskPhone } from './masking';

/**
 * `GET /api/aged-leads`: one page of the leads for sale to this viewer, newest first, with the
 * filter's total. Listed: unsold, 30 to 180 days old now, and not held by another buyer (a
 * buyer still sees the leads of their own unpaid order). Names and phones are masked; of the
 * consent only whether one is on file and its date show.
 */
export async function listMarketLeads(
  ctx: CatalogContext,
  viewerId: string,
  query: { page: number; filter: string; hideDncMatches?: boolean },
): Promise<MarketLeadsResponse> {
  const now = ctx.clock();
  const filter = parseLeadFilter(query.filter);
  const answer = (leads: MarketLead[], total: number): MarketLeadsResponse => ({
    leads,
    total,
    page: query.page,
    pageSize: AGED_LEAD_PAGE_SIZE,
  });
  if (!canMatch(filter)) return answer([], 0);

  return inReadSnapshot(ctx.pool, async (db) => {
    const listing = await openListing(db, { now, viewerId, filter, hideDncMatches: query.hideDncMatches ?? false });
    const rows = await listing.rows((query.page - 1) * AGED_LEAD_PAGE_SIZE, AGED_LEAD_PAGE_SIZE);
    return answer(rows.flatMap((row) => toMarketLead(row, now)), listing.total);
  });
}

/**
 * `GET /api/aged-leads/matching`: 'Select all N matching this filter' — the listing's first
 * BULK_PURCHASE_MAX_LEADS leads (what one purchase may hold), with the listing's total.
 */
export async function matchingLeads(ctx: CatalogContext, viewerId: string, filterText: string, hideDncMatches = false): Promise<MatchingLeadsResponse> {
  const now = ctx.clock();
  const filter = parseLeadFilter(filterText);
  if (!canMatch(filter)) return { leads: [], total: 0 };
  return inReadSnapshot(ctx.pool, async (db) => {
    const listing = await openListing(db, { now, viewerId, filter, hideDncMatches });
    const rows = await listing.rows(0, BULK_PURCHASE_MAX_LEADS);
    return { leads: rows.flatMap((row) => toMarketLead(row, now)).map(toCartLead), total: listing.total };
  });
}

/**
 * `GET /api/aged-leads/available`: which of these leads the buyer could reserve now — the
 * purchase's own rule (db/reservations.ts holdLeads): unsold, in the listing window, not held
 * by another buyer. Withdrawn leads are no longer in the table, so they are unavailable too.
 */
export async function availableLeads(ctx: CatalogContext, viewerId: string, leadIds: string[]): Promise<AvailableLeadsResponse> {
  const now = ctx.clock();
  const rows = await forSaleAmong(ctx.pool, { leadIds, viewerId, now, window: listingWindow(now) });
  const leads = rows.flatMap((row) => toMarketLead(row, now)).map(toCartLead);
  const found = new Set(leads.map((l) => l.id));
  return { leads, unavailableLeadIds: leadIds.filter((id) => !found.has(id)) };
}

interface Listing {
  /** Listed leads matching the filter, for this viewer. */
  total: number;
  /** `limit` leads of the listing (newest first) from `offset` on. */
  rows(offset: number, limit: number): Promise<MarketRow[]>;
}

/**
 * The market as one viewer sees it through one filter: listed leads are unsold, 30 to 180 days
 * old now, and not held by another buyer (a buyer still sees the leads of their own unpaid
 * order). Counts come per day, so any stretch of the listing is found without reading the
 * leads before it.
 */
async function openListing(db: Queryable, p: { now: Date; viewerId: string; filter: LeadFilter; hideDncMatches: boolean }): Promise<Listing> {
  const { now, viewerId, filter, hideDncMatches } = p;
  const window = listingWindow(now);
  const stateOrArea: StateOrAreaFilter = filter.all
    ? { all: true }
    : { all: false, states: filter.states, areaCodes: filter.areaCodes };
  const usesStateOrArea = filter.all || filter.states.length > 0 || filter.areaCodes.length > 0;

  const exceptions = await marketExceptions(db, { now, window, viewerId, zips: filter.zips, hideDncMatches });
  const base = usesStateOrArea ? await stateOrAreaDayCounts(db, { window, filter: stateOrArea }) : new Map<string, number>();

  // The day counts know nothing of holds and zip codes: correct them lead by lead.
  const zipOnly = new Map<string, number>();
  const hidden = new Map<string, number>();
  // The same corrections per UTC hour, for a page that starts within a day (db/market.ts).
  const hourCorrections = new Map<number, number>();
  const correct = (day: Map<string, number>, at: Date, delta: number) => {
    const d = utcDay(at);
    day.set(d, (day.get(d) ?? 0) + delta);
    const hour = startOfUtcHour(at).getTime();
    hourCorrections.set(hour, (hourCorrections.get(hour) ?? 0) + delta);
  };
  const zipMatchIds: string[] = [];
  const excludedIds: string[] = [];
  for (const lead of exceptions) {
    if (lead.kind === 'zip' && !matchesStateOrAreaCode(filter, lead)) {
      correct(zipOnly, lead.formFillTime, 1);
      zipMatchIds.push(lead.id);
    }
    if (lead.kind === 'held') {
      excludedIds.push(lead.id);
      if (matchesLeadFilter(filter, lead)) correct(hidden, lead.formFillTime, -1);
    }
  }
  // Leads the DNC registry keeps off (docs/adr/0033), counted once even when also held. A few
  // are left out of the page by id (its walks stay index-only); many, by a registry probe per lead.
  const held = new Set(excludedIds);
  const registryHiddenIds: string[] = [];
  for (const lead of exceptions) {
    if (lead.kind !== 'dnc' || held.has(lead.id)) continue;
    registryHiddenIds.push(lead.id);
    if (!matchesLeadFilter(filter, lead)) continue;
    correct(hidden, lead.formFillTime, -1);
  }
  const registryProbe = registryHiddenIds.length > MAX_EXCLUDED_BY_ID ? { hideDncMatches } : false;
  if (!registryProbe) excludedIds.push(...registryHiddenIds);
  const days = combineDayCounts(base, zipOnly, hidden);
  return {
    total: totalOf(days),
    rows: async (offset, limit) => {
      const start = locatePage(days, offset);
      if (!start) return [];
      return marketPage(db, { window, startDay: start.day, skip: start.skip, limit, filter: stateOrArea, zipMatchIds, excludedIds, registryProbe, hourCorrections });
    },
  };
}

/** Registry-hidden leads beyond this many are left out by a probe, not listed by id. */
const MAX_EXCLUDED_BY_ID = 500;

const toCartLead = (lead: MarketLead): CartLead => ({
  id: lead.id,
  name: lead.name,
  state: lead.state,
  zip: lead.zip,
  actualAge: lead.actualAge,
  priceCents: lead.priceCents,
});

/** What a buyer may see of a lead they have not bought. */
function toMarketLead(row: MarketRow, now: Date): MarketLead[] {
  const pricing = priceLead(row.formFillTime, now);
  if (!pricing) return [];
  return [
    {
      id: row.id,
      name: maskName(row.name),
      phone: maskPhone(row.phone),
      state: row.state,
      zip: row.zip,
      actualAge: pricing.age,
      currentAgeRange: pricing.ageRange,
      currentPrice: pricing.priceCents / 100,
      priceCents: pricing.priceCents,
      formFillTime: row.formFillTime.toISOString(),
      consentOnFile: row.consentCertificateOnFile || row.consentTime !== null,
      // The date only: the time of day stays with the rest of the record until purchase.
      consentDate: row.consentTime ? utcDay(row.consentTime) : null,
      dnc: dncCheckOf(row.registryCheck, utcDay(now)),
      // From the full phone's area code; only the clock and the verdict show, never the number (issue 24 §3).
      ...prospectCallingHours(row.state, row.phone, now),
    },
  ];
}
