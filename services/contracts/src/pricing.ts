/**
 * THE pricing table of WarmLine (spec §9). Prices live here and nowhere else: the pricing
 * pages and checkouts show them, and the orders service charges from them (it recomputes
 * every amount and refuses one the browser made up).
 *
 * Money is integer cents. Counts are whole numbers. Every limit is enforced by the server
 * (the old system only put the special checkout's maximum on the input element).
 */

export const CURRENCY = 'usd';

/* ------------------------------------------------------------------ money ---------- */

/** '$2,220.00' — how totals are shown to buyers (two decimals, thousands grouped). */
export function formatUsd(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}

/** 2220 dollars → 222000 cents; refuses anything that is not a whole number of cents. */
export function dollarsToCents(dollars: number): number {
  const cents = Math.round(dollars * 100);
  if (!Number.isFinite(dollars) || Math.abs(cents - dollars * 100) > 1e-6) {
    throw new PricingError('Amount must be in dollars with at most two decimals', 'amount');
  }
  return cents;
}

export const centsToDollars = (cents: number): number => cents / 100;

/* ---------------------------------------------------------- pricing pages ---------- */

export const PRICING_PAGE_IDS = ['standard', 'special', 'premium', 'enterprise', 'ultimate'] as const;
export type PricingPageId = (typeof PRICING_PAGE_IDS)[number];

export interface PricingPage {
  id: PricingPageId;
  path: string;
  /** The advertised per-transfer rate (the checkout's rate may differ: see PACKAGE_CHECKOUTS). */
  priceCents: number;
  /** The crossed-out rate ('$40 → $38'), when the page shows one. */
  wasPriceCents?: number;
  /** Calls per day the page is for; `max` undefined means no upper bound. */
  callsPerDay: { min: number; max?: number };
  callsPerDayLabel: string;
  /** A badge the page shows, e.g. 'Great Rate'. */
  badge?: string;
  /**
   * The checkout its 'Let's get started!' button leads to. The page shows that checkout's
   * unit price (PACKAGE_CHECKOUTS, what the server charges) beside its own volume rate, so a
   * visitor never takes one for the other (issue 17).
   */
  checkoutTier: FlatCheckoutTier;
}

export const PRICING_PAGES: Record<PricingPageId, PricingPage> = {
  standard: {
    id: 'standard',
    path: '/standard-pricing',
    priceCents: 4000,
    // The spec says "under 100" and the special page starts at 101; 100 itself falls
    // between them, so it goes to the standard page (the higher rate, never a surprise discount),
    // and the label says so ('up to 100': issue 17 asked where exactly 100 calls a day belongs).
    callsPerDay: { min: 0, max: 100 },
    callsPerDayLabel: 'up to 100 calls per day',
    checkoutTier: 'special',
  },
  special: {
    id: 'special',
    path: '/special-pricing',
    priceCents: 3800,
    wasPriceCents: 4000,
    callsPerDay: { min: 101, max: 150 },
    callsPerDayLabel: '101-150 calls per day',
    badge: 'Congratulations',
    checkoutTier: 'special',
  },
  premium: {
    id: 'premium',
    path: '/premium-pricing',
    priceCents: 3500,
    callsPerDay: { min: 151, max: 199 },
    callsPerDayLabel: '151-199 calls per day',
    checkoutTier: 'premium',
  },
  enterprise: {
    id: 'enterprise',
    path: '/enterprise-pricing',
    priceCents: 3200,
    callsPerDay: { min: 200, max: 299 },
    callsPerDayLabel: '200-299 calls per day',
    badge: 'Great Rate',
    checkoutTier: 'enterprise',
  },
  ultimate: {
    id: 'ultimate',
    path: '/ultimate-pricing',
    priceCents: 2800,
    callsPerDay: { min: 300 },
    callsPerDayLabel: '300+ calls per day',
    badge: 'Best Rate Available',
    checkoutTier: 'ultimate',
  },
};

/** The pricing page for an agency's calls per day (negative or fractional input is refused). */
export function pricingPageForCallsPerDay(callsPerDay: number): PricingPage {
  if (!Number.isInteger(callsPerDay) || callsPerDay < 0) {
    throw new PricingError('Calls per day must be a whole number');
  }
  const page = PRICING_PAGE_IDS.map((id) => PRICING_PAGES[id]).find(
    (p) => callsPerDay >= p.callsPerDay.min && (p.callsPerDay.max === undefined || callsPerDay <= p.callsPerDay.max),
  );
  // The table covers 0..∞ without gaps; reaching here is a bug in the table.
  if (!page) throw new Error(`No pricing page covers ${callsPerDay} calls per day`);
  return page;
}

