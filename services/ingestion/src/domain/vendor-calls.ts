import { createHash, randomUUID } from 'node:crypto';
import { callDisposition, parseWorkingStates, WEBHOOK_RECEIVED_MESSAGE, WEBHOOK_REPEAT_MESSAGE, type MessageType, type VendorCall } from '@warmline/contracts';
import { enqueueAll, type OutgoingMessage } from '@warmline/platform/bus/index';
import { withTransaction } from '@warmline/platform/db/index';
import { findEarlierCall, storeCallUnlessRepeat, type NewVendorCall } from '../db/vendor-calls';
import type { ActiveVendorKey } from '../db/vendor-keys';
import { SOURCE, type IngestionContext } from './context';

/**
 * A vendor's call (issue 15, docs/adr/0019): stored with its outbox rows in one transaction —
 * callback.received, and callback_opportunity.create or lead_suppression.add by its outcome —
 * and answered. Nothing here waits on another service: the relay publishes after commit, and a
 * broker that is away only delays that.
 */

export interface ReceivedCall {
  callbackId: string;
  /** True when it repeats an earlier call: that call's id, nothing new stored. */
  repeated: boolean;
  message: string;
}

/** A 64-bit advisory lock key per vendor and phone: repeats of one prospect's call queue on it, other calls never do. */
function repeatLockKey(vendorKeyId: string, phone: string): string {
  return createHash('sha256').update(`ingestion:vendor-call:${vendorKeyId}:${phone}`).digest().readBigInt64BE(0).toString();
}

/** 'TX', 'tx' or 'Texas' → 'TX'; null for anything that does not read as one state. */
function stateCode(state: string | null): string | null {
  if (state === null) return null;
  const parsed = parseWorkingStates([state]);
  return parsed.ok && parsed.states.length === 1 ? (parsed.states[0] ?? null) : null;
}

export async function receiveCall(
  ctx: IngestionContext,
  vendor: ActiveVendorKey,
  call: VendorCall,
  idempotencyKey: string | null,
  correlationId: string,
): Promise<ReceivedCall> {
  const row: NewVendorCall = {
    id: randomUUID(),
    vendorKeyId: vendor.id,
    idempotencyKey,
    call,
    disposition: callDisposition(call.callOutcome),
    receivedAt: ctx.clock(),
  };
  return withTransaction(
    ctx.pool,
    async (db) => {
      const { storedId, earlierId } = await storeCallUnlessRepeat(db, row);
      if (storedId === null) {
        // A concurrent repeat under another lock (the same Idempotency-Key for another phone) won
        // the unique index; this statement sees it now that it has committed.
        const callbackId = earlierId ?? (await findEarlierCall(db, row));
        if (callbackId === null) throw new Error('a vendor call was neither stored nor found as a repeat');
        return { callbackId, repeated: true, message: WEBHOOK_REPEAT_MESSAGE };
      }
      await enqueueAll(db, callMessages(vendor, row, correlationId));
      return { callbackId: storedId, repeated: false, message: WEBHOOK_RECEIVED_MESSAGE };
    },
    // Repeats of one prospect's call queue on this lock, taken in BEGIN's round trip: its
    // statement comes before the look for an earlier call, so that look sees a repeat that
    // committed while this one waited. The key is a number computed here, never caller text.
    { atBegin: `SELECT pg_advisory_xact_lock('${repeatLockKey(vendor.id, call.phone)}'::bigint)` },
  );
}

/** callback.received, and the message its disposition asks for: written in one INSERT. */
function callMessages(vendor: ActiveVendorKey, row: NewVendorCall, correlationId: string): Array<OutgoingMessage<MessageType>> {
  const { call } = row;
  const receivedAt = row.receivedAt.toISOString();
  const outcome = call.callOutcome?.trim().toLowerCase() || null;
  const messages: Array<OutgoingMessage<MessageType>> = [];
  messages.push({
    type: 'callback.received',
    source: SOURCE,
    correlationId,
    data: {
      callbackId: row.id,
      vendorKeyId: vendor.id,
      outcome,
      disposition: row.disposition,
      state: stateCode(call.state),
      leadQuality: call.leadQuality,
      receivedAt,
    },
  });
  if (row.disposition === 'opportunity') {
    messages.push({
      type: 'callback_opportunity.create',
      source: SOURCE,
      correlationId,
      data: {
        callbackId: row.id,
        vendorKeyId: vendor.id,
        vendorName: vendor.name,
        firstName: call.firstName,
        lastName: call.lastName,
        phone: call.phone,
        state: call.state,
        transcript: call.transcript,
        callbackTime: call.callbackTime,
        callOutcome: call.callOutcome,
        agentId: call.agentId,
        leadQuality: call.leadQuality,
        interestLevel: call.interestLevel,
        receivedAt,
      },
    });
  } else if (row.disposition === 'suppress') {
    messages.push({
      type: 'lead_suppression.add',
      source: SOURCE,
      correlationId,
      data: {
        phone: call.phone,
        reason: `Vendor call outcome '${outcome ?? ''}' (${vendor.name})`.slice(0, 500),
        callbackId: row.id,
        requestedAt: receivedAt,
      },
    });
  }
  return messages;
}
