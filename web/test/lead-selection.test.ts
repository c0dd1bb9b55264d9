import { describe, expect, it } from 'vitest';
import {
  EMPTY_SELECTION,
  pageButtons,
  pageSelectionState,
  selectionTotalCents,
  toggleLead,
  togglePage,
} from '../src/features/aged-leads/lead-selection';
import { viewFromParam } from '../src/features/dashboard/dashboard-views';

const page = [
  { id: 'a', priceCents: 250 },
  { id: 'b', priceCents: 200 },
  { id: 'c', priceCents: 150 },
];

describe('the market selection', () => {
  it('adds and removes single leads, keeping the running total of their prices', () => {
    let selection = toggleLead(EMPTY_SELECTION, page[0]!);
    selection = toggleLead(selection, page[2]!);
    expect(selectionTotalCents(selection)).toBe(400);
    selection = toggleLead(selection, page[0]!);
    expect([...selection.keys()]).toEqual(['c']);
    expect(selectionTotalCents(selection)).toBe(150);
  });

  it('selects the whole page, or clears it when all of it was selected', () => {
    const some = toggleLead(EMPTY_SELECTION, page[1]!);
    expect(pageSelectionState(some, page)).toBe('some');
    const all = togglePage(some, page);
    expect(pageSelectionState(all, page)).toBe('all');
    expect(selectionTotalCents(all)).toBe(600);
    const none = togglePage(all, page);
    expect(pageSelectionState(none, page)).toBe('none');
    expect(selectionTotalCents(none)).toBe(0);
  });
});

describe('page buttons', () => {
  it('shows at most 5, around the current page, never past either end', () => {
    expect(pageButtons(1, 1)).toEqual([1]);
    expect(pageButtons(1, 3)).toEqual([1, 2, 3]);
    expect(pageButtons(1, 20)).toEqual([1, 2, 3, 4, 5]);
    expect(pageButtons(10, 20)).toEqual([8, 9, 10, 11, 12]);
    expect(pageButtons(19, 20)).toEqual([16, 17, 18, 19, 20]);
    expect(pageButtons(1, 0)).toEqual([]);
  });
});

describe('dashboard views in the URL', () => {
  it('reads a known view and falls back to Buy Aged Leads', () => {
    expect(viewFromParam('my-leads')).toBe('my-leads');
    expect(viewFromParam('training-videos')).toBe('training-videos');
    expect(viewFromParam(null)).toBe('buy-aged-leads');
    expect(viewFromParam('admin')).toBe('buy-aged-leads');
  });
});
