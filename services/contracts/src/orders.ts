import { z } from 'zod';
import {
  CURRENCY,
  PricingError,
  RINGCLOUD_PACKAGE_PREFIX,
  dollarsToCents,
  formatUsd,
  quotePackage,
  type PackageQuote,
} from './pricing';

/**
 * Bodies of the orders API (spec §7): the payment intent every checkout asks for, and the
 * sandbox card confirmation. The server prices every order from `pricing.ts`; the amount the
 * browser sends is only checked against it.
 */

/** Orders the orders service keeps: package checkouts, aged-lead purchases, call-transfer orders. */
const ORDER_KINDS = ['package', 'lead', 'transfer'] as const;
export const orderKindSchema = z.enum(ORDER_KINDS);
export type OrderKind = z.infer<typeof orderKindSchema>;

const ORDER_STATUSES = ['pending', 'paid', 'failed'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

const PAYMENT_PROVIDERS = ['sandbox', 'stripe'] as const;
export const paymentProviderSchema = z.enum(PAYMENT_PROVIDERS);
export type PaymentProviderName = z.infer<typeof paymentProviderSchema>;

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

const optionalText = (max: number, message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.string({ error: message }).trim().max(max, message).optional(),
  );

/** Billing details the card form collects; every field optional (a package checkout sends none). */
const billingDetailsSchema = z.object({
  name: optionalText(200, 'Billing name must be at most 200 characters'),
  email: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.string({ error: 'Invalid email address' }).trim().max(254, 'Invalid email address').pipe(z.email('Invalid email address')).optional(),
  ),
  phone: optionalText(40, 'Billing phone must be at most 40 characters'),
});
export type BillingDetails = z.infer<typeof billingDetailsSchema>;

/** An amount in dollars as the checkouts send it (number or numeric text), kept as cents. */
const amountInDollars = z
  .union([z.number(), z.string().trim().max(20, 'Amount must be a number in dollars').regex(/^\d+(\.\d{1,2})?$/, 'Amount must be a number in dollars')], {
    error: (issue) => (issue.input === undefined ? 'Amount is required' : 'Amount must be a number in dollars'),
  })
  .transform((v, ctx) => {
    const dollars = typeof v === 'number' ? v : Number(v);
    if (!Number.isFinite(dollars) || dollars <= 0) {
      ctx.addIssue({ code: 'custom', message: 'Amount must be greater than 0' });
      return z.NEVER;
    }
    try {
      return dollarsToCents(dollars);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: err instanceof Error ? err.message : 'Amount must be a number in dollars' });
      return z.NEVER;
    }
  });

/** A tier as the checkouts send it; absent means the special-pricing checkout (/checkout). */
const tierField = z
  .string({ error: 'Unknown package tier' })
  .trim()
  .max(50, 'Unknown package tier')
  .optional();

/** A count as the checkouts send it (number or digit text); the pricing table checks it. */
const countField = z
  .union([z.number(), z.string().max(20, 'Count must be a whole number'), z.null()], { error: 'Count must be a whole number' })
  .optional();

/**
 * `POST /api/create-payment-intent`, every variant of spec §7:
 * - special pricing: `{ amount, callCount }`
 * - high volume: `{ amount, callCount, tier: 'high-volume' }` (pricePerCall / volume are ignored)
 * - premium / enterprise / ultimate: `{ amount, callCount, tier }`
 * - the second brand: `{ amount, packageType: 'RingCloud <lead type>', calls, callCount: 1,
 *   tier: 'ringcloud', ageRange? }` — `calls` is the number of transfers or callbacks; Aged
 *   Leads come in a pack of 100 and need `ageRange`.
 * - WarmLine's own Call-Backs (the dashboard's Buy Call-backs, logged in only): `{ amount,
 *   callCount, tier: 'callbacks' }` — `callCount` call-backs at the default callback price.
 * Plus optional `billing` and `idempotencyKey` (also accepted as the Idempotency-Key header).
 *
 * The parsed value carries the server's quote; a count out of range, an unknown tier or an
 * amount that differs from the quote is an issue with a message a buyer can read.
 */
