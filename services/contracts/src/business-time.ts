import { z } from 'zod';

/**
 * The business's clock (issue 12): days, weeks and months in the admin — new sign-ups of the last
 * 7 days, revenue this month, revenue per day — are counted in this time zone, not in UTC or the
 * server's zone. Each service that counts reads BUSINESS_TIMEZONE with this schema; SQL counts with
 * `AT TIME ZONE $tz` (e.g. `date_trunc('month', now() AT TIME ZONE $1) AT TIME ZONE $1`).
 */
const DEFAULT_BUSINESS_TIMEZONE = 'America/Chicago';

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const businessTimezoneSchema = z
  .string()
  .refine(isTimeZone, { message: 'BUSINESS_TIMEZONE must be an IANA time zone, e.g. America/Chicago' })
  .default(DEFAULT_BUSINESS_TIMEZONE);

/** '11/25/2026, 9:32 AM CST': the app's one US format with the zone named (web/src/lib/us-date.ts), for e-mails. */
export function usDateTimeIn(at: Date, zone: string): string {
  return at.toLocaleString('en-US', { month: '2-digit', day: '2-digit', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short', timeZone: zone });
}

/** `at` as 'YYYY-MM-DD HH:MM' on the clock of `zone` (24-hour; for CSV exports, whose header names the zone). */
export function businessDateTime(at: Date, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${businessDate(at, zone)} ${get('hour')}:${get('minute')}`;
}

/** The calendar date (YYYY-MM-DD) of `at` in `zone`. */
export function businessDate(at: Date, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}