/* --------------------------------------------------------------- checkouts ---------- */

/** Every tier the package checkouts and the second brand's checkout sell. */
const PACKAGE_TIERS = ['special', 'premium', 'enterprise', 'ultimate', 'high-volume', 'ringcloud', 'callbacks'] as const;
export type PackageTier = (typeof PACKAGE_TIERS)[number];

const FLAT_CHECKOUT_TIERS = ['special', 'premium', 'enterprise', 'ultimate'] as const;
export type FlatCheckoutTier = (typeof FLAT_CHECKOUT_TIERS)[number];

export interface FlatCheckout {
  tier: FlatCheckoutTier;
  title: string;
  path: string;
  backPath: string;
  unitPriceCents: number;
  minCount: number;
  maxCount: number;
  defaultCount: number;
}

/** Flat-rate checkouts: count × unit price. */
export const PACKAGE_CHECKOUTS: Record<FlatCheckoutTier, FlatCheckout> = {
  special: {
    tier: 'special',
    title: 'Special Pricing Package',
    path: '/checkout',
    backPath: '/special-pricing',
    unitPriceCents: 3900,
    minCount: 1,
    maxCount: 1000,
    defaultCount: 25,
  },
  premium: {
    tier: 'premium',
    title: 'Premium Volume Package',
    path: '/checkout-premium',
    backPath: '/premium-pricing',
    unitPriceCents: 3700,
    minCount: 1,
    maxCount: 2000,
    defaultCount: 50,
  },
  enterprise: {
    tier: 'enterprise',
    title: 'Enterprise Volume Package',
    path: '/checkout-enterprise',
    backPath: '/enterprise-pricing',
    unitPriceCents: 3500,
    minCount: 1,
    maxCount: 5000,
    defaultCount: 100,
  },
  ultimate: {
    tier: 'ultimate',
    title: 'Ultimate Volume Package',
    path: '/checkout-ultimate',
    backPath: '/ultimate-pricing',
    unitPriceCents: 3200,
    minCount: 1,
    maxCount: 10000,
    defaultCount: 200,
  },
};

export interface HighVolumeBand {
  minCount: number;
  /** Undefined for the last band ('200+'). */
  maxCount?: number;
  unitPriceCents: number;
}

export const HIGH_VOLUME_CHECKOUT = {
  tier: 'high-volume' as const,
  title: 'High Volume Package',
  path: '/checkout-high-volume',
  backPath: '/pricing',
  minCount: 50,
  defaultCount: 50,
  // The spec gives no maximum; the largest flat checkout's is used so a typo cannot turn
  // into a six-figure charge (and amounts stay far below card networks' limits).
  maxCount: 10000,
  bands: [
    { minCount: 50, maxCount: 99, unitPriceCents: 3200 },
    { minCount: 100, maxCount: 149, unitPriceCents: 3000 },
    { minCount: 150, maxCount: 199, unitPriceCents: 2900 },
    { minCount: 200, unitPriceCents: 2800 },
  ] as readonly HighVolumeBand[],
};

/** The band a high-volume count falls in (throws below the minimum or above the maximum). */
export function highVolumeBand(count: number): HighVolumeBand {
  assertCount(count, HIGH_VOLUME_CHECKOUT.minCount, HIGH_VOLUME_CHECKOUT.maxCount, `The ${HIGH_VOLUME_CHECKOUT.title}`, 'transfers');
  const band = HIGH_VOLUME_CHECKOUT.bands.find(
    (b) => count >= b.minCount && (b.maxCount === undefined || count <= b.maxCount),
  );
  if (!band) throw new Error(`No high-volume band covers ${count}`);
  return band;
}

/** '50-99 transfers: $32 each', '200+ transfers: $28 each'. */
export function highVolumeBandLabel(band: HighVolumeBand): string {
  const range = band.maxCount === undefined ? `${band.minCount}+` : `${band.minCount}-${band.maxCount}`;
  return `${range} transfers: ${formatWholeUsd(band.unitPriceCents)} each`;
}

/* ------------------------------------------------------ the second brand ---------- */

export const RINGCLOUD_LEAD_TYPES = ['Live Transfers', 'Call-Backs', 'Aged Leads'] as const;
type RingcloudLeadType = (typeof RINGCLOUD_LEAD_TYPES)[number];

