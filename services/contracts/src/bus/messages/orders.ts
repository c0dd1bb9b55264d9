import { z } from 'zod';
import { orderKindSchema, paymentProviderSchema } from '../../orders';
import { AGED_LEAD_AGE_RANGES } from '../../pricing';

/**
 * Orders and payments: orders, payments, refunds, receipts, and the settlements the catalog asks of orders.
 * Registered, with every other context's messages, in ../messages.ts.
 */

/**
 * What every order event says about the order: an analyst's revenue count, never the buyer's
 * contact or card data. Amounts are integer cents.
 */
const orderFacts = {
  orderId: z.uuid(),
  kind: orderKindSchema,
  /** The package tier ('premium', 'high-volume', 'ringcloud', …); null for kinds without tiers. */
  tier: z.string().min(1).nullable(),
  count: z.number().int().positive(),
  unitPriceCents: z.number().int().nonnegative(),
  amountCents: z.number().int().nonnegative(),
  currency: z.literal('usd'),
  /** 'Premium Volume Package: 60 transfers × $37.00' */
  description: z.string().min(1),
  /** Null when an anonymous visitor bought from a public checkout. */
  buyerUserId: z.uuid().nullable(),
  /**
   * Whether the buyer left an address for the receipt (the address stays with orders and
   * travels only in the e-mail command). Absent on events written before it existed.
   */
  hasBillingEmail: z.boolean().optional(),
  /**
   * The second brand's product ('Live Transfers', 'Call-Backs', 'Aged Leads'), and for Aged Leads
   * the age range its 100 leads are filled from. Absent for other orders and on events written
   * before they travelled.
   */
  leadType: z.string().min(1).max(50).optional(),
  ageRange: z.enum(AGED_LEAD_AGE_RANGES).optional(),
  /**
   * A RingCloud Aged Leads package: the only states (2-letter codes) its leads may come from, as
   * its buyer chose them (issue 22). Absent: every state (none given, or written before).
   */
  states: z.array(z.string().length(2)).min(1).max(60).optional(),
};

const orderCreatedV1 = z.object(orderFacts);

const paymentSucceededV1 = z.object({
  ...orderFacts,
  provider: paymentProviderSchema,
  paymentIntentId: z.string().min(1),
  paidAt: z.iso.datetime({ offset: true }),
});

const paymentFailedV1 = z.object({
  ...orderFacts,
  provider: paymentProviderSchema,
  paymentIntentId: z.string().min(1),
  /** The provider's reason for the buyer, e.g. 'Your card was declined.' */
  failureMessage: z.string().min(1),
  /** The provider's code, e.g. 'card_declined' / 'insufficient_funds', when it gave one. */
  failureCode: z.string().min(1).optional(),
});

/**
 * An order paid without an account was claimed (ADR 0022): the buyer logged in with the claim
 * token their checkout received, and the order is now theirs. Published in the transaction that
 * sets the buyer, once per order (a repeated claim by the same account changes nothing). The
 * catalog credits a claimed Call-Backs order as it credits one paid with a buyer (ADR 0020).
 */
const orderClaimedV1 = z.object({
  ...orderFacts,
  buyerUserId: z.uuid(),
  claimedAt: z.iso.datetime({ offset: true }),
});

/**
 * A call-transfer order was paid (spec §2 Buy Call Transfers): the volume and states bought.
 * Published with `payment.succeeded` in the same transaction. The agent's contact, the number to
 * transfer to and the hours they typed (free text, issue 25) stay with orders; the e-mails get
 * them from `email.transfer_order_paid`.
 */
const transferOrderPaidV1 = z.object({
  orderId: z.uuid(),
  buyerUserId: z.uuid(),
  totalTransfers: z.number().int().positive(),
  transfersPerDay: z.number().int().positive(),
  /** US state codes, e.g. ['TX', 'OK']. */
  selectedStates: z.array(z.string().length(2)).min(1),
  unitPriceCents: z.number().int().nonnegative(),
  amountCents: z.number().int().positive(),
  currency: z.literal('usd'),
  paidAt: z.iso.datetime({ offset: true }),
});

/**
 * A package or lead order was paid: the buyer's receipt (when they gave a billing e-mail) and
 * the sales team's notice. The payment's facts plus where the receipt goes.
 */
const emailOrderPaidV1 = paymentSucceededV1.omit({ hasBillingEmail: true }).extend({
  billingEmail: z.email().optional(),
});

