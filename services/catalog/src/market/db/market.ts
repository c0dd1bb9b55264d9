import type { Queryable } from '@warmline/platform/db/index';
import type { ListingWindow } from './listing-window';
import { endOfUtcDay, HOUR_MS, startOfUtcDay, startOfUtcHour, utcDay } from '../../db/utc-days';
import { registryHidden } from '../../suppressions/db/dnc-registry';
import type { RegistryCheck } from '../../suppressions/db/read-models/registry-checks';

/**
 * The market's reads. They run inside one read-only REPEATABLE READ transaction per request
 * (see domain/market.ts), so the counts and the page agree with each other.
 *
 * Where the cost goes, for a million leads:
 * - per-day counts come from `lead_stock` (a few rows per day and state/area code), except on
 *   the two days the listing window cuts through, which are counted exactly on the market index;
 * - the page itself starts at the day `locatePage` found and skips at most that day's leads,
 *   reading the state / area-code / market indexes only (no table rows until the last 50).
 */

/** The part of the filter answered by state and area-code indexes; `all` = no filter. */
export type StateOrAreaFilter = { all: true } | { all: false; states: string[]; areaCodes: string[] };

export interface ExceptionRow {
  /**
   * 'held': reserved by another buyer right now; 'zip': matched by a 5-digit term (a zip code);
   * 'dnc': not listed because of the national DNC registry (docs/adr/0033).
   */
  kind: 'held' | 'zip' | 'dnc';
  id: string;
  state: string;
  phone: string;
  zip: string | null;
  formFillTime: Date;
}

/**
 * The few listed-window leads the day counts cannot know about: those another buyer holds
 * right now (hidden from this viewer), and those a 5-digit term matches by zip code.
 */
export async function marketExceptions(
  db: Queryable,
  p: { now: Date; window: ListingWindow; viewerId: string; zips: string[]; hideDncMatches: boolean },
): Promise<ExceptionRow[]> {
  const { rows } = await db.query<{ kind: 'held' | 'zip' | 'dnc'; id: string; state: string; phone: string; zip: string | null; form_fill_time: Date }>(
    `SELECT 'held' AS kind, l.id, l.state, l.phone, l.zip, l.form_fill_time
       FROM lead_reservations r
       JOIN lead_reservation_items i ON i.order_id = r.order_id
       JOIN aged_leads l ON l.id = i.lead_id
      WHERE r.status = 'held' AND r.expires_at > $1 AND r.buyer_user_id <> $2
        AND l.held_by_order_id = r.order_id AND l.held_until > $1 AND l.sold_at IS NULL
        AND l.form_fill_time > $3 AND l.form_fill_time <= $4
     UNION ALL
     SELECT 'zip', id, state, phone, zip, form_fill_time
       FROM aged_leads
      WHERE zip = ANY($5::text[]) AND sold_at IS NULL
        AND form_fill_time > $3 AND form_fill_time <= $4
     UNION ALL
     -- Registry matches (issue 24): only area codes a registry upload covers can have any, each
     -- read down its market index with one primary-key probe of the registry per lead.
     SELECT 'dnc', l.id, l.state, l.phone, l.zip, l.form_fill_time
       FROM dnc_registry_area_codes a
       JOIN aged_leads l ON l.area_code = a.area_code
      WHERE l.sold_at IS NULL AND l.form_fill_time > $3 AND l.form_fill_time <= $4
        AND ${registryHidden('l', '$6')}`,
    [p.now, p.viewerId, p.window.oldestExclusive, p.window.newest, p.zips, p.hideDncMatches],
  );
  return rows.map((r) => ({ kind: r.kind, id: r.id, state: r.state, phone: r.phone, zip: r.zip, formFillTime: r.form_fill_time }));
}

/**
 * Unsold leads in the window per UTC day ('2026-05-01' → n) that match the state/area-code
 * part of the filter. Whole days inside the window come from lead_stock_daily (no filter) or
 * lead_stock. The first and last day, which the window cuts through at the same time of day,
 * come from the hourly stock for their whole hours; only the two hours the window cuts (one
 * hour of leads together) are counted row by row on the indexes (docs/adr/0054). Filtered,
 * the hourly stock is per state: leads matched only by an area code of the filter are counted
 * on that area code's index (a few an hour).
 */
