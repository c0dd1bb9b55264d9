/**
 * Every date and time the app shows, in one US format (spec §9; issue 22): '11/25/2026' and
 * '11/25/2026, 9:32 AM CST'. A time always names its zone, because admins and agents sit in
 * different zones and a call-back time read in the wrong one is a missed call. `timeZone`: the
 * zone to show it in — the back office passes BUSINESS_TIMEZONE (useBusinessTimeZone in
 * site-config.ts); without it, the browser's own zone (an agent's).
 */
export function usDateTime(iso: string, timeZone?: string): string {
  return new Date(iso).toLocaleString('en-US', {
    month: '2-digit',
    day: '2-digit',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
    ...(timeZone ? { timeZone } : {}),
  });
}

/** '3:45 PM CST': a time of day today (a reservation's end), zone named like every time. */
export function usTime(iso: string, timeZone?: string): string {
  return new Date(iso).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', timeZoneName: 'short', ...(timeZone ? { timeZone } : {}) });
}

/** '11/25/2026': the calendar date of `iso` in `timeZone` (the browser's zone without it). */
export function usDate(iso: string, timeZone?: string): string {
  return new Date(iso).toLocaleDateString('en-US', { month: '2-digit', day: '2-digit', year: 'numeric', ...(timeZone ? { timeZone } : {}) });
}