/**
 * A call-transfer order was paid: the agent's confirmation and the operations team's notice,
 * with the agent's contact and the phone the transfers ring.
 */
const emailTransferOrderPaidV1 = transferOrderPaidV1.extend({
  /** The hours the agent typed, e.g. '9am-5pm CST'. */
  transferHours: z.string().min(1),
  agent: z.object({ firstName: z.string(), lastName: z.string(), email: z.email(), phone: z.string() }),
  /** The phone the transfers are delivered to. */
  transferNumber: z.string().min(1),
});

/**
 * An order's payment was given back, whole or in part (issue 12): by an admin from All Orders,
 * automatically for aged leads sold to someone else before a late payment, on a paid transfer
 * order cancelled, or in Stripe's dashboard (`charge.refunded`). Amounts in cents; refunded money
 * never counts as revenue. Thin: no buyer details, and not the reason (free text an admin typed,
 * issue 25): it stays in orders' refunds table and reaches the buyer in `email.refund_issued`.
 */
const paymentRefundedV1 = z.object({
  orderId: z.uuid(),
  /** What was refunded this time, and the order's refunded total after it. */
  amountCents: z.number().int().positive(),
  refundedTotalCents: z.number().int().positive(),
  currency: z.literal('usd'),
  /** Who started it: an admin, the system (late payment, cancellation) or the payment provider. */
  initiatedBy: z.enum(['admin', 'system', 'provider']),
  refundedAt: z.iso.datetime(),
  /** The idempotency key the refund was asked with, when there was one (issue 24: the catalog recognises a lead return's refund by it). */
  refundKey: z.string().min(1).max(200).optional(),
});

/** Tell an agent their transfer order was completed or cancelled (and, if paid, refunded). */
const emailTransferOrderStatusV1 = z.object({
  to: z.email(),
  firstName: z.string(),
  orderId: z.uuid(),
  status: z.enum(['completed', 'cancelled']),
  totalTransfers: z.number().int().positive(),
  reason: z.string().max(500).optional(),
  /** The admin's note to the agent (issue 22), quoted in the e-mail. */
  note: z.string().max(500).optional(),
  /** What goes back to the card when a paid order is cancelled. */
  refundedCents: z.number().int().positive().optional(),
  changedAt: z.iso.datetime(),
});

/** Tell a buyer money was given back on their order (an admin's refund). */
const emailRefundIssuedV1 = z.object({
  to: z.email(),
  name: z.string(),
  orderId: z.uuid(),
  description: z.string(),
  amountCents: z.number().int().positive(),
  refundedTotalCents: z.number().int().positive(),
  orderAmountCents: z.number().int().positive(),
  reason: z.string().min(1).max(500),
  refundedAt: z.iso.datetime(),
});

/**
 * One aged lead of a lead order, for the buyer's receipt. A lead delivered to the buyer is theirs:
 * it carries the full name and the contact details they now own (issue 22), which is why these
 * travel only in commands (never on the events exchange analysts tap). A lead not delivered was
 * never the buyer's to contact: masked as the market showed it, no contact details. Messages
 * written before issue 22 carry every lead masked and without contact details.
 */
const leadOrderLeadV1 = z.object({
  leadId: z.uuid(),
  /** Delivered: the full name ('John Smith'); undelivered: masked as in the market ('John SmiXX'). */
  name: z.string().max(200),
  /** Delivered leads only: '(512) 555-0134'. */
  phone: z.string().max(40).optional(),
  /** Delivered leads only; null when the lead has none. */
  email: z.string().max(320).nullable().optional(),
  /** Delivered leads only; five digits, null when the lead's source gave none. */
  zip: z.string().max(10).nullable().optional(),
  state: z.string().max(20),
  /** Its age range when bought: '30-60', '60-90' or '90-180' (days). */
  ageRange: z.string().max(20),
  priceCents: z.number().int().nonnegative(),
});

export type LeadOrderLead = z.infer<typeof leadOrderLeadV1>;

/**
 * The catalog has settled a paid lead order (issue 12): which leads the buyer got and which had
 * been sold to someone else before a late payment. Orders refunds those (`refundDueCents`,
 * initiated by the system, once per order) and sends the buyer's receipt listing the leads.
 */
const leadOrderSettleV1 = z.object({
  orderId: z.uuid(),
  buyerUserId: z.uuid(),
  delivered: z.array(leadOrderLeadV1).max(500),
  undelivered: z.array(leadOrderLeadV1).max(500),
  refundDueCents: z.number().int().nonnegative(),
  settledAt: z.iso.datetime({ offset: true }),
});

