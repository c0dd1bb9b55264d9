import { AGED_LEAD_PAGE_SIZE, type MarketLead, type MarketLeadsResponse } from '@warmline/contracts/catalog';
import { inReadSnapshot } from '../db/snapshot';
import { marketExceptions, marketPage, stateOrAreaDayCounts, type MarketRow, type StateOrAreaFilter } from '../db/market';
import type { CatalogContext } from './context';
import { listingWindow, priceLead } from './lead-age';
import { canMatch, matchesLeadFilter, matchesStateOrAreaCode, parseLeadFilter } from './lead-filter';
import { combineDayCounts, locatePage, totalOf, utcDay } from './market-pages';
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
  query: { page: number; filter: string },
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

  const window = listingWindow(now);
  const stateOrArea: StateOrAreaFilter = filter.all
    ? { all: true }
    : { all: false, states: filter.states, areaCodes: filter.areaCodes };
  const usesStateOrArea = filter.all || filter.states.length > 0 || filter.areaCodes.length > 0;

  return inReadSnapshot(ctx.pool, async (db) => {
    const exceptions = await marketExceptions(db, { now, window, viewerId, zips: filter.zips });
    const base = usesStateOrArea ? await stateOrAreaDayCounts(db, { window, filter: stateOrArea }) : new Map<string, number>();

    // The day counts know nothing of holds and zip codes: correct them lead by lead.
    const zipOnly = new Map<string, number>();
    const hidden = new Map<string, number>();
    const zipMatchIds: string[] = [];
    const excludedIds: string[] = [];
    for (const lead of exceptions) {
      const day = utcDay(lead.formFillTime);
      if (lead.kind === 'zip' && !matchesStateOrAreaCode(filter, lead)) {
        zipOnly.set(day, (zipOnly.get(day) ?? 0) + 1);
        zipMatchIds.push(lead.id);
      }
      if (lead.kind === 'held') {
        excludedIds.push(lead.id);
        if (matchesLeadFilter(filter, lead)) hidden.set(day, (hidden.get(day) ?? 0) - 1);
      }
    }
    const days = combineDayCounts(base, zipOnly, hidden);
    const total = totalOf(days);
    const start = locatePage(days, (query.page - 1) * AGED_LEAD_PAGE_SIZE);
    if (!start) return answer([], total);

    const rows = await marketPage(db, {
      window,
      startDay: start.day,
      skip: start.skip,
      limit: AGED_LEAD_PAGE_SIZE,
      filter: stateOrArea,
      zipMatchIds,
      excludedIds,
    });
    return answer(rows.flatMap((row) => toMarketLead(row, now)), total);
  });
}

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
    },
  ];
}