export async function stateOrAreaDayCounts(
  db: Queryable,
  p: { window: ListingWindow; filter: StateOrAreaFilter },
): Promise<Map<string, number>> {
  const oldestDay = utcDay(p.window.oldestExclusive);
  const newestDay = utcDay(p.window.newest);
  const params: unknown[] = [
    oldestDay,
    newestDay,
    p.window.oldestExclusive,
    // The oldest day's whole hours: from the hour after the cut one to the end of the day.
    new Date(startOfUtcHour(p.window.oldestExclusive).getTime() + HOUR_MS),
    endOfUtcDay(oldestDay),
    // The newest day's whole hours: from its start to the hour the window cuts.
    startOfUtcDay(newestDay),
    startOfUtcHour(p.window.newest),
    p.window.newest,
  ];
  let match = 'TRUE';
  // Unfiltered: one row per day and per hour. Filtered: the rows of the filter's states (and
  // area codes, per day).
  let wholeDays = `SELECT fill_day::text AS day, leads AS n FROM lead_stock_daily WHERE fill_day > $1::date AND fill_day < $2::date`;
  let wholeHours = (day: string, from: string, to: string) =>
    `SELECT ${day}::date::text, coalesce(sum(leads), 0)::int FROM lead_stock_hourly WHERE fill_hour >= ${from} AND fill_hour < ${to}`;
  if (!p.filter.all) {
    params.push(p.filter.states, p.filter.areaCodes);
    match = '(state = ANY($9::text[]) OR area_code = ANY($10::text[]))';
    wholeDays = `SELECT fill_day::text AS day, sum(leads)::int AS n FROM lead_stock
                  WHERE fill_day > $1::date AND fill_day < $2::date AND ${match} GROUP BY fill_day`;
    // Only when the filter has area codes: with none, the planner would read the whole hours
    // on the market index to find nothing.
    const areaCodesOnly = (day: string, from: string, to: string) =>
      p.filter.all || p.filter.areaCodes.length === 0
        ? ''
        : `UNION ALL
           SELECT ${day}::date::text, count(*)::int FROM aged_leads
            WHERE sold_at IS NULL AND area_code = ANY($10::text[]) AND NOT (state = ANY($9::text[]))
              AND form_fill_time >= ${from} AND form_fill_time < ${to}`;
    wholeHours = (day, from, to) =>
      `SELECT ${day}::date::text, coalesce(sum(leads), 0)::int FROM lead_stock_state_hourly
        WHERE state = ANY($9::text[]) AND fill_hour >= ${from} AND fill_hour < ${to}
       ${areaCodesOnly(day, from, to)}`;
  }
  const { rows } = await db.query<{ day: string; n: number }>(
    `${wholeDays}
     UNION ALL
     ${wholeHours('$1', '$4', '$5')}
     UNION ALL
     ${wholeHours('$2', '$6', '$7')}
     UNION ALL
     SELECT $1::date::text, count(*)::int FROM aged_leads
      WHERE sold_at IS NULL AND ${match} AND form_fill_time > $3 AND form_fill_time < $4
     UNION ALL
     SELECT $2::date::text, count(*)::int FROM aged_leads
      WHERE sold_at IS NULL AND ${match} AND form_fill_time >= $7 AND form_fill_time <= $8`,
    params,
  );
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.day, (counts.get(r.day) ?? 0) + r.n);
  return counts;
}

export interface MarketRow {
  id: string;
  name: string;
  phone: string;
  state: string;
  /** '' when the lead came without one. */
  zip: string;
  formFillTime: Date;
  /** Whether a consent certificate is on file (the certificate itself never leaves the database here). */
  consentCertificateOnFile: boolean;
  consentTime: Date | null;
  /** Issue 24: the national DNC registry's check of the phone now. */
  registryCheck: RegistryCheck;
}

/** Beyond this many states a filter is dense: one walk of the market index beats a walk per state. */
const MAX_STATE_WALKS = 6;

/**
 * One page of the listing, newest first: the leads matching the filter, from the start of
 * `startDay` on, after skipping `skip` of them. Hidden leads (`excludedIds`) never appear.
 * Leads matched only by a zip code come in as `zipMatchIds`.
 *
 * Unfiltered or filtered by states only, the skip starts at the hour it reaches, not at the
 * day's start: the day's whole hours come from the hourly stock, corrected by `hourCorrections`
 * (the leads the stock counts but this viewer does not see, and the zip-only matches it does
 * not count, per UTC hour), and the hour the window cuts is counted row by row. The walks then
 * skip within one hour (docs/adr/0054).
 */
