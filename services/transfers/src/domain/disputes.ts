import { randomUUID } from 'node:crypto';
import {
  AUTOMATIC_DISPUTE_REASONS,
  DISPUTE_MESSAGES,
  DISPUTE_REASON_LABELS,
  TRANSFER_NOT_FOUND_MESSAGE,
  TRANSFER_REPEAT_PHONE_DAYS,
  timeZoneName,
  type DisputeReason,
  type HoursRange,
  type TransferView,
} from '@warmline/contracts';
import { enqueueAll, type OutgoingMessage } from '@warmline/platform/bus/index';
import { recordAdminAction } from '@warmline/platform/bus/admin-audit';
import { withTransaction, type Queryable } from '@warmline/platform/db/index';
import { conflict, notFound } from '@warmline/platform/errors';
import type { AgentProfile } from '../clients/gateway-client';
import { creditLot, lockAgent } from '../db/ledger';
import { decideDispute, earlierTransferOfPhone, findDispute, insertDispute, lockAgentTransfer, setTransferStatus, type DisputedTransfer } from '../db/disputes';
import { findAgentSettings } from '../db/settings';
import { SOURCE, type TransfersContext } from './context';
import { clock12, localTime, withinHours } from './hours';
import { withinDisputeWindow } from './my-transfers';
import type { Agent } from './settings';

/**
 * Disputes of charged transfers (issue 23 §6, docs/adr/0032). Wrong state, out of hours and
 * duplicate are decided at once from the records; the others wait for an admin. An accepted
 * dispute gives the transfer back as a new lot at the price it was charged (a ledger row whose
 * cause is the dispute, so it is credited once). The agent is told by e-mail.
 */

export interface Admin {
  userId: string;
  username: string;
}

type Verdict = { accepted: true; words: string } | { accepted: false; words: string };

/** `POST /api/my-transfers/{id}/dispute`. */
export async function disputeTransfer(
  ctx: TransfersContext,
  agent: Agent,
  transferId: string,
  input: { reason: DisputeReason; note?: string | undefined },
  correlationId: string,
): Promise<TransferView['dispute'] & object> {
  // Asked before the transaction: no network wait while the agent's row is locked.
  const profile = AUTOMATIC_DISPUTE_REASONS.includes(input.reason) ? await profileOf(ctx, agent.userId, correlationId) : null;
  const now = ctx.clock();
  return withTransaction(ctx.pool, async (db) => {
    if (!(await lockAgent(db, agent.userId))) throw notFound(TRANSFER_NOT_FOUND_MESSAGE);
    const transfer = await lockAgentTransfer(db, transferId, agent.userId);
    if (!transfer) throw notFound(TRANSFER_NOT_FOUND_MESSAGE);
    if (transfer.disputeId) throw conflict(DISPUTE_MESSAGES.already);
    if (transfer.status !== 'charged' || transfer.chargedCents === null) throw conflict(DISPUTE_MESSAGES.notCharged);
    if (!withinDisputeWindow(transfer.routedAt, now)) throw conflict(DISPUTE_MESSAGES.tooLate);
    const id = randomUUID();
    const note = input.note ? input.note : null;
    if (!(await insertDispute(db, { id, transferId, agentId: agent.userId, reason: input.reason, note, at: now }))) throw conflict(DISPUTE_MESSAGES.already);
    if (!AUTOMATIC_DISPUTE_REASONS.includes(input.reason)) {
      await setTransferStatus(db, transferId, 'disputed');
      return { id, reason: input.reason, status: 'pending' as const, decisionReason: null, openedAt: now.toISOString(), decidedAt: null };
    }
    const verdict = await judgeFromRecords(db, transfer, input.reason);
    await settle(db, ctx, { disputeId: id, reason: input.reason, transfer, accepted: verdict.accepted, words: verdict.accepted ? null : verdict.words, by: 'automatic', byUserId: null, at: now, profile, correlationId });
    return {
      id,
      reason: input.reason,
      status: verdict.accepted ? ('accepted' as const) : ('refused' as const),
      decisionReason: verdict.accepted ? null : verdict.words,
      openedAt: now.toISOString(),
      decidedAt: now.toISOString(),
    };
  });
}

