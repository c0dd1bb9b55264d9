import {
  HIGH_VOLUME_CHECKOUT,
  PACKAGE_CHECKOUTS,
  highVolumeBand,
  highVolumeBandLabel,
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
  /** What a count that is not a number counts as: 0 on the flat checkouts, 50 on high volume (spec §5). */
  nonNumericCount: number;
  /** The rate for a count (high volume: its band; below the minimum, the first band's). */
  unitPriceCents(count: number): number;
  /** High volume: '200+ transfers: $28 each'. */
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
    nonNumericCount: 0,
    unitPriceCents: () => checkout.unitPriceCents,
    countHint: limitsHint(checkout.minCount, checkout.maxCount),
    benefits,
    successDescription,
  };
}

const clampToHighVolume = (count: number) =>
  Math.min(Math.max(count, HIGH_VOLUME_CHECKOUT.minCount), HIGH_VOLUME_CHECKOUT.maxCount);

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
    nonNumericCount: HIGH_VOLUME_CHECKOUT.defaultCount,
    unitPriceCents: (count) => highVolumeBand(clampToHighVolume(count)).unitPriceCents,
    bandLabel: (count) => highVolumeBandLabel(highVolumeBand(clampToHighVolume(count))),
    countHint: limitsHint(HIGH_VOLUME_CHECKOUT.minCount, HIGH_VOLUME_CHECKOUT.maxCount),
    benefits: CORE_FEATURES,
    successDescription: 'Thank you for your purchase!',
  },
} satisfies Record<string, CheckoutSpec>;

/** '60', '60.7', ' 60 ' → 60; anything else → the checkout's non-numeric count (spec §5). */
export function parseCount(text: string, spec: CheckoutSpec): number {
  const n = Number.parseInt(text, 10);
  return Number.isFinite(n) && n >= 0 ? n : spec.nonNumericCount;
}
