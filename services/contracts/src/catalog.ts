import { z } from 'zod';
import type { MyLeadReturn } from './lead-returns';
import { AGED_LEAD_AGE_RANGES, type AgedLeadAgeRange } from './pricing';
import type { PaymentProviderName } from './orders';
import { hideDncMatchesParam, type DncCheck } from './dnc-registry';
import type { ProspectCallingHours } from './prospect-calling-hours';

/**
 * The aged-lead market (spec §2 Dashboard, §3 Aged lead, §4, §5 Lead filter and bulk purchase,
 * §9): what the catalog service answers and accepts. Prices per lead are
 * `AGED_LEAD_PRICES_CENTS` in pricing.ts, by the lead's age at the time of the request.
 */

/** Spec §9: aged-lead page size 50, up to 5 page buttons. */
export const AGED_LEAD_PAGE_SIZE = 50;
export const AGED_LEAD_PAGE_BUTTONS = 5;
/** How many leads one bulk purchase may hold (a page is 50; ten pages of selection is plenty). */
export const BULK_PURCHASE_MAX_LEADS = 500;
/** An unpaid reservation is released after this long. */
export const LEAD_RESERVATION_MINUTES = 15;
/** Youngest and oldest listed ages, in whole days (both included). */
export const AGED_LEAD_MIN_AGE_DAYS = 30;
export const AGED_LEAD_MAX_AGE_DAYS = 180;
/** Filter text limits: long enough for every state and a few area codes, short enough to stay cheap. */
const LEAD_FILTER_MAX_LENGTH = 300;
export const LEAD_FILTER_MAX_TERMS = 60;

const agedLeadAgeRangeSchema = z.enum(AGED_LEAD_AGE_RANGES);

const pageParam = z
  .union([z.number(), z.string().trim().max(20, 'Page must be at most 1000000').regex(/^\d+$/, 'Page must be a whole number of 1 or more')], {
    error: 'Page must be a whole number of 1 or more',
  })
  .transform((v) => Number(v))
  .refine((n) => Number.isSafeInteger(n) && n >= 1, 'Page must be a whole number of 1 or more')
  .refine((n) => n <= 1_000_000, 'Page must be at most 1000000');

const filterParam = z
  .string({ error: 'Filter must be text' })
  .max(LEAD_FILTER_MAX_LENGTH, `Filter must be at most ${LEAD_FILTER_MAX_LENGTH} characters`);

/** `GET /api/aged-leads?page=N&filter=…` and `GET /api/my-leads?page=N&filter=…`. */
export const leadListQuery = z.object({
  page: pageParam.optional().default(1),
  filter: filterParam.optional().default(''),
  // Issue 24: the market hides national DNC registry matches on request (ignored by My Leads).
  hideDncMatches: hideDncMatchesParam,
});

/** `GET /api/my-leads?view=` (issue 24): the active leads (default) or the returned ones. */
const MY_LEADS_VIEWS = ['active', 'returned'] as const;
export type MyLeadsView = (typeof MY_LEADS_VIEWS)[number];
/** `GET /api/my-leads?page=&filter=&view=`: the market's list query, and which of the buyer's leads. */
export const myLeadsQuery = leadListQuery.extend({
  view: z.enum(MY_LEADS_VIEWS, { error: `view must be one of ${MY_LEADS_VIEWS.join(', ')}` }).optional().default('active'),
});

/** `GET /api/my-leads/export.csv?filter=…`. */
export const leadExportQuery = z.object({ filter: filterParam.optional().default('') });

/**
 * One lead of the market as a buyer sees it before buying: the name masked (first word whole,
 * last word's first 3 characters then X's), the phone masked to its area code, no e-mail. The
 * zip is shown because a filter can find it: nothing a filter reveals is hidden here.
 */