export async function marketPage(
  db: Queryable,
  p: {
    window: ListingWindow;
    startDay: string;
    skip: number;
    limit: number;
    filter: StateOrAreaFilter;
    zipMatchIds: string[];
    excludedIds: string[];
    /**
     * Leads the DNC registry hides are left out by a registry probe per lead read (true), or are
     * among excludedIds already (false: the walks stay index-only). docs/adr/0033.
     */
    registryProbe: false | { hideDncMatches: boolean };
    /** Listed leads minus stocked leads, per UTC hour (start of the hour → n); see above. */
    hourCorrections: Map<number, number>;
  },
): Promise<MarketRow[]> {
  // $1..$4 are shared by every branch: the window, where the page starts, and the hidden leads.
  const params: unknown[] = [p.window.oldestExclusive, p.window.newest, endOfUtcDay(p.startDay), p.excludedIds];
  const probe = p.registryProbe ? ` AND NOT ${registryHidden('aged_leads', String(p.registryProbe.hideDncMatches))}` : '';
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  // Where the walks start (before `bound`) and how many listed leads they skip from there.
  let bound = '$3::timestamptz';
  let skip: string;
  let start = '';
  // Filters with area codes keep the day's start: the hourly stock is per state, and an area
  // code's walk reads a few leads an hour anyway.
  if (p.skip > 0 && (p.filter.all || p.filter.areaCodes.length === 0)) {
    start = `WITH ${pageStart(p, add)} `;
    bound = '(SELECT bound FROM start)';
    skip = '(SELECT rest FROM start)';
  } else {
    skip = `${add(p.skip)}::int`;
  }
  const listed = `sold_at IS NULL AND form_fill_time > $1 AND form_fill_time <= $2 AND form_fill_time < ${bound} AND id <> ALL($4::uuid[])${probe}`;
  const order = 'ORDER BY form_fill_time DESC, id DESC';

  let ids: string;
  if (p.filter.all) {
    ids = `SELECT id, form_fill_time FROM aged_leads WHERE ${listed} ${order} OFFSET ${skip} LIMIT ${add(p.limit)}`;
  } else if (p.filter.states.length > MAX_STATE_WALKS) {
    ids = `SELECT id, form_fill_time FROM aged_leads
            WHERE ${listed} AND (state = ANY(${add(p.filter.states)}::text[]) OR area_code = ANY(${add(p.filter.areaCodes)}::text[])
                                 OR id = ANY(${add(p.zipMatchIds)}::uuid[]))
            ${order} OFFSET ${skip} LIMIT ${add(p.limit)}`;
  } else {
    // A walk down each state's and each area code's index, each stopping after skip + limit
    // leads; their merge holds the page. A lead in both a state and an area code of the
    // filter comes twice, hence DISTINCT.
    // Added only when a walk uses it: PostgreSQL refuses a parameter no statement part types.
    let enoughParam: string | undefined;
    const enough = () => (enoughParam ??= `${skip} + ${add(p.limit)}::int`);
    const walks: string[] = [];
    if (p.filter.states.length > 0) {
      walks.push(`SELECT w.id, w.form_fill_time FROM unnest(${add(p.filter.states)}::text[]) AS f(state)
                  CROSS JOIN LATERAL (SELECT id, form_fill_time FROM aged_leads
                                       WHERE ${listed} AND state = f.state ${order} LIMIT ${enough()}) AS w`);
    }
    if (p.filter.areaCodes.length > 0) {
      walks.push(`SELECT w.id, w.form_fill_time FROM unnest(${add(p.filter.areaCodes)}::text[]) AS f(area_code)
                  CROSS JOIN LATERAL (SELECT id, form_fill_time FROM aged_leads
                                       WHERE ${listed} AND area_code = f.area_code ${order} LIMIT ${enough()}) AS w`);
    }
    if (p.zipMatchIds.length > 0) {
      walks.push(`SELECT id, form_fill_time FROM aged_leads WHERE ${listed} AND id = ANY(${add(p.zipMatchIds)}::uuid[])`);
    }
    if (walks.length === 0) return [];
    ids = `SELECT DISTINCT id, form_fill_time FROM (${walks.join(' UNION ALL ')}) AS walks
            ${order} OFFSET ${skip} LIMIT ${add(p.limit)}`;
  }

  // The page's columns, consent included, are read here from its 50 rows only: the walks above
  // stay index-only scans.
  const { rows } = await db.query<MarketRowRecord>(
    `${start}SELECT l.id, l.name, l.phone, l.state, l.zip, l.form_fill_time,
            l.consent_certificate IS NOT NULL AS certificate_on_file, l.consent_time, ${REGISTRY_CHECK_COLUMNS}
       FROM (${ids}) AS page JOIN aged_leads l ON l.id = page.id
      ORDER BY page.form_fill_time DESC, page.id DESC`,
    params,
  );
  return rows.map(toMarketRow);
}

/**
 * The CTE `start` (bound, rest) of a page that starts `skip` listed leads into `startDay`: the
 * newest hours of the day whose listed leads all fall within the skip are passed over whole.
 * Counted hours: the day's hours wholly inside the window, from the hourly stock, and the hour
 * the window's newest edge cuts (if it is on this day), row by row; each plus its correction.
 * They run down from the top of the walk without a gap (an hour with no row has no leads), so
 * the hours whose running total (newest first) is at most the skip are the ones passed over.
 */
