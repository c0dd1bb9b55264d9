import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import { BULK_PURCHASE_MAX_LEADS, type CartLead } from '@warmline/contracts/catalog';
import {
  addToCart,
  applyAvailability,
  cartStorageKey,
  cartTotalCents,
  CART_LIMIT,
  EMPTY_CART,
  fullCartMessage,
  goneMessage,
  readCart,
  removeFromCart,
  toggleLead,
  togglePage,
  writeCart,
} from '../src/features/aged-leads/lead-selection';
import { useLeadCart } from '../src/features/aged-leads/use-lead-cart';

/**
 * The aged-lead cart (issue 17): kept across pages, filters and reloads in this browser's
 * localStorage, per signed-in user, never more than one purchase can hold, and leads that were
 * sold meanwhile leave it with a message.
 */

const lead = (priceCents = 250, over: Partial<CartLead> = {}): CartLead => ({
  id: randomUUID(),
  name: 'Tex RanXXXX',
  state: 'TX',
  zip: '75201',
  actualAge: 42,
  priceCents,
  ...over,
});

const ANN = randomUUID();
const BOB = randomUUID();

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('the cart in the browser', () => {
  it('when leads are written for a user, then reading gives them back in order with their details, for that user only', () => {
    const leads = [lead(250), lead(200, { zip: '' }), lead(150, { state: 'CA' })];
    writeCart(localStorage, ANN, addToCart(EMPTY_CART, leads).cart);

    const back = readCart(localStorage, ANN);
    expect([...back.values()]).toEqual(leads);
    expect(cartTotalCents(back)).toBe(600);
    expect(readCart(localStorage, BOB).size).toBe(0);
    expect(localStorage.getItem(cartStorageKey(ANN))).not.toBeNull();
    expect(localStorage.getItem(cartStorageKey(BOB))).toBeNull();
  });

  it('when the cart empties, then its key is gone from the browser', () => {
    const cart = addToCart(EMPTY_CART, [lead()]).cart;
    writeCart(localStorage, ANN, cart);
    writeCart(localStorage, ANN, EMPTY_CART);
    expect(localStorage.getItem(cartStorageKey(ANN))).toBeNull();
  });

  it('when what is stored is not a cart, or holds entries that are not leads or too many of them, then only real leads are read, up to the limit', () => {
    localStorage.setItem(cartStorageKey(ANN), '{not json');
    expect(readCart(localStorage, ANN).size).toBe(0);
    localStorage.setItem(cartStorageKey(ANN), JSON.stringify([lead()]));
    expect(readCart(localStorage, ANN).size).toBe(0);

    const good = lead(200);
    const stored = [good, { ...lead(), id: 'not-a-uuid' }, { ...lead(), priceCents: -5 }, { ...lead(), priceCents: '2.50' }, null, 7];
    localStorage.setItem(cartStorageKey(ANN), JSON.stringify({ leads: stored }));
    expect([...readCart(localStorage, ANN).values()]).toEqual([good]);

    const tooMany = Array.from({ length: CART_LIMIT + 25 }, () => lead());
    localStorage.setItem(cartStorageKey(ANN), JSON.stringify({ leads: tooMany }));
    expect(readCart(localStorage, ANN).size).toBe(CART_LIMIT);
  });
});

describe('changing the cart', () => {
  it('when leads are added past the purchase limit, then the cart stops at the limit and says how many were left out', () => {
    expect(CART_LIMIT).toBe(BULK_PURCHASE_MAX_LEADS);
    const first = addToCart(EMPTY_CART, Array.from({ length: CART_LIMIT - 2 }, () => lead()));
    expect(first).toMatchObject({ added: CART_LIMIT - 2, refused: 0 });

    const page = Array.from({ length: 5 }, () => lead());
    const full = togglePage(first.cart, page);
    expect(full.cart.size).toBe(CART_LIMIT);
    expect(full).toMatchObject({ added: 2, refused: 3 });
    expect(fullCartMessage(full.refused)).toBe(`Your cart holds at most ${CART_LIMIT} leads, as many as one purchase can buy: 3 leads were not added.`);

    // A full cart takes no more, but a lead in it can still be taken out.
    expect(toggleLead(full.cart, lead())).toMatchObject({ added: 0, refused: 1 });
    expect(toggleLead(full.cart, page[0]!).cart.size).toBe(CART_LIMIT - 1);
  });

  it('adds a lead already in the cart only once, and removes leads by id', () => {
    const [a, b, c] = [lead(250), lead(200), lead(150)];
    const cart = addToCart(addToCart(EMPTY_CART, [a, b]).cart, [b, c]);
    expect(cart).toMatchObject({ added: 1, refused: 0 });
    expect([...cart.cart.keys()]).toEqual([a.id, b.id, c.id]);
    const smaller = removeFromCart(cart.cart, [a.id, c.id, randomUUID()]);
    expect([...smaller.keys()]).toEqual([b.id]);
    expect(cartTotalCents(smaller)).toBe(200);
  });

  it('when the server says some leads are gone and others got cheaper, then the gone ones leave and the others take the new price', () => {
    const [sold, aging, same] = [lead(250), lead(250, { actualAge: 60 }), lead(150)];
    const cart = addToCart(EMPTY_CART, [sold, aging, same]).cart;

    const checked = applyAvailability(cart, {
      leads: [{ ...aging, actualAge: 61, priceCents: 200 }, same],
      unavailableLeadIds: [sold.id, randomUUID()],
    });

    expect(checked.gone).toEqual([sold]);
    expect([...checked.cart.keys()]).toEqual([aging.id, same.id]);
    expect(checked.cart.get(aging.id)).toMatchObject({ actualAge: 61, priceCents: 200 });
    expect(cartTotalCents(checked.cart)).toBe(350);
    expect(goneMessage(1)).toBe('One lead in your cart was bought by someone else or is no longer for sale, so it was removed from your cart.');
    expect(goneMessage(3)).toBe('3 leads in your cart were bought by someone else or are no longer for sale, so they were removed from your cart.');
  });
});

describe('the cart hook', () => {
  it('keeps the cart across a remount (a reload), gives another user their own, and clears on Clear', () => {
    const [a, b] = [lead(250), lead(200)];
    const first = renderHook(({ userId }) => useLeadCart(userId), { initialProps: { userId: ANN } });
    act(() => {
      first.result.current.toggle(a);
      first.result.current.toggle(b);
    });
    expect([...first.result.current.cart.keys()]).toEqual([a.id, b.id]);
    first.unmount();

    const again = renderHook(({ userId }) => useLeadCart(userId), { initialProps: { userId: ANN } });
    expect([...again.result.current.cart.keys()]).toEqual([a.id, b.id]);

    // Bob signs in on the same browser: an empty cart, and Ann's stays hers.
    again.rerender({ userId: BOB });
    expect(again.result.current.cart.size).toBe(0);
    again.rerender({ userId: ANN });
    expect(again.result.current.cart.size).toBe(2);

    act(() => again.result.current.remove([a.id], 'gone'));
    expect([...again.result.current.cart.keys()]).toEqual([b.id]);
    expect(again.result.current.notice).toBe(goneMessage(1));
    act(() => again.result.current.clear());
    expect(again.result.current.cart.size).toBe(0);
    expect(again.result.current.notice).toBeNull();
    expect(localStorage.getItem(cartStorageKey(ANN))).toBeNull();
  });
});
