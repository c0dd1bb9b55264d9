import { createHash } from 'node:crypto';
import {
  TRANSFER_BUFFER_SECONDS,
  TRANSFER_NOT_FOUND_MESSAGE,
  TRANSFER_OUTCOME_CONFLICT_MESSAGE,
  callDisposition,
  type TransferOutcome,
  type TransferOutcomeAnswer,
  type TransferStatus,
} from '@warmline/contracts';
import { enqueue } from '@warmline/platform/bus/index';
import { withTransaction } from '@warmline/platform/db/index';
import { conflict, notFound } from '@warmline/platform/errors';
import { chargeOneTransfer } from '../db/ledger';
import { vendorNameOf } from '../db/opt-outs';
import { lockAgentOfTransfer, lockTransfer, settleTransfer, type Settlement } from '../db/transfers';
import { SOURCE, type TransfersContext } from './context';

/**
 * How a routed transfer went (issue 23 §4, docs/adr/0031). Not connected: not charged. Connected
 * for at most TRANSFER_BUFFER_SECONDS: buffer-protected, not charged (the pricing pages'
 * promise). Longer: one transfer charged from the agent's oldest credit at its price, or
 * 'unbilled' when nothing is left (never below zero). The agent's row is locked first (the
 * ledger's order), then the transfer: concurrent outcomes for one agent settle one at a time, and
 * a transfer settles once. An outcome after the reservation lapsed is still taken: the call happened.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const iso = (text: string | undefined) => (text ? new Date(text) : null);

/** The outcome as WarmLine reads it: times as instants, absent fields as null (a repeat compares equal). */
function fingerprintOf(outcome: TransferOutcome): string {
  const normal = [
    outcome.connected,
    outcome.duration_seconds,
    iso(outcome.answered_at)?.toISOString() ?? null,
    iso(outcome.ended_at)?.toISOString() ?? null,
    outcome.recording_url ?? null,
    outcome.transcript ?? null,
    outcome.disposition || null,
  ];
  return createHash('sha256').update(JSON.stringify(normal)).digest('hex');
}

/** What a settled transfer answers; a later dispute does not change what the vendor was told. */
function answerOf(transferId: string, status: TransferStatus, chargedCents: number | null): TransferOutcomeAnswer {
  const settled = status === 'disputed' || status === 'credited' ? 'charged' : status;
  const charged = settled === 'charged';
  return { success: true, transfer_id: transferId, status: settled, charged, charged_cents: charged ? (chargedCents ?? 0) : 0 };
}

export async function reportOutcome(
  ctx: TransfersContext,
  vendorKeyId: string,
  transferId: string,
  outcome: TransferOutcome,
  correlationId: string,
): Promise<TransferOutcomeAnswer> {
  if (!UUID.test(transferId)) throw notFound(TRANSFER_NOT_FOUND_MESSAGE);
  const fingerprint = fingerprintOf(outcome);
  return withTransaction(ctx.pool, async (db) => {
    const agentId = await lockAgentOfTransfer(db, transferId, vendorKeyId);
    if (!agentId) throw notFound(TRANSFER_NOT_FOUND_MESSAGE);
    const transfer = await lockTransfer(db, transferId);
    if (transfer.status !== 'routed') {
      if (transfer.outcomeFingerprint !== fingerprint) throw conflict(TRANSFER_OUTCOME_CONFLICT_MESSAGE);
      return answerOf(transferId, transfer.status, transfer.chargedCents);
    }

    const now = ctx.clock();
    let status: Settlement['status'];
    let charge: { lotId: string; unitCents: number } | null = null;
    if (!outcome.connected) status = 'not_connected';
    else if (outcome.duration_seconds <= TRANSFER_BUFFER_SECONDS) status = 'buffer_protected';
    else {
      charge = await chargeOneTransfer(db, { agentId, transferId, cause: `Transfer to ${transfer.firstName} ${transfer.lastName.charAt(0)}.`, at: now });
      status = charge ? 'charged' : 'unbilled';
    }
    await settleTransfer(db, transferId, {
      status,
      connected: outcome.connected,
      durationSeconds: outcome.duration_seconds,
      answeredAt: iso(outcome.answered_at),
      endedAt: iso(outcome.ended_at),
      recordingUrl: outcome.recording_url ?? null,
      transcript: outcome.transcript ?? null,
      disposition: outcome.disposition || null,
      outcomeFingerprint: fingerprint,
      chargedCents: charge?.unitCents ?? null,
      lotId: charge?.lotId ?? null,
      settledAt: now,
    });
    await enqueue(db, {
      type: 'transfer.completed',
      source: SOURCE,
      correlationId,
      data: {
        transferId,
        agentUserId: agentId,
        status,
        connected: outcome.connected,
        charged: charge !== null,
        chargedCents: charge?.unitCents ?? 0,
        durationSeconds: outcome.duration_seconds,
        state: transfer.state,
        completedAt: now.toISOString(),
      },
    });
    if (callDisposition(outcome.disposition) === 'suppress') {
      // Issue 24: the prospect said not to call again: the phone goes on the suppression list (the
      // catalog's), which withdraws it everywhere and sends this service its copy and the notices.
      const vendor = (await vendorNameOf(db, vendorKeyId)) ?? 'the vendor';
      await enqueue(db, {
        type: 'lead_suppression.add',
        source: SOURCE,
        correlationId,
        data: {
          phone: transfer.phone,
          reason: `Transfer outcome '${outcome.disposition?.trim()}' (${vendor})`.slice(0, 500),
          transferId,
          requestedAt: now.toISOString(),
        },
      });
    }
    return answerOf(transferId, status, charge?.unitCents ?? null);
  });
}
