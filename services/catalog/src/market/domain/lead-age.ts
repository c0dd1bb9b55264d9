import {
  AGED_LEAD_AGE_RANGES,
  AGED_LEAD_PRICES_CENTS,
  type AgedLeadAgeRange,
} from '@warmline/contracts';
import { AGED_LEAD_MAX_AGE_DAYS, AGED_LEAD_MIN_AGE_DAYS } from '@warmline/contracts/catalog';
import type { ListingWindow } from '../db/listing-window';

/**
 * A lead's age, age range and price follow from its form-fill time at the moment of the
 * request (spec §3, §9): they are never stored, so a lead moves from $2.50 to $2.00 on its
 * 61st day without anyone touching it.
 *
 * Age is counted in whole days (a lead filled 30 days and 23 hours ago is 30 days old). The
 * ranges' shared edges belong to the younger range: 30–60, 61–90 and 91–180 days, so a lead
 * is listed from day 30 through day 180 and no day is in two ranges.
 */

export const DAY_MS = 86_400_000;

/** The last day of each range (inclusive); the first range starts at AGED_LEAD_MIN_AGE_DAYS. */
const RANGE_LAST_DAY: Record<AgedLeadAgeRange, number> = { '30-60': 60, '60-90': 90, '90-180': AGED_LEAD_MAX_AGE_DAYS };

/** Whole days between the form fill and `now` (never negative). */
export function ageInDays(formFillTime: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - formFillTime.getTime()) / DAY_MS));
}

/** The range a lead of this age is sold in, or null when it is too young or too old to list. */
export function ageRangeOfAge(days: number): AgedLeadAgeRange | null {
  if (days < AGED_LEAD_MIN_AGE_DAYS) return null;
  for (const range of AGED_LEAD_AGE_RANGES) {
    if (days <= RANGE_LAST_DAY[range]) return range;
  }
  return null;
}

export interface LeadPricing {
  age: number;
  ageRange: AgedLeadAgeRange;
  priceCents: number;
}

/** Age, range and price of a lead now; null when it is not for sale at this age. */
export function priceLead(formFillTime: Date, now: Date): LeadPricing | null {
  const age = ageInDays(formFillTime, now);
  const ageRange = ageRangeOfAge(age);
  return ageRange ? { age, ageRange, priceCents: AGED_LEAD_PRICES_CENTS[ageRange] } : null;
}

/** The form-fill times listed at `now` (ListingWindow, which the market's queries take). */
export function listingWindow(now: Date): ListingWindow {
  return {
    oldestExclusive: new Date(now.getTime() - (AGED_LEAD_MAX_AGE_DAYS + 1) * DAY_MS),
    newest: new Date(now.getTime() - AGED_LEAD_MIN_AGE_DAYS * DAY_MS),
  };
}