/** Aged-lead age ranges, in days (spec §3). */
export const AGED_LEAD_AGE_RANGES = ['30-60', '60-90', '90-180'] as const;
export type AgedLeadAgeRange = (typeof AGED_LEAD_AGE_RANGES)[number];

/** 'RingCloud Live Transfers' — the packageType the second brand's checkout sends. */
export const RINGCLOUD_PACKAGE_PREFIX = 'RingCloud ';

export const RINGCLOUD_PRICING = {
  brand: 'RingCloud',
  /** Per transfer / per callback, for as many as the buyer orders. */
  perUnit: {
    'Live Transfers': { unitPriceCents: 3700, unit: 'transfer', units: 'transfers' },
    'Call-Backs': { unitPriceCents: 1500, unit: 'callback', units: 'callbacks' },
  },
  /** Aged leads are sold as one pack of a fixed size, priced per lead by age. */
  agedLeads: {
    leadCount: 100,
    unitPriceCents: { '30-60': 500, '60-90': 400, '90-180': 300 } as Record<AgedLeadAgeRange, number>,
  },
  minCount: 1,
  // Not in the spec; the same ceiling as the largest package checkout.
  maxCount: 10000,
} as const;

/* ------------------------------------------------------ WarmLine's call-backs ---------- */

/**
 * WarmLine's own Call-Backs (issue 22 item 4): what the dashboard's Buy Call-backs sells to a
 * logged-in agent, in WarmLine's name (tier 'callbacks'), at the default callback price. The
 * second brand's funnel keeps selling RingCloud Call-Backs (tier 'ringcloud'); both credit the
 * agent's call-backs.
 */
export const WARMLINE_CALLBACKS = {
  tier: 'callbacks' as const,
  title: 'WarmLine Call-Backs',
  // One price for a call-back, whichever brand sells it.
  unitPriceCents: RINGCLOUD_PRICING.perUnit['Call-Backs'].unitPriceCents,
  unit: 'call-back',
  units: 'call-backs',
  minCount: 1,
  // The same ceiling as RingCloud's Call-Backs.
  maxCount: 10000,
};

/* ----------------------------------------------------- other price constants ---------- */

/** What admins charge per aged lead, by age (spec §9). */
export const AGED_LEAD_PRICES_CENTS: Record<AgedLeadAgeRange, number> = {
  '30-60': 250,
  '60-90': 200,
  '90-180': 150,
};

/** A new customer's per-transfer price (shown as '35.00'). */
export const DEFAULT_LIVE_TRANSFER_PRICE_CENTS = 3500;
/** Price of a callback opportunity when the upload does not give one (shown as '15.00'); WarmLine's Call-Backs sell at it. */
export const DEFAULT_CALLBACK_PRICE_CENTS = WARMLINE_CALLBACKS.unitPriceCents;

/** The 120-second buffer: a transfer shorter than this is not billed. */
export const BUFFER_SECONDS = 120;

/* ------------------------------------------------------------------ quotes ---------- */

/** A price refusal whose message a buyer can read ('The Premium Volume Package allows 1 to 2000 transfers'). */
export class PricingError extends Error {
  override name = 'PricingError';
  constructor(
    message: string,
    /** Which part of the request is wrong, so a form can show the message beside it. */
    readonly field: 'tier' | 'count' | 'leadType' | 'ageRange' | 'amount' = 'count',
  ) {
    super(message);
  }
}

export interface QuoteRequest {
  /** A package tier; anything else is refused with 'Unknown package tier: …'. */
  tier: string;
  /** How many transfers (callbacks for the second brand's Call-Backs). Ignored for Aged Leads, which come in packs. */
  count?: unknown;
  /** Second brand only. */
  leadType?: string;
  /** Second brand's Aged Leads only. */
  ageRange?: string;
}

export interface PackageQuote {
  tier: PackageTier;
  count: number;
  unitPriceCents: number;
  amountCents: number;
  currency: typeof CURRENCY;
  /** 'Premium Volume Package: 60 transfers × $37.00' — for summaries and receipts. */
  description: string;
  leadType?: RingcloudLeadType;
  ageRange?: AgedLeadAgeRange;
}

function isPackageTier(tier: string): tier is PackageTier {
  return (PACKAGE_TIERS as readonly string[]).includes(tier);
}

