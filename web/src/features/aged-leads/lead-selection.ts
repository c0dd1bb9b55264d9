import { z } from 'zod';
import { pageButtons as pagerButtons } from '../../lib/page-buttons';
import {
  AGED_LEAD_PAGE_BUTTONS,
  BULK_PURCHASE_MAX_LEADS,
  type AvailableLeadsResponse,
  type CartLead,
} from '@warmline/contracts/catalog';

/**
 * The market's cart (issue 17, overriding spec §4's "changing page or filter clears the
 * selection"): the leads a buyer chose, on any page and through any filter, kept in this
 * browser per signed-in user until bought or cleared. Each lead keeps what the cart shows of it
 * (masked name, state, zip, age, price); the server re-checks them and prices the purchase,
 * so what is stored here is only for showing. Pure, so the rules are tested without a browser.
 */
export type Cart = ReadonlyMap<string, CartLead>;

export const EMPTY_CART: Cart = new Map();

/** One purchase holds at most this many leads, so the cart does too. */
export const CART_LIMIT = BULK_PURCHASE_MAX_LEADS;

const cartLead = (lead: CartLead): CartLead => ({
  id: lead.id,
  name: lead.name,
  state: lead.state,
  zip: lead.zip,
  actualAge: lead.actualAge,
  priceCents: lead.priceCents,
});

export interface CartChange {
  cart: Cart;
  /** Leads newly in the cart. */
  added: number;
  /** Leads left out because the cart was full. */
  refused: number;
}

/** Adds leads up to the limit; leads already in the cart stay where they are. */
export function addToCart(cart: Cart, leads: readonly CartLead[], limit = CART_LIMIT): CartChange {
  const next = new Map(cart);
  let added = 0;
  let refused = 0;
  for (const lead of leads) {
    if (next.has(lead.id)) continue;
    if (next.size >= limit) {
      refused += 1;
      continue;
    }
    next.set(lead.id, cartLead(lead));
    added += 1;
  }
  return { cart: next, added, refused };
}

export function removeFromCart(cart: Cart, ids: Iterable<string>): Cart {
  const next = new Map(cart);
  for (const id of ids) next.delete(id);
  return next;
}

/** Puts a lead in the cart or takes it out; a full cart takes no more. */
export function toggleLead(cart: Cart, lead: CartLead, limit = CART_LIMIT): CartChange {
  if (cart.has(lead.id)) return { cart: removeFromCart(cart, [lead.id]), added: 0, refused: 0 };
  return addToCart(cart, [lead], limit);
}

/** Puts every lead of the page in the cart, or, when all of them are in it already, takes them out. */
export function togglePage(cart: Cart, page: readonly CartLead[], limit = CART_LIMIT): CartChange {
  if (page.length > 0 && page.every((l) => cart.has(l.id))) {
    return { cart: removeFromCart(cart, page.map((l) => l.id)), added: 0, refused: 0 };
  }
  return addToCart(cart, page, limit);
}

export type PageSelectionState = 'none' | 'some' | 'all';

export function pageSelectionState(cart: Cart, page: readonly { id: string }[]): PageSelectionState {
  const chosen = page.filter((l) => cart.has(l.id)).length;
  if (chosen === 0) return 'none';
  return chosen === page.length ? 'all' : 'some';
}

/** The cart total: the sum of its leads' prices as last seen, in cents (the server prices the purchase). */
export function cartTotalCents(cart: Cart): number {
  let total = 0;
  for (const lead of cart.values()) total += lead.priceCents;
  return total;
}

export interface CartCheck {
  cart: Cart;
  /** Leads that left the cart: bought or reserved by someone else, aged out, or withdrawn. */
  gone: CartLead[];
}

/**
 * The server's answer about the cart's leads applied to it: the unavailable ones leave, the
 * others take today's price and age. Leads the answer does not mention stay as they are (they
 * were added while the question was on its way).
 */
export function applyAvailability(cart: Cart, answer: Pick<AvailableLeadsResponse, 'leads' | 'unavailableLeadIds'>): CartCheck {
  const next = new Map(cart);
  const gone: CartLead[] = [];
  for (const id of answer.unavailableLeadIds) {
    const lead = next.get(id);
    if (!lead) continue;
    gone.push(lead);
    next.delete(id);
  }
  for (const lead of answer.leads) {
    if (next.has(lead.id)) next.set(lead.id, cartLead(lead));
  }
  return { cart: next, gone };
}

/** What the buyer is told when leads left the cart. */
export function goneMessage(goneCount: number): string {
  return goneCount === 1
    ? 'One lead in your cart was bought by someone else or is no longer for sale, so it was removed from your cart.'
    : `${goneCount} leads in your cart were bought by someone else or are no longer for sale, so they were removed from your cart.`;
}

/** What the buyer is told when the cart was too full for all the leads they picked. */
export function fullCartMessage(refused: number, limit = CART_LIMIT): string {
  return `Your cart holds at most ${limit} leads, as many as one purchase can buy: ${refused === 1 ? 'one lead was' : `${refused} leads were`} not added.`;
}

/* ------------------------------------------------------------ kept in the browser ---------- */

/** One key per signed-in user: another account on the same browser never sees this cart. */
export function cartStorageKey(userId: string): string {
  return `warmline.lead-cart.v1.${userId}`;
}

const storedLead = z.object({
  id: z.uuid(),
  name: z.string().max(200),
  state: z.string().max(10),
  zip: z.string().max(10),
  actualAge: z.number().int().nonnegative(),
  priceCents: z.number().int().nonnegative(),
});

type CartStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * The cart this user left in this browser. Whatever another script or an older version put
 * there is read with care: entries that are not leads are dropped, and never more than the limit.
 */
export function readCart(storage: CartStorage, userId: string): Cart {
  let raw: string | null;
  try {
    raw = storage.getItem(cartStorageKey(userId));
  } catch {
    return EMPTY_CART; // storage switched off (private mode): a cart for this visit only
  }
  if (!raw) return EMPTY_CART;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return EMPTY_CART;
  }
  const entries = parsed && typeof parsed === 'object' && 'leads' in parsed && Array.isArray(parsed.leads) ? (parsed.leads as unknown[]) : [];
  const leads = entries.flatMap((entry) => {
    const lead = storedLead.safeParse(entry);
    return lead.success ? [lead.data] : [];
  });
  return addToCart(EMPTY_CART, leads).cart;
}

export function writeCart(storage: CartStorage, userId: string, cart: Cart): void {
  try {
    if (cart.size === 0) storage.removeItem(cartStorageKey(userId));
    else storage.setItem(cartStorageKey(userId), JSON.stringify({ leads: [...cart.values()] }));
  } catch {
    // Storage full or switched off: the cart still works for this visit.
  }
}

/** The numbered page buttons of the market: at most 5 (spec §9), around the current page. */
export function pageButtons(current: number, totalPages: number, max = AGED_LEAD_PAGE_BUTTONS): number[] {
  return pagerButtons(current, totalPages, max);
}
