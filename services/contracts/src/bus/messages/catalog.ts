import { z } from 'zod';
import { US_PHONE_DIGITS } from '../../us-phone';

/**
 * The catalog: the aged-lead market, imports, the suppression list, the registry, call-backs and the mirrors it keeps.
 * Registered, with every other context's messages, in ../messages.ts.
 */

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
  phone: z.string().regex(US_PHONE_DIGITS),
  reason: z.string().max(500),
  /** The admin who suppressed the phone: the gateway answers them about any user. */
  suppressedBy: z.object({ userId: z.uuid(), username: z.string().min(1).max(200) }),
  suppressedAt: z.iso.datetime({ offset: true }),
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

export const catalogEvents = {
  'leads.purchased': { 1: leadsPurchasedV1 },
  'import.progress': { 1: importProgressV1 },
  'leads.imported': { 1: leadsImportedV1 },
  'leads.withdrawn': { 1: leadsWithdrawnV1 },
  'callback.received': { 1: callbackReceivedV1 },
  'callback.assigned': { 1: callbackAssignedV1 },
} as const;

export const catalogCommands = {
  'import.run': { 1: importRunV1 },
  'dnc_registry.load': { 1: dncRegistryLoadV1 },
  'email.lead_opt_out': { 1: emailLeadOptOutV1 },
  'lead_suppression.notify_buyer': { 1: leadSuppressionNotifyBuyerV1 },
  'callback_opportunity.create': { 1: callbackOpportunityCreateV1 },
  'lead_suppression.add': { 1: leadSuppressionAddV1 },
  'email.callback_assigned': { 1: emailCallbackAssignedV1 },
  'vendor_key.mirror': { 1: vendorKeyMirrorV1 },
  'suppression.mirror': { 1: suppressionMirrorV1 },
} as const;
