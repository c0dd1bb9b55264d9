/**
 * Paging the market without counting through the pages before it. The database keeps how many
 * unsold leads were filled on each day (by state and area code), so the leads before page N
 * are found by adding up per-day counts (at most 182 of them), not by reading N × 50 rows.
 * The page then starts on one day, a few rows in — its cost does not grow with page depth.
 */

/** Listed leads filled on one UTC day ('2026-05-01'). */
export interface DayCount {
  day: string;
  count: number;
}

export interface PageStart {
  /** The UTC day the page's first lead was filled on. */
  day: string;
  /** Listed leads of that day (newest first) before the page's first one. */
  skip: number;
}

/** Days newest first, counts added up per day; days with nothing listed are dropped. */
export function combineDayCounts(...parts: Array<Map<string, number>>): DayCount[] {
  const total = new Map<string, number>();
  for (const part of parts) {
    for (const [day, n] of part) total.set(day, (total.get(day) ?? 0) + n);
  }
  return [...total]
    .filter(([, count]) => count > 0)
    .sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0))
    .map(([day, count]) => ({ day, count }));
}

export function totalOf(days: DayCount[]): number {
  return days.reduce((sum, d) => sum + d.count, 0);
}

/** Where the listing (newest first) reaches `offset`; null when it has fewer leads than that. */
export function locatePage(days: DayCount[], offset: number): PageStart | null {
  let before = 0;
  for (const { day, count } of days) {
    if (offset < before + count) return { day, skip: offset - before };
    before += count;
  }
  return null;
}