export interface MarketLead extends ProspectCallingHours {
  id: string;
  /** 'John SmiXX' */
  name: string;
  /** '(512) XXX-XXXX' */
  phone: string;
  state: string;
  /** Five digits, or '' when the lead came without one. */
  zip: string;
  /** Age in whole days at the time of the request. */
  actualAge: number;
  currentAgeRange: AgedLeadAgeRange;
  /** Dollars, e.g. 2.5. */
  currentPrice: number;
  priceCents: number;
  /** ISO date-time the prospect filled the form. */
  formFillTime: string;
  /**
   * The 'Consent on file' badge: the lead came with a consent certificate or the time the
   * prospect consented. The certificate, the address and the time of day are the buyer's only
   * once bought (My Leads): a certificate would show the prospect's details before purchase.
   */
  consentOnFile: boolean;
  /** The UTC date the prospect consented ('2026-06-03'); null when no consent time is on file. */
  consentDate: string | null;
  /** Issue 24: the national DNC registry's check of the lead's phone (docs/adr/0033). */
  dnc: DncCheck;
}

interface LeadPage<T> {
  leads: T[];
  total: number;
  page: number;
  pageSize: number;
}

export type MarketLeadsResponse = LeadPage<MarketLead>;

/**
 * A lead in the buyer's cart (issue 17): what the cart needs to show and total it while the
 * lead is not on the page in view. Masked like the market.
 */
export type CartLead = Pick<MarketLead, 'id' | 'name' | 'state' | 'zip' | 'actualAge' | 'priceCents'>;

/**
 * `GET /api/aged-leads/matching?filter=…`: 'Select all N matching this filter'. The available
 * leads matching the filter, newest first (the market's order), at most
 * BULK_PURCHASE_MAX_LEADS of them; `total` counts them all, so the buyer sees when the limit cut.
 */
export const matchingLeadsQuery = z.object({ filter: filterParam.optional().default(''), hideDncMatches: hideDncMatchesParam });

export interface MatchingLeadsResponse {
  leads: CartLead[];
  total: number;
}

/** How many lead ids one availability question may name (they travel in the query string). */
export const AVAILABLE_LEADS_MAX_IDS = 100;
const AVAILABLE_LEADS_IDS_MESSAGE = `Name between 1 and ${AVAILABLE_LEADS_MAX_IDS} lead ids, separated by commas`;

/**
 * `GET /api/aged-leads/available?ids=a,b,…`: which of the cart's leads this buyer can still buy,
 * at today's price (a lead gets cheaper as it ages). The others were sold, reserved by another
 * buyer, aged out of the market or withdrawn.
 */
export const availableLeadsQuery = z.object({
  ids: z
    .string({ error: AVAILABLE_LEADS_IDS_MESSAGE })
    .max(AVAILABLE_LEADS_MAX_IDS * 37, AVAILABLE_LEADS_IDS_MESSAGE)
    .transform((text) => text.split(',').map((id) => id.trim().toLowerCase()).filter((id) => id !== ''))
    .refine((ids) => ids.length >= 1 && ids.length <= AVAILABLE_LEADS_MAX_IDS, AVAILABLE_LEADS_IDS_MESSAGE)
    .refine((ids) => ids.every((id) => z.uuid().safeParse(id).success), 'Each lead id must be a UUID')
    // The same lead twice is one lead.
    .transform((ids) => [...new Set(ids)]),
});

export interface AvailableLeadsResponse {
  leads: CartLead[];
  unavailableLeadIds: string[];
}

/** A lead the buyer bought: every detail, with the date and the price paid. */
export interface PurchasedLead {
  id: string;
  name: string;
  phone: string;
  email: string | null;
  state: string;
  formFillTime: string;
  source: string;
  /** The free-form consent record as older lead sources sent it (e.g. the consent text); `{}` when none. */
  consent: Record<string, unknown>;
  /** The consent certificate (a TrustedForm or Jornaya URL, or an id), or null. */
  consentCertificate: string | null;
  /** ISO date-time the prospect consented, or null. */
  consentTime: string | null;
  /** The IPv4 or IPv6 address the prospect consented from, or null. */
  consentIp: string | null;
  ageRangeAtPurchase: AgedLeadAgeRange;
  /** Dollars. */
  pricePaid: number;
  priceCents: number;
  purchasedAt: string;
  orderId: string;
  /** ISO time the phone opted out (went on the suppression list), or null: shown as 'Do not call — opted out on …' (issue 24). */
  optedOutAt: string | null;
  /** Its return, if the buyer returned it (issue 24); null when never returned (the catalog always says; optional for older callers). */
  leadReturn?: MyLeadReturn | null;
  /** Issue 24: the national DNC registry's check of the phone now. */
  dnc: DncCheck;
}