export const createPaymentIntentBody = z
  .object({
    amount: amountInDollars,
    callCount: countField,
    tier: tierField,
    packageType: z.string({ error: 'Package type must be text' }).trim().max(100, 'Package type must be at most 100 characters').optional(),
    calls: countField,
    ageRange: z.string({ error: 'Age range must be text' }).trim().max(50, 'Age range must be at most 50 characters').optional(),
    billing: billingDetailsSchema.optional(),
    idempotencyKey: z.uuid({ error: 'Idempotency key must be a UUID' }).optional(),
    /**
     * The second brand's Aged Leads: the states the buyer chose (their survey's working states,
     * as codes, names or the survey's 'FL, GA' text). The package is filled only from them
     * (issue 22); the orders service reads them into codes and refuses what is not a US state.
     */
    states: z
      .union(
        [
          z.string().max(1000, 'States must be at most 1000 characters'),
          z.array(z.string({ error: 'States must be state codes such as FL' }).max(100, 'States must be state codes such as FL')).max(60, 'At most 60 states'),
        ],
        { error: 'States must be state codes such as FL' },
      )
      .optional(),
    /** The second brand's one-time token from its survey answer: links the order to the new account. */
    checkoutToken: z.string({ error: 'Checkout token must be text' }).max(1000, 'Checkout token is too long').optional(),
  })
  .transform((body, ctx) => {
    const tier = body.tier === undefined || body.tier === '' || body.tier === 'standard' ? 'special' : body.tier;
    let leadType: string | undefined;
    if (tier === 'ringcloud') {
      if (!body.packageType?.startsWith(RINGCLOUD_PACKAGE_PREFIX)) {
        ctx.addIssue({
          code: 'custom',
          path: ['packageType'],
          message: `Package type must be '${RINGCLOUD_PACKAGE_PREFIX}' followed by a lead type`,
        });
        return z.NEVER;
      }
      leadType = body.packageType.slice(RINGCLOUD_PACKAGE_PREFIX.length).trim();
    }
    let quote: PackageQuote;
    try {
      quote = quotePackage({
        tier,
        count: tier === 'ringcloud' ? body.calls : body.callCount,
        ...(leadType !== undefined ? { leadType } : {}),
        ...(body.ageRange ? { ageRange: body.ageRange } : {}),
      });
    } catch (err) {
      if (!(err instanceof PricingError)) throw err;
      const countField = tier === 'ringcloud' ? 'calls' : 'callCount';
      const path = { tier: 'tier', count: countField, leadType: 'packageType', ageRange: 'ageRange', amount: 'amount' }[err.field];
      ctx.addIssue({ code: 'custom', path: [path], message: err.message });
      return z.NEVER;
    }
    if (body.amount !== quote.amountCents) {
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: `Amount does not match the price: expected ${formatUsd(quote.amountCents)}`,
      });
      return z.NEVER;
    }
    return {
      quote,
      states: body.states,
      billing: body.billing,
      idempotencyKey: body.idempotencyKey,
      checkoutToken: body.checkoutToken,
    };
  });
export type CreatePaymentIntentInput = z.input<typeof createPaymentIntentBody>;
export type CreatePaymentIntentRequest = z.output<typeof createPaymentIntentBody>;

export interface CreatePaymentIntentResponse {
  clientSecret: string;
  orderId: string;
  /** Dollars, as the checkouts send it. */
  amount: number;
  amountCents: number;
  currency: typeof CURRENCY;
  paymentProvider: PaymentProviderName;
  /**
   * A package bought without a session: the token that lets this browser attach the order, once
   * paid, to the account its buyer creates or logs into (`POST /api/orders/{id}/claim`, ADR 0022).
   * Absent when the order already has a buyer (a session or the RingCloud checkout token).
   */
  claimToken?: string;
}

/** `POST /api/orders/{id}/claim` (logged in): attaches a paid anonymous package order to the account. */
export const claimOrderBody = z.object({
  claimToken: z
    .string({ error: 'Claim token is required' })
    .trim()
    .min(1, 'Claim token is required')
    .max(300, 'Claim token is too long'),
});

export interface ClaimOrderResponse {
  orderId: string;
  /** Always true in a 200 answer: the order is now in the account's My Orders. */
  claimed: true;
}

/** `GET /api/config`: which card form the SPA shows. */
export interface PaymentConfigResponse {
  paymentProvider: PaymentProviderName;
  stripePublishableKey?: string;
}

/** The brand an order was sold under: the second brand's checkout (tier 'ringcloud') is RingCloud's. */
export type OrderBrand = 'WarmLine' | 'RingCloud';

/** What a transfer order asked for; only its agent (and admins) can read a transfer order's status. */
interface TransferOrderSummary {
  totalTransfers: number;
  transfersPerDay: number;
  states: string[];
  transferHours: string;
  /** The number the transfers ring. */
  transferPhone: string;
}

