import { describe, expect, it } from 'vitest';
import type { CartLead } from '@warmline/contracts/catalog';
import {
  cartTotalCents,
  EMPTY_CART,
  pageButtons,
  pageSelectionState,
  toggleLead,
  togglePage,
} from '../src/features/aged-leads/lead-selection';
import { viewFromParam } from '../src/features/dashboard/dashboard-views';

const lead = (id: string, priceCents: number): CartLead => ({ id, name: `Ann Smi${'X'.repeat(2)}`, state: 'TX', zip: '75201', actualAge: 40, priceCents });
const page = [lead('a', 250), lead('b', 200), lead('c', 150)];

describe('the market selection', () => {
  it('adds and removes single leads, keeping the running total of their prices', () => {
    let cart = toggleLead(EMPTY_CART, page[0]!).cart;
    cart = toggleLead(cart, page[2]!).cart;
    expect(cartTotalCents(cart)).toBe(400);
    cart = toggleLead(cart, page[0]!).cart;
    expect([...cart.keys()]).toEqual(['c']);
    expect(cartTotalCents(cart)).toBe(150);
  });

  it('selects the whole page, or clears it when all of it was selected', () => {
    const some = toggleLead(EMPTY_CART, page[1]!).cart;
    expect(pageSelectionState(some, page)).toBe('some');
    const all = togglePage(some, page).cart;
    expect(pageSelectionState(all, page)).toBe('all');
    expect(cartTotalCents(all)).toBe(600);
    const none = togglePage(all, page).cart;
    expect(pageSelectionState(none, page)).toBe('none');
    expect(cartTotalCents(none)).toBe(0);
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