/**
 * The server's price for a package: pure, and the only way an amount is computed.
 * Throws PricingError for an unknown tier, a count that is not a whole number, or a count
 * outside the tier's range.
 */
export function quotePackage(request: QuoteRequest): PackageQuote {
  const { tier } = request;
  if (!isPackageTier(tier)) throw new PricingError(`Unknown package tier: ${tier}`, 'tier');

  if (tier === 'ringcloud') return quoteRingcloud(request);

  const count = wholeCount(request.count);
  if (tier === 'callbacks') {
    const { title, unitPriceCents, unit, units, minCount, maxCount } = WARMLINE_CALLBACKS;
    assertCount(count, minCount, maxCount, `A ${title} order`, units);
    return {
      ...quote(tier, count, unitPriceCents, `${title}: ${count} ${count === 1 ? unit : units} × ${formatUsd(unitPriceCents)}`),
      leadType: 'Call-Backs',
    };
  }
  if (tier === 'high-volume') {
    const band = highVolumeBand(count);
    return quote(tier, count, band.unitPriceCents, `${HIGH_VOLUME_CHECKOUT.title}: ${count} transfers × ${formatUsd(band.unitPriceCents)}`);
  }
  const checkout = PACKAGE_CHECKOUTS[tier];
  assertCount(count, checkout.minCount, checkout.maxCount, `The ${checkout.title}`, 'transfers');
  return quote(tier, count, checkout.unitPriceCents, `${checkout.title}: ${count} transfers × ${formatUsd(checkout.unitPriceCents)}`);
}

function quoteRingcloud(request: QuoteRequest): PackageQuote {
  const leadType = request.leadType;
  if (!leadType || !(RINGCLOUD_LEAD_TYPES as readonly string[]).includes(leadType)) {
    throw new PricingError(
      leadType ? `Unknown RingCloud lead type: ${leadType}` : 'Please select a lead type',
      'leadType',
    );
  }
  if (leadType === 'Aged Leads') {
    const ageRange = request.ageRange;
    if (!ageRange || !(AGED_LEAD_AGE_RANGES as readonly string[]).includes(ageRange)) {
      throw new PricingError('Please select an age range for Aged Leads (30-60, 60-90 or 90-180 days)', 'ageRange');
    }
    const range = ageRange as AgedLeadAgeRange;
    const { leadCount, unitPriceCents } = RINGCLOUD_PRICING.agedLeads;
    if (request.count !== undefined && request.count !== null && wholeCount(request.count) !== leadCount) {
      throw new PricingError(`RingCloud Aged Leads are sold in packs of ${leadCount} leads`);
    }
    return {
      ...quote('ringcloud', leadCount, unitPriceCents[range], `RingCloud Aged Leads (${range} days): ${leadCount} leads × ${formatUsd(unitPriceCents[range])}`),
      leadType: 'Aged Leads',
      ageRange: range,
    };
  }
  const product = RINGCLOUD_PRICING.perUnit[leadType as 'Live Transfers' | 'Call-Backs'];
  const count = wholeCount(request.count);
  assertCount(count, RINGCLOUD_PRICING.minCount, RINGCLOUD_PRICING.maxCount, `A RingCloud ${leadType} order`, product.units);
  return {
    ...quote('ringcloud', count, product.unitPriceCents, `RingCloud ${leadType}: ${count} ${count === 1 ? product.unit : product.units} × ${formatUsd(product.unitPriceCents)}`),
    leadType: leadType as RingcloudLeadType,
  };
}

function quote(tier: PackageTier, count: number, unitPriceCents: number, description: string): PackageQuote {
  return { tier, count, unitPriceCents, amountCents: count * unitPriceCents, currency: CURRENCY, description };
}

/** A count as a whole number: numbers and digit strings ('60') are accepted, nothing else. */
function wholeCount(value: unknown): number {
  if (value === undefined || value === null || value === '') throw new PricingError('Count is required');
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw new PricingError('Count must be a whole number');
  return n;
}

/** 'The Premium Volume Package allows 1 to 2000 transfers': the package by the name its checkout shows. */
function assertCount(count: number, min: number, max: number, what: string, units: string): void {
  if (count < min || count > max) throw new PricingError(`${what} allows ${min} to ${max} ${units}`);
}

/** '$28' for whole dollars, '$28.50' otherwise — the label style of the high-volume bands. */
function formatWholeUsd(cents: number): string {
  return cents % 100 === 0 ? `$${(cents / 100).toLocaleString('en-US')}` : formatUsd(cents);
}