export type MyLeadsResponse = LeadPage<PurchasedLead & ProspectCallingHours>;

/** `POST /api/bulk-purchase-leads`: the leads to buy; the server prices them. */
export const bulkPurchaseBody = z.object({
  leadIds: z
    .array(z.uuid({ error: 'Each lead id must be a UUID' }), {
      error: 'Please select at least one lead to purchase.',
    })
    .min(1, 'Please select at least one lead to purchase.')
    .max(BULK_PURCHASE_MAX_LEADS, `At most ${BULK_PURCHASE_MAX_LEADS} leads can be bought at once`)
    // The same lead twice is one lead.
    .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))]),
});

export interface BulkPurchaseResponse {
  orderId: string;
  /** Dollars. */
  total: number;
  totalCents: number;
  leadCount: number;
  clientSecret: string;
  paymentProvider: PaymentProviderName;
  /** When the reservation ends if the order is not paid. */
  reservedUntil: string;
  /**
   * True when this is the buyer's unpaid purchase of exactly these leads, resumed (issue 22):
   * the same order and the same payment as before, not a new one.
   */
  resumed: boolean;
}

/**
 * `GET /api/bulk-purchase-leads/{orderId}`: where the buyer's purchase stands. The leads are
 * sold when the payment's success reaches the catalog, a moment after the card form succeeds.
 */
export interface BulkPurchaseStatusResponse {
  orderId: string;
  /** held: waiting for payment; paid: sold; released / expired: given back unpaid; cancelled: by the buyer, unpaid. */
  status: 'held' | 'paid' | 'released' | 'expired' | 'cancelled';
  leadCount: number;
  /** Leads sold to the buyer (paid orders; fewer than leadCount only when some were owed back). */
  soldLeadCount: number;
  reservedUntil: string;
  /**
   * Paid orders: the leads sold, with the full contact details the buyer now owns (issue 22; the
   * receipt screen lists them, and only their buyer ever gets this answer); else empty.
   */
  leads: ReceiptLead[];
  /** What the sold leads cost (0 until paid). */
  totalCents: number;
  /** When the leads were sold to the buyer (null until paid). */
  paidAt: string | null;
}

/** One lead on the receipt: the buyer's own now, with its contact details as in My Leads. */
interface ReceiptLead {
  leadId: string;
  /** The full name, e.g. 'John Smith'. */
  name: string;
  /** '(512) 555-0134'. */
  phone: string;
  email: string | null;
  state: string;
  /** Five digits, or null when the lead's source gave none. */
  zip: string | null;
  /** Its age range when bought. */
  ageRange: AgedLeadAgeRange;
  priceCents: number;
}

export const LEADS_UNAVAILABLE_MESSAGE = 'Some leads are no longer available';

/**
 * One account may not hold the whole inventory (issue 11): at most this many unpaid lead
 * purchases and reserved leads per buyer at once; a purchase past either is refused with 429.
 */
export const MAX_UNPAID_LEAD_PURCHASES = 3;
export const MAX_RESERVED_LEADS_PER_BUYER = 1500;
export const TOO_MANY_UNPAID_PURCHASES_MESSAGE = 'You have too many unpaid lead purchases; pay or wait for them to expire';

