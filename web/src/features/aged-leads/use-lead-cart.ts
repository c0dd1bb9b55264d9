import { useCallback, useEffect, useRef, useState } from 'react';
import type { CartLead } from '@warmline/contracts/catalog';
import { fetchAvailableLeads } from './api';
import {
  addToCart,
  applyAvailability,
  cartStorageKey,
  EMPTY_CART,
  fullCartMessage,
  goneMessage,
  readCart,
  removeFromCart,
  toggleLead,
  togglePage,
  writeCart,
  type Cart,
  type CartChange,
} from './lead-selection';

/** localStorage, or nothing where it is switched off (the cart then lasts for the visit). */
function browserStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const load = (userId: string): Cart => {
  const storage = browserStorage();
  return storage ? readCart(storage, userId) : EMPTY_CART;
};

/**
 * The signed-in buyer's cart, kept in this browser under their user id, the same in every tab
 * of it. `notice` tells the buyer why leads left the cart or were not added; it stays until
 * dismissed, so it is not missed like a toast.
 */
export function useLeadCart(userId: string) {
  const [state, setState] = useState(() => ({ owner: userId, cart: load(userId) }));
  const [notice, setNotice] = useState<string | null>(null);
  // Another account signed in without a reload: its own cart, never the previous one's.
  const current = state.owner === userId ? state : { owner: userId, cart: load(userId) };
  if (current !== state) setState(current);
  const cart = current.cart;

  useEffect(() => {
    const storage = browserStorage();
    if (storage) writeCart(storage, current.owner, current.cart);
  }, [current.owner, current.cart]);

  // A change made in another tab of this browser.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === cartStorageKey(userId)) setState({ owner: userId, cart: load(userId) });
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [userId]);

  const latest = useRef(cart);
  latest.current = cart;

  /**
   * Applies a change to the cart. The state takes it from the newest cart (two quick clicks
   * both count); the answer, for the buyer's message, is computed from the cart on screen.
   */
  const change = useCallback(
    (apply: (cart: Cart) => CartChange): CartChange => {
      const result = apply(latest.current);
      setState((s) => ({ owner: s.owner, cart: apply(s.cart).cart }));
      if (result.refused > 0) setNotice(fullCartMessage(result.refused));
      return result;
    },
    [],
  );

  /** Takes leads out; `because` 'gone' tells the buyer they were sold or withdrawn meanwhile. */
  const remove = useCallback((ids: readonly string[], because?: 'gone') => {
    const gone = ids.filter((id) => latest.current.has(id)).length;
    setState((s) => ({ owner: s.owner, cart: removeFromCart(s.cart, ids) }));
    if (because === 'gone' && gone > 0) setNotice(goneMessage(gone));
  }, []);

  /** Asks the server which leads are still for sale: the others leave with a notice, the rest take today's price. */
  const recheck = useCallback(async () => {
    const ids = [...latest.current.keys()];
    if (ids.length === 0) return;
    let answer;
    try {
      answer = await fetchAvailableLeads(ids);
    } catch {
      return; // no answer now: the purchase checks the leads again anyway
    }
    const gone = applyAvailability(latest.current, answer).gone.length;
    setState((s) => ({ owner: s.owner, cart: applyAvailability(s.cart, answer).cart }));
    if (gone > 0) setNotice(goneMessage(gone));
  }, []);

  return {
    cart,
    notice,
    dismissNotice: () => setNotice(null),
    toggle: (lead: CartLead) => change((c) => toggleLead(c, lead)),
    togglePage: (page: readonly CartLead[]) => change((c) => togglePage(c, page)),
    add: (leads: readonly CartLead[]) => change((c) => addToCart(c, leads)),
    remove,
    clear: () => {
      setState((s) => ({ owner: s.owner, cart: EMPTY_CART }));
      setNotice(null);
    },
    recheck,
  };
}
