import { usDate as usCalendarDate } from '../../lib/us-date';
import { formatUsd } from '@warmline/contracts/pricing';
import { priceTextToCents } from '@warmline/contracts/transfers';

/** '630.00' (a decimal string from the server) → '$630.00'. */
export function formatDecimalUsd(decimal: string): string {
  const cents = priceTextToCents(decimal);
  return cents === null ? `$${decimal}` : formatUsd(cents);
}

/** Spec §9: dates in US format, e.g. '11/21/2026'. */
export function usDate(iso: string, timeZone?: string): string {
  return usCalendarDate(iso, timeZone);
}

/** Spec §2 admin orders: the first two states, then '+N more'. */
export function statesLabel(states: readonly string[]): string {
  const shown = states.slice(0, 2).join(', ');
  return states.length > 2 ? `${shown} +${states.length - 2} more` : shown;
}
