/**
 * '11/25/2026, 9:32 AM CST' (spec §9: dates in US format). The zone is named because admins and
 * agents sit in different zones and a call-back time read in the wrong one is a missed call.
 */
export function usDateTime(iso: string): string {
  return new Date(iso).toLocaleString('en-US', {
    month: '2-digit',
    day: '2-digit',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  });
}
