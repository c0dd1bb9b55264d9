import { z } from 'zod';
import { orderKindSchema, paymentProviderSchema } from './orders';
import { AGED_LEAD_AGE_RANGES } from './pricing';
import { SURVEY_FUNNEL_IDS } from './surveys';

/**
 * The registry of every event (published on `warmline.events`, routing key = type) and
 * command (sent on `warmline.commands`, routing key = type). Each entry is versioned; a
 * consumer parses `data` with the schema of the version it receives.
 *
 * Events are past-tense facts with thin payloads: ids and the business facts analysts count
 * (amounts, counts, states, product, status), never names, e-mails, usernames or phone numbers
 * (those stay with their owner; test/thin-events.test.ts holds every event to it), and never
 * passwords, tokens or card data.
 *
 * Commands are imperatives to one worker. The `email.*` commands carry what one kind of e-mail
 * needs to reach and address a person and the facts it shows; the notifications worker writes
 * every body. Commands may carry secrets (a reset link), which is why they never go to the
 * events exchange that analysts tap.
 */

/** An account was created (by a survey). The username and e-mail stay with the gateway. */
const accountRegisteredV1 = z.object({
  userId: z.uuid(),
  /** 'Insurance Agent' or 'Agency Owner'. */
  role: z.string(),
});

/**
 * A survey was submitted and its account created (one of the funnels of spec §2). Thin: the
 * answers stay in the gateway; the sales notice is an e-mail command sent in the same transaction.
 */
const surveySubmittedV1 = z.object({
  responseId: z.uuid(),
  userId: z.uuid(),
  /** 'WarmLine' or 'RingCloud'. */
  brand: z.string().min(1),
  /** 'main' (marker Survey Form), 'ringcloud' (marker RingCloud) or 'referral' (a salesperson's campaign). */
  funnel: z.enum(SURVEY_FUNNEL_IDS),
  /** The referring salesperson of a referral survey (the gateway owns their name); null otherwise. */
  salespersonId: z.uuid().nullable(),
  leadType: z.string().min(1),
});

const userDeletedV1 = z.object({ userId: z.uuid(), deletedBy: z.uuid() });

const userPriceChangedV1 = z.object({
  userId: z.uuid(),
  liveTransferPrice: z.string(),
  changedBy: z.uuid(),
});

const passwordResetCompletedV1 = z.object({ userId: z.uuid() });

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
 * Aged leads were sold to a buyer: the catalog marked them sold after the buyer's lead order
 * was paid. Thin: ids, counts and money, never the leads' contact details. When the order was
 * paid after its reservation ended and some leads had meanwhile gone to someone else, those
 * are `undeliveredLeadIds` and `refundDueCents` is what the buyer paid for them. For a RingCloud
 * Aged Leads package short of stock no lead is named: `refundDueCents` is the missing leads' price.
 */
