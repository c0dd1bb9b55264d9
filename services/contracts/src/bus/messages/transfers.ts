import { z } from 'zod';
import { US_PHONE_DIGITS } from '../../us-phone';

/**
 * Live transfers: routing, outcomes, disputes and opt-outs.
 * Registered, with every other context's messages, in ../messages.ts.
 */

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

/**
 * Issue 24: tell one agent who received a transfer of a phone that has since opted out to stop
 * calling it (transfers → itself, from suppression.mirror). The handler reads the agent's e-mail
 * from the gateway and asks for email.lead_opt_out naming the transfers; once per agent and opt-out.
 */
const transferOptOutNotifyAgentV1 = z.object({
  agentUserId: z.uuid(),
  /** Ten digits. */
  phone: z.string().regex(US_PHONE_DIGITS),
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

export const transferEvents = {
  'transfer.routed': { 1: transferRoutedV1 },
  'transfer.completed': { 1: transferCompletedV1 },
  'transfer_dispute.decided': { 1: transferDisputeDecidedV1 },
} as const;

export const transferCommands = {
  'transfer_opt_out.notify_agent': { 1: transferOptOutNotifyAgentV1 },
  'email.transfer_dispute_decided': { 1: emailTransferDisputeDecidedV1 },
} as const;