/**
 * The catalog has filled a paid RingCloud Aged Leads package (100 leads of one age range) from
 * stock (issue 13): the leads sold to the buyer, and what the leads it could not deliver cost.
 * Orders refunds exactly `refundDueCents` (initiated by the system, once per order) and sends
 * the receipt listing the leads. `buyerUserId` is null when the order has no account to sell
 * to: nothing is delivered and the whole order is due back.
 */
const leadPackageSettleV1 = z.object({
  orderId: z.uuid(),
  buyerUserId: z.uuid().nullable(),
  delivered: z.array(leadOrderLeadV1).max(500),
  refundDueCents: z.number().int().nonnegative(),
  settledAt: z.iso.datetime({ offset: true }),
});

/**
 * The buyer's receipt of an aged-lead order: the leads bought and, when some had been sold to
 * someone else before the payment arrived, which ones and what was refunded for them.
 */
const emailLeadsReceiptV1 = z.object({
  to: z.email(),
  name: z.string(),
  orderId: z.uuid(),
  paidCents: z.number().int().nonnegative(),
  paidAt: z.iso.datetime({ offset: true }),
  delivered: z.array(leadOrderLeadV1).max(500),
  undelivered: z.array(leadOrderLeadV1).max(500),
  /** What was refunded for the undelivered leads (0 when all were delivered). */
  refundedCents: z.number().int().nonnegative(),
  /** The brand the leads were bought under (absent: WarmLine; RingCloud's aged-lead packs are RingCloud's). */
  brand: z.enum(['WarmLine', 'RingCloud']).optional(),
  /**
   * A RingCloud Aged Leads package (issue 22): how many leads were ordered, the states they were
   * taken from (null: every state) and what is refunded for those not in stock there.
   */
  leadPackage: z
    .object({
      ordered: z.number().int().positive(),
      states: z.array(z.string().length(2)).max(60).nullable(),
      refundDueCents: z.number().int().nonnegative(),
    })
    .optional(),
});

/** Tell the team a buyer disputed a payment with their bank (Stripe's charge.dispute.created). */
const emailDisputeOpenedV1 = z.object({
  orderId: z.uuid(),
  description: z.string(),
  orderAmountCents: z.number().int().nonnegative(),
  disputedCents: z.number().int().nonnegative(),
  /** Stripe's reason, e.g. 'fraudulent', 'product_not_received'. */
  reason: z.string().max(100),
  disputeId: z.string().min(1).max(200),
  buyerName: z.string().max(200).nullable(),
  buyerEmail: z.email().nullable(),
  /** When evidence must reach Stripe, when it says. */
  evidenceDueBy: z.iso.datetime({ offset: true }).nullable(),
  openedAt: z.iso.datetime({ offset: true }),
});

/**
 * An accepted lead return (issue 24, ADR 0034): the catalog asks orders to refund exactly the
 * lead's price on the order that bought it, initiated by the system, once per lead whatever the
 * redeliveries (the idempotency key is `lead-return:<leadId>`), never more than the order has left.
 */
const leadReturnRefundV1 = z.object({
  returnId: z.uuid(),
  leadId: z.uuid(),
  orderId: z.uuid(),
  buyerUserId: z.uuid(),
  amountCents: z.number().int().positive(),
  reasonLabel: z.string().min(1).max(200),
  acceptedAt: z.iso.datetime({ offset: true }),
});

export const orderEvents = {
  'order.created': { 1: orderCreatedV1 },
  'payment.succeeded': { 1: paymentSucceededV1 },
  'payment.failed': { 1: paymentFailedV1 },
  'order.claimed': { 1: orderClaimedV1 },
  'transfer_order.paid': { 1: transferOrderPaidV1 },
  'payment.refunded': { 1: paymentRefundedV1 },
} as const;

export const orderCommands = {
  'email.order_paid': { 1: emailOrderPaidV1 },
  'email.transfer_order_paid': { 1: emailTransferOrderPaidV1 },
  'email.transfer_order_status': { 1: emailTransferOrderStatusV1 },
  'email.refund_issued': { 1: emailRefundIssuedV1 },
  'email.leads_receipt': { 1: emailLeadsReceiptV1 },
  'email.dispute_opened': { 1: emailDisputeOpenedV1 },
  'lead_order.settle': { 1: leadOrderSettleV1 },
  'lead_package.settle': { 1: leadPackageSettleV1 },
  'lead_return.refund': { 1: leadReturnRefundV1 },
} as const;