/** A cancelled purchase can no longer be paid (issue 22): the sandbox's card form and a resume are refused with this. */
export const LEAD_PURCHASE_CANCELLED_MESSAGE = 'This purchase was cancelled; nothing was charged. Choose the leads again to buy them.';
/** Cancelling (or resuming) a purchase that was paid meanwhile. */
export const LEAD_PURCHASE_ALREADY_PAID_MESSAGE = 'This purchase is already paid';
/** Resuming a purchase whose reservation ended: its leads may be someone else's by now. */
export const LEAD_PURCHASE_ENDED_MESSAGE = 'This purchase has ended; its leads were released. Choose them again to buy them.';

/**
 * `GET /api/bulk-purchase-leads` (issue 22): the buyer's unpaid purchases that still hold leads,
 * newest first — My Orders shows each with Pay (`POST /api/bulk-purchase-leads/{orderId}/resume`,
 * the same payment as before) and Cancel (`POST /api/bulk-purchase-leads/{orderId}/cancel`, which
 * releases the leads at once). One that no longer holds any lead (they moved to a newer purchase
 * of the same buyer) is not listed and does not count towards MAX_UNPAID_LEAD_PURCHASES.
 */
export interface UnpaidLeadPurchase {
  orderId: string;
  /** Leads the purchase reserved; `heldLeadCount` of them it still holds. */
  leadCount: number;
  heldLeadCount: number;
  totalCents: number;
  createdAt: string;
  /** When the reservation ends if it is not paid. */
  reservedUntil: string;
}

export interface UnpaidLeadPurchasesResponse {
  purchases: UnpaidLeadPurchase[];
}

/** `POST /api/bulk-purchase-leads/{orderId}/cancel`: the purchase can no longer be paid and its leads are for sale again. */
export interface CancelLeadPurchaseResponse {
  orderId: string;
  status: 'cancelled';
  /** Leads that went back on the market. */
  releasedLeadCount: number;
}

/** The 409 answer when any lead could not be reserved (nothing was reserved then). */
export interface LeadsUnavailableResponse {
  error: typeof LEADS_UNAVAILABLE_MESSAGE;
  unavailableLeadIds: string[];
}

/* ------------------------------------------------ catalog → orders (internal) ---------- */

/** Leads of one age range in a lead order, at that range's price. */
const leadOrderLineSchema = z.object({
  ageRange: agedLeadAgeRangeSchema,
  count: z.number().int().positive(),
  unitPriceCents: z.number().int().positive(),
});
export type LeadOrderLine = z.infer<typeof leadOrderLineSchema>;

/**
 * `POST /api/internal/lead-orders` (orders service; never forwarded by the gateway): the
 * catalog has reserved leads for the buyer named by the signed identity and asks for the
 * payment. `orderId` is the reservation's id, so a retry gives back the same order. The orders
 * service recomputes the amount from the pricing table and refuses a mismatch.
 */
export const createLeadOrderBody = z.object({
  orderId: z.uuid(),
  lines: z.array(leadOrderLineSchema).min(1).max(AGED_LEAD_AGE_RANGES.length),
  amountCents: z.number().int().positive(),
});
export type CreateLeadOrderRequest = z.infer<typeof createLeadOrderBody>;

export interface CreateLeadOrderResponse {
  orderId: string;
  clientSecret: string;
  amountCents: number;
  leadCount: number;
  paymentProvider: PaymentProviderName;
}

/**
 * `POST /api/internal/lead-orders/{orderId}/cancel` (orders; issue 22): the buyer named by the
 * signed identity cancels their unpaid lead order, which can no longer be paid. 409 when it was
 * paid meanwhile, 404 for another buyer's.
 */
export interface CancelLeadOrderResponse {
  orderId: string;
  cancelledAt: string;
}

/* ------------------------------------------------------------- dashboard ---------- */

/** A training video the dashboard embeds (spec §2: 8 videos, 7 from one site and 1 from another). */
export interface TrainingVideo {
  title: string;
  /** An embeddable https address (a player page meant for an iframe). */
  embedUrl: string;
}

/** `GET /api/dashboard-config` (gateway, logged-in users). */
export interface DashboardConfigResponse {
  trainingVideos: TrainingVideo[];
}