/**
 * `GET /api/orders/{id}/status`: what the success pages show. An order paid without a session is
 * readable by whoever holds its id, so the answer carries what was bought, never who bought it
 * (no billing name, e-mail, phone or card). Unknown or someone else's order: 404.
 */
export interface OrderStatusResponse {
  orderId: string;
  brand: OrderBrand;
  kind: OrderKind;
  status: OrderStatus;
  tier: string;
  count: number;
  unitPriceCents: number;
  amountCents: number;
  currency: string;
  description: string;
  createdAt: string;
  paidAt: string | null;
  failureMessage: string | null;
  /** Kind 'transfer' only: what the agent ordered; null for every other kind. */
  transfer: TransferOrderSummary | null;
  /** A RingCloud Aged Leads package only (issue 22): how it was filled; null for every other order. */
  leadPackage: LeadPackageDelivery | null;
}

/** How a RingCloud Aged Leads package was filled from stock (the leads themselves are in My Leads). */
export interface LeadPackageDelivery {
  /** Leads ordered (the pack's 100). */
  ordered: number;
  /** Leads delivered to My Leads; null until the catalog has filled the package (a moment after payment). */
  delivered: number | null;
  /** The only states they were taken from, as the buyer chose them; null: every state. */
  states: string[] | null;
}

export function orderBrandOf(tier: string): OrderBrand {
  return tier === 'ringcloud' ? 'RingCloud' : 'WarmLine';
}

/* ------------------------------------------------- sandbox card confirmation ---------- */

/** The Luhn checksum every card number satisfies. */
function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

const wholeNumber = (message: string) =>
  z
    .union([z.number(), z.string().trim().max(10, message).regex(/^\d+$/, message)], { error: message })
    .transform((v) => Number(v))
    .refine((n) => Number.isInteger(n), message);

/**
 * The sandbox card form's body (`POST /api/payments/sandbox/confirm`), with Stripe's own
 * wording for a card that cannot be charged at all. Declines (a well-formed card the bank
 * refuses) are decided by the server, not here.
 */
export const sandboxConfirmBody = z
  .object({
    clientSecret: z.string({ error: 'Payment session is missing' }).trim().min(1, 'Payment session is missing').max(200, 'Payment session is invalid'),
    cardNumber: z
      .string({ error: 'Your card number is incomplete.' })
      .max(40, 'Your card number is invalid.')
      .transform((v) => v.replace(/[\s-]/g, ''))
      .superRefine((digits, ctx) => {
        if (!/^\d*$/.test(digits)) ctx.addIssue({ code: 'custom', message: 'Your card number is invalid.' });
        else if (digits.length < 13) ctx.addIssue({ code: 'custom', message: 'Your card number is incomplete.' });
        else if (digits.length > 19 || !passesLuhn(digits)) ctx.addIssue({ code: 'custom', message: 'Your card number is invalid.' });
      }),
    expMonth: wholeNumber("Your card's expiration date is incomplete.").refine(
      (m) => m >= 1 && m <= 12,
      "Your card's expiration month is invalid.",
    ),
    expYear: wholeNumber("Your card's expiration date is incomplete.").transform((y) => (y < 100 ? 2000 + y : y)),
    cvc: z
      .string({ error: "Your card's security code is incomplete." })
      .trim()
      .max(10, "Your card's security code is invalid.")
      .superRefine((cvc, ctx) => {
        if (!/^\d*$/.test(cvc)) ctx.addIssue({ code: 'custom', message: "Your card's security code is invalid." });
        else if (cvc.length < 3) ctx.addIssue({ code: 'custom', message: "Your card's security code is incomplete." });
        else if (cvc.length > 4) ctx.addIssue({ code: 'custom', message: "Your card's security code is invalid." });
      }),
    billing: billingDetailsSchema.optional(),
  })
  .superRefine((card, ctx) => {
    // A card is valid through the last day of its expiry month.
    const now = new Date();
    const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
    if (card.expYear * 12 + (card.expMonth - 1) < thisMonth) {
      ctx.addIssue({ code: 'custom', path: ['expYear'], message: "Your card's expiration date is in the past." });
    }
    if (card.expYear > now.getUTCFullYear() + 50) {
      ctx.addIssue({ code: 'custom', path: ['expYear'], message: "Your card's expiration year is invalid." });
    }
  });
export type SandboxConfirmInput = z.input<typeof sandboxConfirmBody>;
export type SandboxConfirmRequest = z.output<typeof sandboxConfirmBody>;

export interface SandboxConfirmResponse {
  status: 'succeeded';
  orderId: string;
  paymentIntentId: string;
}
