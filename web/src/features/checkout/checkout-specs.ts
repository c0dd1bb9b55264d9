import {
  HIGH_VOLUME_CHECKOUT,
  PACKAGE_CHECKOUTS,
  PricingError,
  highVolumeBand,
  highVolumeBandLabel,
  quotePackage,
  type FlatCheckoutTier,
  type PackageTier,
} from '@warmline/contracts/pricing';
import { CORE_FEATURES, ENTERPRISE_BENEFITS, ULTIMATE_BENEFITS } from '../pricing/tier-benefits';

/**
 * What each package checkout sells (spec §2, §5, §8, §9). Prices, limits and defaults come
 * from the contracts pricing table; only the wording is chosen here.
 */
export interface CheckoutSpec {
  tier: Extract<PackageTier, FlatCheckoutTier | 'high-volume'>;
  title: string;
  backPath: string;
  minCount: number;
  maxCount: number;
  defaultCount: number;
  /** High volume: '200+ transfers: $28 each' (for a count in range). */
  bandLabel?(count: number): string;
  /** 'Minimum: 1 transfer, Maximum: 1000 transfers'. */
  countHint: string;
  benefits: string[];
  /** The success toast's description (spec §8). */
  successDescription: string;
}

const limitsHint = (min: number, max: number) =>
  `Minimum: ${min} ${min === 1 ? 'transfer' : 'transfers'}, Maximum: ${max} transfers`;

function flat(tier: FlatCheckoutTier, benefits: string[], successDescription: string): CheckoutSpec {
  const checkout = PACKAGE_CHECKOUTS[tier];
  return {
    tier,
    title: checkout.title,
    backPath: checkout.backPath,
    minCount: checkout.minCount,
    maxCount: checkout.maxCount,
    defaultCount: checkout.defaultCount,
    countHint: limitsHint(checkout.minCount, checkout.maxCount),
    benefits,
    successDescription,
  };
}

const THANKS = "Thank you for your purchase! We'll be in touch soon.";

export const CHECKOUTS = {
  special: flat('special', CORE_FEATURES, 'Your order has been processed successfully.'),
  premium: flat('premium', CORE_FEATURES, THANKS),
  enterprise: flat('enterprise', ENTERPRISE_BENEFITS, THANKS),
  ultimate: flat('ultimate', ULTIMATE_BENEFITS, THANKS),
  'high-volume': {
    tier: 'high-volume',
    title: HIGH_VOLUME_CHECKOUT.title,
    backPath: HIGH_VOLUME_CHECKOUT.backPath,
    minCount: HIGH_VOLUME_CHECKOUT.minCount,
    maxCount: HIGH_VOLUME_CHECKOUT.maxCount,
    defaultCount: HIGH_VOLUME_CHECKOUT.defaultCount,
    bandLabel: (count) => highVolumeBandLabel(highVolumeBand(count)),
    countHint: limitsHint(HIGH_VOLUME_CHECKOUT.minCount, HIGH_VOLUME_CHECKOUT.maxCount),
    benefits: CORE_FEATURES,
    successDescription: 'Thank you for your purchase!',
  },
} satisfies Record<string, CheckoutSpec>;

export type CheckoutCount =
  | { ok: true; count: number; unitPriceCents: number; amountCents: number }
  /** No message for an empty field: nothing typed yet is not an error, but there is no total either. */
  | { ok: false; message?: string };

/**
 * The count as typed, priced by the function the orders service charges with. Issue 17
 * overrides spec §5's "non-numeric counts as 0 / falls back to 50": a count is a whole number
 * in the checkout's range or it is refused with a message saying the range; '2.5' is never
 * rounded to 2, and an invalid count has no total.
 */
export function checkoutCount(text: string, spec: CheckoutSpec): CheckoutCount {
  const typed = text.trim();
  if (typed === '') return { ok: false };
  if (!/^\d+$/.test(typed)) {
    return {
      ok: false,
      message: `Transfers are counted in whole numbers: please enter a whole number from ${spec.minCount} to ${spec.maxCount}`,
    };
  }
  try {
    // Past nine digits a count is far above every maximum (and may not even be a safe integer).
    const count = typed.length > 9 ? spec.maxCount + 1 : Number(typed);
    const quote = quotePackage({ tier: spec.tier, count });
    return { ok: true, count: quote.count, unitPriceCents: quote.unitPriceCents, amountCents: quote.amountCents };
  } catch (err) {
    // 'The Premium Volume Package allows 1 to 2000 transfers': the server's own words for the same count.
    if (err instanceof PricingError) return { ok: false, message: err.message };
    throw err;
  }
}