const leadsPurchasedV1 = z.object({
  orderId: z.uuid(),
  buyerUserId: z.uuid(),
  leadIds: z.array(z.uuid()).max(500),
  leadCount: z.number().int().nonnegative(),
  amountCents: z.number().int().nonnegative(),
  purchasedAt: z.iso.datetime({ offset: true }),
  undeliveredLeadIds: z.array(z.uuid()).max(500),
  refundDueCents: z.number().int().nonnegative(),
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

/* ------------------------------------------------------------------ commands ---------- */

/**
 * One rendered e-mail, sent once by the notifications worker (its email_log). Only the worker
 * writes these, from the typed `email.*` commands below: it is the one place e-mail bodies are
 * written.
 */
const emailSendV1 = z.object({
  to: z.email(),
  subject: z.string().min(1),
  text: z.string(),
  html: z.string().optional(),
  /** A short name of the message kind, for the e-mail log (e.g. 'password-reset'). */
  template: z.string().min(1),
  /** The body holds a secret (a reset link): the outbox row is emptied once the broker has it. */
  secret: z.boolean().optional(),
  /** Whose name it is sent in (absent: WarmLine): RingCloud's come from RINGCLOUD_MAIL_FROM, the rest from MAIL_FROM. */
  brand: z.enum(['WarmLine', 'RingCloud']).optional(),
});

/** Tell a user how to choose a new password. Holds the reset link: a secret (see carriesSecret). */
const emailPasswordResetV1 = z.object({
  to: z.email(),
  /** How the mail greets the user: their first name, else their username. */
  name: z.string().min(1),
  /** The username to log in with, reminded in the mail (absent in commands written before it travelled). */
  username: z.string().min(1).optional(),
  resetUrl: z.url(),
  expiresInMinutes: z.number().int().positive(),
});

/**
 * What changed in a user's sign-in (issue 22 item 12, docs/adr/0030): their password was reset
 * with an e-mailed link, changed by themselves or by an admin, or their two-factor turned on or
 * off. The e-mail tells them when, and what to do if it was not them.
 */
const ACCOUNT_SECURITY_CHANGES = ['password_reset', 'password_changed', 'password_set_by_admin', 'two_factor_on', 'two_factor_off', 'two_factor_reset_by_admin'] as const;
export type AccountSecurityChange = (typeof ACCOUNT_SECURITY_CHANGES)[number];

/** Tell a user that their password or two-factor changed (never the password, never a code). */
const emailAccountSecurityV1 = z.object({
  to: z.email(),
  /** How the mail greets the user: their first name, else their username. */
  name: z.string().min(1),
  username: z.string().min(1),
  change: z.enum(ACCOUNT_SECURITY_CHANGES),
  /** When it happened (ISO 8601). */
  changedAt: z.iso.datetime({ offset: true }),
});

/** Welcome a user whose account a survey created, with how to log in. */
const emailWelcomeV1 = z.object({
  to: z.email(),
  firstName: z.string(),
  username: z.string().min(1),
  loginUrl: z.url(),
  /** The brand of the survey they signed up through (absent: WarmLine); the mail is in its name. */
  brand: z.enum(['WarmLine', 'RingCloud']).optional(),
});

/**
 * Tell the sales team of a survey sign-up, with everything the agent answered (not the
 * password), so someone contacts them within 24 hours.
 */
const emailSurveySalesNoticeV1 = z.object({
  /** The sales team's inbox. */
  to: z.email(),
  responseId: z.uuid(),
  userId: z.uuid(),
  funnel: z.enum(SURVEY_FUNNEL_IDS),
  /** The referring salesperson of a referral survey. */
  salesperson: z.object({ slug: z.string().min(1), displayName: z.string().min(1) }).optional(),
  agent: z.object({
    firstName: z.string(),
    lastName: z.string(),
    agencyName: z.string(),
    role: z.string(),
    phone: z.string(),
    email: z.email(),
    username: z.string(),
  }),
  answers: z.object({
    leadType: z.string().min(1),
    workingStates: z.string(),
    totalTransfers: z.number().int().optional(),
    transfersPerDay: z.number().int().optional(),
    callsPerDay: z.number().int().optional(),
    transferHours: z.string().optional(),
    totalCallbacks: z.number().int().optional(),
    callbackPreference: z.string().optional(),
    ageRange: z.string().optional(),
    timezone: z.string().optional(),
  }),
  /** What the answers price to (the second brand's and referral funnels); null otherwise. */
  estimatedOrderCents: z.number().int().nonnegative().nullable(),
});

/** Tell the recruiting team that an agent asked for help recruiting agents (dashboard). */
const emailRecruitingRequestV1 = z.object({
  /** The recruiting team's inbox. */
  to: z.email(),
  requestId: z.uuid(),
  receivedAt: z.iso.datetime({ offset: true }),
  agentsNeeded: z.number().int().positive(),
  needs: z.string(),
  agent: z.object({
    userId: z.uuid(),
    firstName: z.string(),
    lastName: z.string(),
    agencyName: z.string(),
    username: z.string(),
    /** Where the agent asked to be answered (the form's address, not necessarily the account's). */
    email: z.email(),
    phone: z.string(),
  }),
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

/**
 * An aged-lead import moved on (issue 13): published by the importer after each committed batch
 * and when the import ends. Counts only, never rows.
 */
const importProgressV1 = z.object({
  importId: z.uuid(),
  status: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
  rowsTotal: z.number().int().nonnegative(),
  rowsRead: z.number().int().nonnegative(),
  rowsImported: z.number().int().nonnegative(),
  rowsRejected: z.number().int().nonnegative(),
  rowsDuplicate: z.number().int().nonnegative(),
  at: z.iso.datetime({ offset: true }),
});

/** An aged-lead import ended (done, failed or cancelled): once per import, counts, not rows. */
const leadsImportedV1 = z.object({
  importId: z.uuid(),
  status: z.enum(['done', 'failed', 'cancelled']),
  rowsRead: z.number().int().nonnegative(),
  rowsImported: z.number().int().nonnegative(),
  rowsRejected: z.number().int().nonnegative(),
  rowsDuplicate: z.number().int().nonnegative(),
  startedByUserId: z.uuid(),
  finishedAt: z.iso.datetime({ offset: true }),
});

/** Unsold aged leads were taken off sale: an import undone, or a phone that opted out. */
const leadsWithdrawnV1 = z.object({
  reason: z.enum(['import-undone', 'suppressed']),
  /** The import undone, when that is why. */
  importId: z.uuid().optional(),
  leadCount: z.number().int().nonnegative(),
  withdrawnAt: z.iso.datetime({ offset: true }),
});

/** A partner applied (issue 14). Thin: the application's id and business facts, no contact details. */
const partnerAppliedV1 = z.object({
  applicationId: z.uuid(),
  businessType: z.string().min(1).max(100),
  servicesInterested: z.array(z.string().max(100)).max(20),
  documentCount: z.number().int().nonnegative(),
  appliedAt: z.iso.datetime({ offset: true }),
});

/** An admin moved a partner application (pending, approved, rejected). */
const partnerStatusChangedV1 = z.object({
  applicationId: z.uuid(),
  from: z.enum(['pending', 'approved', 'rejected']),
  to: z.enum(['pending', 'approved', 'rejected']),
  changedByUserId: z.uuid(),
  changedAt: z.iso.datetime({ offset: true }),
});

/**
 * A vendor's call arrived (issue 15). Thin: ids and the facts analysts count, never the
 * prospect's name, phone or transcript (those travel to the catalog in callback_opportunity.create).
 */
const callbackReceivedV1 = z.object({
  callbackId: z.uuid(),
  vendorKeyId: z.uuid(),
  /** The vendor's call_outcome as sent (lower-cased); null when absent. */
  outcome: z.string().max(50).nullable(),
  /** What the call becomes: an opportunity, a suppressed phone, or a stored call only. */
  disposition: z.enum(['opportunity', 'suppress', 'stored']),
  /** A 2-letter code when the vendor sent one that reads as a state; null otherwise. */
  state: z.string().length(2).nullable(),
  leadQuality: z.string().max(50).nullable(),
  receivedAt: z.iso.datetime({ offset: true }),
});

/** A callback opportunity went to an agent (automatically, or by an admin's hand). */
const callbackAssignedV1 = z.object({
  opportunityId: z.uuid(),
  /** The vendor call it came from; null for CSV and manual opportunities. */
  callbackId: z.uuid().nullable(),
  agentUserId: z.uuid(),
  state: z.string().length(2),
  source: z.enum(['vendor', 'csv', 'manual']),
  priceCents: z.number().int().nonnegative(),
  by: z.enum(['automatic', 'admin']),
  /** What the agent has left to receive after this one. */
  balanceLeft: z.number().int().nonnegative(),
  assignedAt: z.iso.datetime({ offset: true }),
});

/**
 * A live transfer was routed (issue 23): the vendor asked, an agent was chosen and their slot
 * reserved until `expiresAt`. Thin: ids, the prospect's state, never names or phones.
 */
const transferRoutedV1 = z.object({
  transferId: z.uuid(),
  agentUserId: z.uuid(),
  vendorKeyId: z.uuid(),
  state: z.string().length(2),
  leadType: z.string().max(100).nullable(),
  routedAt: z.iso.datetime({ offset: true }),
  expiresAt: z.iso.datetime({ offset: true }),
});

/**
 * A routed transfer was settled by the vendor's outcome: charged (more than 120 connected
 * seconds, one transfer at its credit's price), buffer-protected, not connected, or unbilled
 * (connected longer but nothing left to charge). Thin: no names or phones.
 */
const transferCompletedV1 = z.object({
  transferId: z.uuid(),
  agentUserId: z.uuid(),
  status: z.enum(['not_connected', 'buffer_protected', 'charged', 'unbilled']),
  connected: z.boolean(),
  charged: z.boolean(),
  chargedCents: z.number().int().nonnegative(),
  durationSeconds: z.number().int().nonnegative(),
  state: z.string().length(2),
  completedAt: z.iso.datetime({ offset: true }),
});

/** An agent's dispute of a charged transfer was decided, at once from the records or by an admin. */
const transferDisputeDecidedV1 = z.object({
  disputeId: z.uuid(),
  transferId: z.uuid(),
  agentUserId: z.uuid(),
  reason: z.enum(['wrong_state', 'out_of_hours', 'duplicate', 'wrong_number', 'not_shopping', 'call_dropped']),
  decision: z.enum(['accepted', 'refused']),
  by: z.enum(['automatic', 'admin']),
  creditedCents: z.number().int().nonnegative(),
  decidedAt: z.iso.datetime({ offset: true }),
});

export const events = {
  'account.registered': { 1: accountRegisteredV1 },
  'survey.submitted': { 1: surveySubmittedV1 },
  'user.deleted': { 1: userDeletedV1 },
  'user.price_changed': { 1: userPriceChangedV1 },
  'password_reset.completed': { 1: passwordResetCompletedV1 },
  'order.created': { 1: orderCreatedV1 },
  'payment.succeeded': { 1: paymentSucceededV1 },
  'payment.failed': { 1: paymentFailedV1 },
  'order.claimed': { 1: orderClaimedV1 },
  'leads.purchased': { 1: leadsPurchasedV1 },
  'transfer_order.paid': { 1: transferOrderPaidV1 },
  'payment.refunded': { 1: paymentRefundedV1 },
  'import.progress': { 1: importProgressV1 },
  'leads.imported': { 1: leadsImportedV1 },
  'leads.withdrawn': { 1: leadsWithdrawnV1 },
  'partner.applied': { 1: partnerAppliedV1 },
  'partner.status_changed': { 1: partnerStatusChangedV1 },
  'callback.received': { 1: callbackReceivedV1 },
  'callback.assigned': { 1: callbackAssignedV1 },
  'transfer.routed': { 1: transferRoutedV1 },
  'transfer.completed': { 1: transferCompletedV1 },
  'transfer_dispute.decided': { 1: transferDisputeDecidedV1 },
} as const;

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
 * Record one admin action in the audit log (issue 12). The gateway stores these (its own admin
 * actions it writes directly, in the same transaction); other services send this command from
 * their outbox in the transaction of the action, so the log is one list. Never editable.
 */
const auditRecordV1 = z.object({
  /** The admin who acted (a user id), and their username at the time. */
  actorId: z.uuid(),
  actorUsername: z.string().min(1).max(200),
  /** What was done, dotted lower case: 'user.price_changed', 'transfer_order.status_changed', 'order.refunded', 'campaign.created', ... */
  action: z.string().regex(/^[a-z_]+(\.[a-z_]+)+$/).max(100),
  /** What it was done to. */
  subjectType: z.string().min(1).max(50),
  subjectId: z.string().min(1).max(200),
  /** A human label of the subject at the time, e.g. 'Dana Cole (dana@example.com)'. */
  subjectLabel: z.string().max(300).optional(),
  /** The values before and after (only the fields that changed; never a password or secret). */
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  reason: z.string().max(500).optional(),
  /** When the action happened (not when the command arrived). */
  at: z.iso.datetime(),
});

/** Run an aged-lead import whose file is stored (catalog → its importer worker). */
const importRunV1 = z.object({ importId: z.uuid() });

/** Load an uploaded national DNC registry file (issue 24): the importer streams it and swaps it in. */
const dncRegistryLoadV1 = z.object({ uploadId: z.uuid() });

/**
 * Tell a buyer to stop contacting a lead they bought: its phone opted out (the suppression
 * list). A command, not an event: it carries the lead's name and phone for the e-mail.
 */
const emailLeadOptOutV1 = z
  .object({
    to: z.email(),
    name: z.string(),
    leads: z
      .array(z.object({ leadId: z.uuid(), name: z.string().max(200), phone: z.string().max(20), purchasedAt: z.iso.datetime({ offset: true }) }))
      .max(100),
    /** Issue 22: call-backs delivered to the agent with the phone (absent from older notices). */
    callbacks: z
      .array(z.object({ opportunityId: z.uuid(), name: z.string().max(201), phone: z.string().max(20), deliveredAt: z.iso.datetime({ offset: true }) }))
      .max(100)
      .optional(),
    /** Issue 24: live transfers of the phone the agent received (the transfers service's notice). */
    transfers: z
      .array(z.object({ transferId: z.uuid(), name: z.string().max(201), phone: z.string().max(20), routedAt: z.iso.datetime({ offset: true }) }))
      .max(100)
      .optional(),
    reason: z.string().max(500),
    at: z.iso.datetime({ offset: true }),
  })
  .refine(
    (notice) => notice.leads.length + (notice.callbacks?.length ?? 0) + (notice.transfers?.length ?? 0) > 0,
    'A notice names at least one lead, call-back or transfer',
  );

/**
 * Tell one buyer of a suppressed phone's leads to stop contacting it (catalog → itself). The
 * suppression commits without waiting for the gateway; this command then looks up the buyer's
 * e-mail there, with the suppressing admin's identity, and writes email.lead_opt_out. A command,
 * not an event: it carries the phone.
 */
const leadSuppressionNotifyBuyerV1 = z.object({
  buyerUserId: z.uuid(),
  /** Ten digits. */
  phone: z.string().regex(/^[2-9]\d{9}$/),
  reason: z.string().max(500),
  /** The admin who suppressed the phone: the gateway answers them about any user. */
  suppressedBy: z.object({ userId: z.uuid(), username: z.string().min(1).max(200) }),
  suppressedAt: z.iso.datetime({ offset: true }),
});

/** Thank an applicant: their partner application arrived; review within 48 hours. */
const emailPartnerApplicationReceivedV1 = z.object({
  to: z.email(),
  contactName: z.string().max(200),
  businessName: z.string().max(200),
  applicationId: z.uuid(),
  appliedAt: z.iso.datetime({ offset: true }),
});

/** Tell the partnerships inbox about a new application: every answer and the documents' names. */
const emailPartnerApplicationNoticeV1 = z.object({
  applicationId: z.uuid(),
  answers: z.object({
    businessName: z.string().max(200),
    contactName: z.string().max(200),
    email: z.string().max(254),
    phone: z.string().max(30),
    website: z.string().max(500),
    businessType: z.string().max(100),
    experienceYears: z.string().max(100),
    monthlyVolume: z.string().max(100),
    servicesInterested: z.array(z.string().max(100)).max(20),
    targetMarkets: z.string().max(1000),
    businessDescription: z.string().max(5000),
    whyPartner: z.string().max(5000),
  }),
  documents: z.array(z.object({ originalName: z.string().max(300), size: z.number().int().nonnegative(), contentType: z.string().max(200) })).max(5),
  appliedAt: z.iso.datetime({ offset: true }),
});

/** Tell an applicant their application was approved (next steps) or rejected (a polite no). */
const emailPartnerStatusChangedV1 = z.object({
  to: z.email(),
  contactName: z.string().max(200),
  businessName: z.string().max(200),
  applicationId: z.uuid(),
  status: z.enum(['pending', 'approved', 'rejected']),
  /** The admin's note to the applicant (issue 22), quoted in the e-mail. */
  note: z.string().max(500).optional(),
  changedAt: z.iso.datetime({ offset: true }),
});

/**
 * A vendor's call that asked for a call-back becomes a callback opportunity (ingestion → catalog).
 * A command, not an event: it carries the prospect's name, phone and transcript.
 */
const callbackOpportunityCreateV1 = z.object({
  callbackId: z.uuid(),
  vendorKeyId: z.uuid(),
  vendorName: z.string().min(1).max(100),
  firstName: z.string().min(1).max(100),
  lastName: z.string().min(1).max(100),
  /** 10 US digits. */
  phone: z.string().regex(/^\d{10}$/),
  /** As the vendor sent it (a code or a state's name); null when absent. */
  state: z.string().max(50).nullable(),
  transcript: z.string().max(20000),
  callbackTime: z.iso.datetime({ offset: true }).nullable(),
  callOutcome: z.string().max(50).nullable(),
  agentId: z.string().max(100).nullable(),
  leadQuality: z.string().max(50).nullable(),
  interestLevel: z.string().max(50).nullable(),
  receivedAt: z.iso.datetime({ offset: true }),
});

/** A prospect told the vendor's voice AI not to call again: the phone goes on the suppression list (ingestion → catalog). */
const leadSuppressionAddV1 = z
  .object({
    phone: z.string().regex(/^\d{10}$/),
    /** Why, as the suppression list shows it, e.g. "Vendor call outcome 'dnc' (Acme Voice)". */
    reason: z.string().min(1).max(500),
    /** The vendor's call-back webhook call that asked (ingestion). */
    callbackId: z.uuid().optional(),
    /** Issue 24: the live transfer whose outcome asked (transfers). */
    transferId: z.uuid().optional(),
    requestedAt: z.iso.datetime({ offset: true }),
  })
  .refine((c) => c.callbackId !== undefined || c.transferId !== undefined, 'A suppression request names its vendor call or transfer');

/** Tell an agent a call-back was delivered to them: who to call, when, and what was said. */
const emailCallbackAssignedV1 = z.object({
  to: z.email(),
  firstName: z.string().max(200),
  opportunityId: z.uuid(),
  prospectName: z.string().max(201),
  prospectPhone: z.string().max(30),
  state: z.string().length(2),
  callbackTime: z.iso.datetime({ offset: true }).nullable(),
  /** The transcript's beginning (the rest is in My Call-backs). */
  transcriptExcerpt: z.string().max(1000).nullable(),
  balanceLeft: z.number().int().nonnegative(),
  assignedAt: z.iso.datetime({ offset: true }),
});

/**
 * Keep the transfers service's copy of a vendor key current (issue 23, docs/adr/0031): the
 * vendor calls the transfers service with the keys admins create in ingestion, so ingestion
 * sends each key's SHA-256 (never the key) when it is created and again when it is revoked.
 * A command, not an event: a key's hash is not for the analysts' exchange.
 */
const vendorKeyMirrorV1 = z.object({
  vendorKeyId: z.uuid(),
  name: z.string().min(1).max(200),
  keyHash: z.string().regex(/^[0-9a-f]{64}$/),
  createdAt: z.iso.datetime({ offset: true }),
  revokedAt: z.iso.datetime({ offset: true }).nullable(),
});

/**
 * Keep the transfers service's copy of the suppression list current (issue 23): the catalog owns
 * the list; routing must never send a suppressed phone to an agent, in one lookup of its own.
 * Sent in the transaction that suppresses a phone or takes it off the list.
 */
const suppressionMirrorV1 = z.object({
  phone: z.string().regex(/^\d{10}$/),
  suppressed: z.boolean(),
  at: z.iso.datetime({ offset: true }),
  /** Issue 24: why, as the suppression list says it (for the transfer agents' notice); absent from older copies. */
  reason: z.string().max(500).optional(),
});

/**
 * Issue 24: tell one agent who received a transfer of a phone that has since opted out to stop
 * calling it (transfers → itself, from suppression.mirror). The handler reads the agent's e-mail
 * from the gateway and asks for email.lead_opt_out naming the transfers; once per agent and opt-out.
 */
const transferOptOutNotifyAgentV1 = z.object({
  agentUserId: z.uuid(),
  /** Ten digits. */
  phone: z.string().regex(/^[2-9]\d{9}$/),
  reason: z.string().max(500),
  suppressedAt: z.iso.datetime({ offset: true }),
});

/** Tell an agent how their dispute of a charged transfer was decided. */
const emailTransferDisputeDecidedV1 = z.object({
  to: z.email(),
  firstName: z.string().max(200),
  disputeId: z.uuid(),
  transferId: z.uuid(),
  /** The prospect as the agent knows them, e.g. 'Maria Lopez, (512) 555-0143'. */
  prospect: z.string().max(300),
  transferredAt: z.iso.datetime({ offset: true }),
  /** The reason in the agent's words, e.g. 'Wrong state'. */
  reasonLabel: z.string().max(200),
  decision: z.enum(['accepted', 'refused']),
  /** Why it was refused (the record's words or the admin's); null when accepted. */
  decisionReason: z.string().max(500).nullable(),
  creditedCents: z.number().int().nonnegative(),
  balanceAfter: z.number().int().nonnegative(),
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

export const commands = {
  'email.send': { 1: emailSendV1 },
  'email.password_reset': { 1: emailPasswordResetV1 },
  'email.welcome': { 1: emailWelcomeV1 },
  'email.account_security': { 1: emailAccountSecurityV1 },
  'email.survey_sales_notice': { 1: emailSurveySalesNoticeV1 },
  'email.recruiting_request': { 1: emailRecruitingRequestV1 },
  'email.order_paid': { 1: emailOrderPaidV1 },
  'email.transfer_order_paid': { 1: emailTransferOrderPaidV1 },
  'email.transfer_order_status': { 1: emailTransferOrderStatusV1 },
  'email.refund_issued': { 1: emailRefundIssuedV1 },
  'email.leads_receipt': { 1: emailLeadsReceiptV1 },
  'email.dispute_opened': { 1: emailDisputeOpenedV1 },
  'lead_order.settle': { 1: leadOrderSettleV1 },
  'lead_package.settle': { 1: leadPackageSettleV1 },
  'audit.record': { 1: auditRecordV1 },
  'import.run': { 1: importRunV1 },
  'dnc_registry.load': { 1: dncRegistryLoadV1 },
  'email.lead_opt_out': { 1: emailLeadOptOutV1 },
  'email.partner_application_received': { 1: emailPartnerApplicationReceivedV1 },
  'email.partner_application_notice': { 1: emailPartnerApplicationNoticeV1 },
  'email.partner_status_changed': { 1: emailPartnerStatusChangedV1 },
  'lead_suppression.notify_buyer': { 1: leadSuppressionNotifyBuyerV1 },
  'callback_opportunity.create': { 1: callbackOpportunityCreateV1 },
  'lead_suppression.add': { 1: leadSuppressionAddV1 },
  'email.callback_assigned': { 1: emailCallbackAssignedV1 },
  'vendor_key.mirror': { 1: vendorKeyMirrorV1 },
  'suppression.mirror': { 1: suppressionMirrorV1 },
  'transfer_opt_out.notify_agent': { 1: transferOptOutNotifyAgentV1 },
  'email.transfer_dispute_decided': { 1: emailTransferDisputeDecidedV1 },
  'lead_return.refund': { 1: leadReturnRefundV1 },
} as const;

export type EventType = keyof typeof events;
export type CommandType = keyof typeof commands;
export type MessageType = EventType | CommandType;

type Latest<T> = T extends { 1: infer S } ? S : never;
export type EventData<T extends EventType> = z.infer<Latest<(typeof events)[T]>>;
export type CommandData<T extends CommandType> = z.infer<Latest<(typeof commands)[T]>>;
export type MessageData<T extends MessageType> = T extends EventType
  ? EventData<T>
  : T extends CommandType
    ? CommandData<T>
    : never;

export const EVENTS_EXCHANGE = 'warmline.events';
export const COMMANDS_EXCHANGE = 'warmline.commands';

export function isCommand(type: string): type is CommandType {
  return Object.hasOwn(commands, type);
}

export function isEvent(type: string): type is EventType {
  return Object.hasOwn(events, type);
}

/** The zod schema for a message type and version, or undefined when unknown. */
export function messageSchema(type: string, version: number): z.ZodType | undefined {
  const table: Record<string, Record<number, z.ZodType>> = { ...events, ...commands };
  return table[type]?.[version];
}

/** The exchange a message type is routed through. */
export function exchangeFor(type: MessageType): string {
  return isCommand(type) ? COMMANDS_EXCHANGE : EVENTS_EXCHANGE;
}