/** `POST /api/admin/transfer-disputes/{id}`: accept (credited once) or refuse with a reason. */
export async function decideDisputeByAdmin(
  ctx: TransfersContext,
  admin: Admin,
  disputeId: string,
  decision: { decision: 'accept' | 'refuse'; reason?: string | undefined },
  correlationId: string,
): Promise<{ id: string; status: 'accepted' | 'refused'; decisionReason: string | null; decidedAt: string }> {
  const found = await findDispute(ctx.pool, disputeId);
  if (!found) throw notFound(DISPUTE_MESSAGES.notFound);
  if (found.disputeStatus !== 'pending') throw conflict(DISPUTE_MESSAGES.decided);
  const profile = await profileOf(ctx, found.agentId, correlationId);
  const now = ctx.clock();
  const accepted = decision.decision === 'accept';
  const words = accepted ? null : (decision.reason ?? '');
  await withTransaction(ctx.pool, async (db) => {
    await lockAgent(db, found.agentId);
    const transfer = await lockAgentTransfer(db, found.id, found.agentId);
    if (!transfer) throw notFound(DISPUTE_MESSAGES.notFound);
    const settled = await settle(db, ctx, { disputeId, reason: found.disputeReason, transfer, accepted, words, by: 'admin', byUserId: admin.userId, at: now, profile, correlationId });
    if (!settled) throw conflict(DISPUTE_MESSAGES.decided);
    await recordAdminAction(db, {
      source: SOURCE,
      actor: admin,
      action: 'transfer_dispute.decided',
      subjectType: 'transfer_dispute',
      subjectId: disputeId,
      subjectLabel: `${DISPUTE_REASON_LABELS[found.disputeReason]}: transfer of ${found.firstName} ${found.lastName} to ${found.agentName || found.agentId}`,
      before: { status: 'pending' },
      after: { status: accepted ? 'accepted' : 'refused', ...(accepted ? { creditedCents: transfer.chargedCents ?? 0 } : {}) },
      ...(words ? { reason: words } : {}),
      at: now,
      correlationId,
    });
  });
  return { id: disputeId, status: accepted ? 'accepted' : 'refused', decisionReason: words, decidedAt: now.toISOString() };
}

/**
 * Decides one dispute in the caller's transaction (agent and transfer locked): accepted → a
 * dispute_credit lot of one transfer at the charged price and the transfer credited; refused →
 * the transfer charged again. Tells the agent (event and e-mail). False when decided before.
 */
