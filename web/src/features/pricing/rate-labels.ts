import {
  PACKAGE_CHECKOUTS,
  PRICING_PAGE_IDS,
  PRICING_PAGES,
  formatUsd,
  type FlatCheckout,
  type FlatCheckoutTier,
  type PricingPage,
  type PricingPageId,
} from '@warmline/contracts/pricing';
import { formatRate } from './format';

/**
 * Spec §9 keeps two numbers per tier: the pricing page's rate and the checkout's rate. Issue 17:
 * a visitor must never take one for the other, so every place that shows a page rate calls it
 * the volume rate, and says the checkout rate beside it. The checkout rate is always read from
 * PACKAGE_CHECKOUTS, the constant the orders service charges from.
 */

/** How the labels name each pricing page ("the Premium page's $35"). */
const PAGE_NAMES: Record<PricingPageId, string> = {
  standard: 'Standard',
  special: 'Special offer',
  premium: 'Premium',
  enterprise: 'Enterprise',
  ultimate: 'Ultimate',
};

/** The checkout a pricing page's 'Let's get started!' button leads to. */
export function checkoutOfPage(page: PricingPage): FlatCheckout {
  return PACKAGE_CHECKOUTS[page.checkoutTier];
}

/** '$37.00 per transfer': what the checkout charges, always with cents, as the checkout shows it. */
export function checkoutRateText(checkout: FlatCheckout): string {
  return `${formatUsd(checkout.unitPriceCents)} per transfer`;
}

/** 'The $35 above is the volume rate for agencies with 151-199 calls per day; …' (on a pricing page). */
export function pageRateNote(page: PricingPage): string {
  const checkout = checkoutOfPage(page);
  return (
    `The ${formatRate(page.priceCents)} above is the volume rate for agencies with ${page.callsPerDayLabel}; ` +
    `the ${checkout.title} you buy next is charged at ${checkoutRateText(checkout)}.`
  );
}

/**
 * On a checkout, after 'Checkout rate $37.00 per transfer': what the pricing pages that lead
 * here showed, and what it was ("the Premium page's $35 is the volume rate for agencies with
 * 151-199 calls per day").
 */
export function checkoutPageRatesNote(tier: FlatCheckoutTier): string {
  const pages = PRICING_PAGE_IDS.map((id) => PRICING_PAGES[id]).filter((page) => page.checkoutTier === tier);
  const named = (page: PricingPage) => `the ${PAGE_NAMES[page.id]} page's ${formatRate(page.priceCents)}`;
  if (pages.length === 0) return '';
  if (pages.length === 1) {
    const [page] = pages as [PricingPage];
    return `${named(page)} is the volume rate for agencies with ${page.callsPerDayLabel}`;
  }
  return `${pages.map((page) => `${named(page)} (${page.callsPerDayLabel})`).join(' and ')} are volume rates for agencies at those call volumes`;
}