function pageStart(
  p: { window: ListingWindow; startDay: string; skip: number; filter: StateOrAreaFilter; hourCorrections: Map<number, number> },
  add: (value: unknown) => string,
): string {
  const dayStart = startOfUtcDay(p.startDay).getTime();
  const dayEnd = endOfUtcDay(p.startDay).getTime();
  const cutNewest = startOfUtcHour(p.window.newest).getTime();
  const firstWhole = Math.max(dayStart, startOfUtcHour(p.window.oldestExclusive).getTime() + HOUR_MS);
  const afterWhole = Math.min(dayEnd, cutNewest);
  const cutHour = cutNewest >= dayStart && cutNewest < dayEnd ? cutNewest : null;
  const hours: Date[] = [];
  const deltas: number[] = [];
  for (const [hour, delta] of p.hourCorrections) {
    if ((hour >= firstWhole && hour < afterWhole) || hour === cutHour) {
      hours.push(new Date(hour));
      deltas.push(delta);
    }
  }
  const from = add(new Date(firstWhole));
  const to = add(new Date(afterWhole));
  let stocked = `SELECT fill_hour, leads AS n FROM lead_stock_hourly WHERE fill_hour >= ${from} AND fill_hour < ${to}`;
  let match = 'TRUE';
  if (!p.filter.all) {
    const states = add(p.filter.states);
    stocked = `SELECT fill_hour, leads AS n FROM lead_stock_state_hourly
                WHERE state = ANY(${states}::text[]) AND fill_hour >= ${from} AND fill_hour < ${to}`;
    match = `state = ANY(${states}::text[])`;
  }
  let cut = '';
  if (cutHour !== null) {
    const hour = add(new Date(cutHour));
    cut = `UNION ALL
           SELECT ${hour}::timestamptz, count(*)::int FROM aged_leads
            WHERE sold_at IS NULL AND ${match} AND form_fill_time >= ${hour} AND form_fill_time <= $2`;
  }
  const skip = add(p.skip);
  return `hours AS (
            SELECT fill_hour, sum(n) AS n FROM (
              ${stocked}
              ${cut}
              UNION ALL
              SELECT * FROM unnest(${add(hours)}::timestamptz[], ${add(deltas)}::int[])
            ) AS h GROUP BY fill_hour
          ), running AS (
            SELECT fill_hour, sum(n) OVER (ORDER BY fill_hour DESC) AS upto FROM hours
          ), start AS (
            SELECT coalesce(min(fill_hour), $3::timestamptz) AS bound, (${skip}::int - coalesce(max(upto), 0))::int AS rest
              FROM running WHERE upto <= ${skip}::int
          )`;
}

/** A market row as the queries read it. */
interface MarketRowRecord {
  id: string;
  name: string;
  phone: string;
  state: string;
  zip: string | null;
  form_fill_time: Date;
  certificate_on_file: boolean;
  consent_time: Date | null;
  dnc_checked_on: string | null;
  on_registry: boolean;
}

function toMarketRow(r: MarketRowRecord): MarketRow {
  return {
    id: r.id,
    name: r.name,
    phone: r.phone,
    state: r.state,
    zip: r.zip ?? '',
    formFillTime: r.form_fill_time,
    consentCertificateOnFile: r.certificate_on_file,
    consentTime: r.consent_time,
    registryCheck: { checkedOn: r.dnc_checked_on, onRegistry: r.on_registry },
  };
}

/**
 * Those of `leadIds` the viewer could reserve now: unsold, in the window, and not held by
 * another buyer — the same rule as holdLeads (db/reservations.ts), read without locking.
 */
export async function forSaleAmong(
  db: Queryable,
  p: { leadIds: string[]; viewerId: string; now: Date; window: ListingWindow },
): Promise<MarketRow[]> {
  const { rows } = await db.query<MarketRowRecord>(
    `SELECT id, name, phone, state, zip, form_fill_time,
            consent_certificate IS NOT NULL AS certificate_on_file, consent_time, ${REGISTRY_CHECK_COLUMNS.replaceAll('l.', 'aged_leads.')}
       FROM aged_leads
      WHERE id = ANY($1::uuid[])
        AND sold_at IS NULL
        AND NOT ${registryHidden('aged_leads', 'false')}
        AND form_fill_time > $4 AND form_fill_time <= $5
        AND (held_until IS NULL OR held_until <= $3 OR held_by_user_id = $2)
      ORDER BY form_fill_time DESC, id DESC`,
    [p.leadIds, p.viewerId, p.now, p.window.oldestExclusive, p.window.newest],
  );
  return rows.map(toMarketRow);
}

/** A lead's registry check now: the date of the registry covering its area code, and whether it is on it. */
const REGISTRY_CHECK_COLUMNS = `to_char((SELECT a.registry_date FROM dnc_registry_area_codes a WHERE a.area_code = left(l.phone, 3)), 'YYYY-MM-DD') AS dnc_checked_on,
            EXISTS (SELECT 1 FROM dnc_registry_numbers n WHERE n.phone = l.phone) AS on_registry`;
