import { badRequest } from '@warmline/platform/errors';
import { LEAD_FILTER_MAX_TERMS } from '@warmline/contracts/catalog';
import { US_STATE_CODES } from '@warmline/contracts/us-states';
import type { LeadFilter } from '../db/my-leads';

/**
 * The lead filter of spec §5: comma-separated terms, case-insensitive; a lead matches when
 * ANY term matches it:
 * - a term contained in the lead's state ('tx' → TX; 'a' → every state with an A in it);
 * - a 3-character term equal to the phone's area code ('512');
 * - a 5-digit term equal to the lead's zip code ('75201'). Issue 11 overrides the spec's "only
 *   through the phone check": matching runs of the phone let a buyer recover the hidden digits
 *   of a number window by window before paying.
 * Every term gets the state check; empty terms are ignored; no terms at all shows every lead.
 * Nothing else reaches the phone: the area code is the only part of it a buyer sees, so no term
 * may match (or count) leads by any other digit of it.
 *
 * States are stored as upper-case codes from US_STATE_CODES, so "contained in the state" is
 * resolved here to the list of codes, and the database compares codes with its indexes.
 */
export function parseLeadFilter(text: string | undefined): LeadFilter {
  const terms = [...new Set((text ?? '').split(',').map((t) => t.trim().toUpperCase()).filter(Boolean))];
  if (terms.length > LEAD_FILTER_MAX_TERMS) {
    throw badRequest(`Use at most ${LEAD_FILTER_MAX_TERMS} filter terms`);
  }
  const states = US_STATE_CODES.filter((code) => terms.some((term) => code.includes(term)));
  // A phone holds only digits, so a 3-character term with a letter can only match a state.
  const areaCodes = terms.filter((t) => /^\d{3}$/.test(t));
  const zips = terms.filter((t) => /^\d{5}$/.test(t));
  return { terms, all: terms.length === 0, states, areaCodes, zips };
}

/** Whether a filter can match anything at all (a filter of only unknown words cannot). */
export function canMatch(filter: LeadFilter): boolean {
  return filter.all || filter.states.length > 0 || filter.areaCodes.length > 0 || filter.zips.length > 0;
}

/** The part of the filter the database's state and area-code indexes answer. */
export function matchesStateOrAreaCode(filter: LeadFilter, lead: { state: string; phone: string }): boolean {
  return filter.states.includes(lead.state) || filter.areaCodes.includes(lead.phone.slice(0, 3));
}

/** The whole rule, for one lead. */
export function matchesLeadFilter(filter: LeadFilter, lead: { state: string; phone: string; zip?: string | null }): boolean {
  if (filter.all) return true;
  return matchesStateOrAreaCode(filter, lead) || (!!lead.zip && filter.zips.includes(lead.zip));
}
