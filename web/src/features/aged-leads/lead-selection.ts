import { pageButtons as pagerButtons } from '../../lib/page-buttons';
import { AGED_LEAD_PAGE_BUTTONS } from '@warmline/contracts/catalog';

/**
 * The market's selection (spec §4, §9): leads chosen on the current page, with the running
 * total of their prices. Pure, so the rules are tested without a browser.
 */
export interface SelectableLead {
  id: string;
  priceCents: number;
}

export type Selection = ReadonlyMap<string, SelectableLead>;

export const EMPTY_SELECTION: Selection = new Map();

export function toggleLead(selection: Selection, lead: SelectableLead): Selection {
  const next = new Map(selection);
  if (next.has(lead.id)) next.delete(lead.id);
  else next.set(lead.id, { id: lead.id, priceCents: lead.priceCents });
  return next;
}

/** Selects every lead of the page, or, when all of them are selected already, none of them. */
export function togglePage(selection: Selection, page: readonly SelectableLead[]): Selection {
  const next = new Map(selection);
  if (page.length > 0 && page.every((l) => next.has(l.id))) {
    for (const lead of page) next.delete(lead.id);
  } else {
    for (const lead of page) next.set(lead.id, { id: lead.id, priceCents: lead.priceCents });
  }
  return next;
}

export type PageSelectionState = 'none' | 'some' | 'all';

export function pageSelectionState(selection: Selection, page: readonly SelectableLead[]): PageSelectionState {
  const chosen = page.filter((l) => selection.has(l.id)).length;
  if (chosen === 0) return 'none';
  return chosen === page.length ? 'all' : 'some';
}

/** The selection total: the sum of the selected leads' prices, in cents. */
export function selectionTotalCents(selection: Selection): number {
  let total = 0;
  for (const lead of selection.values()) total += lead.priceCents;
  return total;
}

/** The numbered page buttons of the market: at most 5 (spec §9), around the current page. */
export function pageButtons(current: number, totalPages: number, max = AGED_LEAD_PAGE_BUTTONS): number[] {
  return pagerButtons(current, totalPages, max);
}