async function settle(
  db: Queryable,
  ctx: TransfersContext,
  s: {
    disputeId: string;
    reason: DisputeReason;
    transfer: DisputedTransfer;
    accepted: boolean;
    words: string | null;
    by: 'automatic' | 'admin';
    byUserId: string | null;
    at: Date;
    profile: AgentProfile | null;
    correlationId: string;
  },
): Promise<boolean> {
  const decided = await decideDispute(db, { id: s.disputeId, status: s.accepted ? 'accepted' : 'refused', by: s.by, byUserId: s.byUserId, reason: s.words, at: s.at });
  if (!decided) return false;
  const price = s.transfer.chargedCents ?? 0;
  let creditedCents = 0;
  if (s.accepted) {
    const lot = await creditLot(db, {
      agentId: s.transfer.agentId,
      source: 'dispute',
      orderId: null,
      description: `Dispute accepted: ${DISPUTE_REASON_LABELS[s.reason]}`,
      unitCents: price,
      paidCents: 0,
      transfers: 1,
      at: s.at,
      kind: 'dispute_credit',
      cause: `Dispute accepted: ${DISPUTE_REASON_LABELS[s.reason]} (transfer of ${s.transfer.firstName} ${s.transfer.lastName.charAt(0)}.)`,
      causeId: s.disputeId,
      transferId: s.transfer.id,
      actorId: s.byUserId,
    });
    if (lot) creditedCents = price;
  }
  await setTransferStatus(db, s.transfer.id, s.accepted ? 'credited' : 'charged');
  const balance = (await lockAgent(db, s.transfer.agentId))?.balance ?? 0;
  const messages: OutgoingMessage<'transfer_dispute.decided' | 'email.transfer_dispute_decided'>[] = [
    {
      type: 'transfer_dispute.decided',
      source: SOURCE,
      correlationId: s.correlationId,
      data: {
        disputeId: s.disputeId,
        transferId: s.transfer.id,
        agentUserId: s.transfer.agentId,
        reason: s.reason,
        decision: s.accepted ? 'accepted' : 'refused',
        by: s.by,
        creditedCents,
        decidedAt: s.at.toISOString(),
      },
    },
  ];
  if (s.profile) {
    messages.push({
      type: 'email.transfer_dispute_decided',
      source: SOURCE,
      correlationId: s.correlationId,
      data: {
        to: s.profile.email,
        firstName: s.profile.firstName.slice(0, 200),
        disputeId: s.disputeId,
        transferId: s.transfer.id,
        prospect: `${s.transfer.firstName} ${s.transfer.lastName}, ${phoneWords(s.transfer.phone)}`.slice(0, 300),
        transferredAt: s.transfer.routedAt.toISOString(),
        reasonLabel: DISPUTE_REASON_LABELS[s.reason],
        decision: s.accepted ? 'accepted' : 'refused',
        decisionReason: s.accepted ? null : (s.words ?? '').slice(0, 500),
        creditedCents,
        balanceAfter: balance,
      },
    });
  } else {
    ctx.log.warn({ disputeId: s.disputeId, agentId: s.transfer.agentId }, "the agent's e-mail address is not known (gateway unreachable or account gone): the dispute is decided without an e-mail");
  }
  await enqueueAll(db, messages);
  return true;
}

/** What the records say about a wrong-state, out-of-hours or duplicate dispute. */
async function judgeFromRecords(db: Queryable, t: DisputedTransfer, reason: DisputeReason): Promise<Verdict> {
  const current = t.agentStates === null || t.agentHours === null || t.agentTimeZone === null ? await findAgentSettings(db, t.agentId) : null;
  const states = t.agentStates ?? current?.states ?? [];
  const hours: HoursRange[] = t.agentHours ?? current?.hours ?? [];
  const zone = t.agentTimeZone ?? current?.timeZone ?? 'America/New_York';
  if (reason === 'wrong_state') {
    if (!states.includes(t.state)) return { accepted: true, words: `${t.state} was not one of your working states` };
    return { accepted: false, words: `The prospect was in ${t.state}, one of your working states (${states.join(', ')}) when the transfer was routed` };
  }
  if (reason === 'out_of_hours') {
    const local = localTime(t.routedAt, zone);
    const when = `${local.weekday.charAt(0).toUpperCase()}${local.weekday.slice(1)} ${clock12(local.hhmm)} ${timeZoneName(zone)}`;
    if (!withinHours(hours, zone, t.routedAt)) return { accepted: true, words: `The transfer came ${when}, outside your hours` };
    const range = hours.find((h) => h.day === local.weekday && h.from <= local.hhmm && local.hhmm < h.to)!;
    return { accepted: false, words: `The transfer came ${when}, inside your hours (${clock12(range.from)} – ${clock12(range.to)})` };
  }
  const earlier = await earlierTransferOfPhone(db, t, TRANSFER_REPEAT_PHONE_DAYS);
  if (earlier) return { accepted: true, words: `${phoneWords(t.phone)} was transferred to you before, on ${earlier.toISOString().slice(0, 10)}` };
  return { accepted: false, words: `${phoneWords(t.phone)} was not transferred to you in the ${TRANSFER_REPEAT_PHONE_DAYS} days before this transfer` };
}

/** '5125550143' → '(512) 555-0143'. */
function phoneWords(phone: string): string {
  return /^\d{10}$/.test(phone) ? `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}` : phone;
}

async function profileOf(ctx: TransfersContext, userId: string, correlationId: string): Promise<AgentProfile | null> {
  try {
    return await ctx.gateway.agentProfile(userId, correlationId);
  } catch (err) {
    ctx.log.warn({ err, userId }, "the gateway did not say the agent's e-mail address");
    return null;
  }
}
