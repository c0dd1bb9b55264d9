import { createHash, randomUUID } from 'node:crypto';
import { callDisposition, parseWorkingStates, WEBHOOK_RECEIVED_MESSAGE, WEBHOOK_REPEAT_MESSAGE, type MessageType, type VendorCall } from '@warmline/contracts';
import { outboxRowsOf, type OutgoingMessage } from '@warmline/platform/bus/index';
import { findEarlierCall, receiveVendorCall, type NewVendorCall } from '../db/vendor-calls';
import type { ActiveVendorKey } from '../db/vendor-keys';
import { SOURCE, type IngestionContext } from './context';

/**
 * A vendor's call (issue 15, docs/adr/0019, the repeat rules of docs/adr/0030): stored with its
 * outbox rows in one transaction — callback.received, and callback_opportunity.create or
 * lead_suppression.add by its outcome — in one statement, one round trip (docs/adr/0051), and answered. Nothing here waits on another service:
 * the relay publishes after commit, and a broker that is away only delays that.
 */

export type ReceivedCall =
  /** Stored now, or (`repeated`) an earlier call's id with nothing new stored. */
  | { outcome: 'received'; callbackId: string; repeated: boolean; message: string }
  /** The Idempotency-Key was first sent with a different call (that call's id): a 409. */
  | { outcome: 'key reused'; callbackId: string }
  /** A new call whose callback_time has passed: refused, nothing stored. */
  | { outcome: 'past callback time'; callbackTime: string };

/** A 64-bit advisory lock key: repeats of one prospect's call, or of one Idempotency-Key, queue on it; other calls never do. */
function lockKey(kind: 'phone' | 'idempotency-key', vendorKeyId: string, value: string): bigint {
  return createHash('sha256').update(`ingestion:vendor-call:${kind}:${vendorKeyId}:${value}`).digest().readBigInt64BE(0);
}

/** The locks a call takes: its prospect's, and its Idempotency-Key's when it has one. */
function repeatLockKeys(vendorKeyId: string, call: VendorCall, idempotencyKey: string | null): bigint[] {
  const keys = [lockKey('phone', vendorKeyId, call.phone)];
  if (idempotencyKey !== null) keys.push(lockKey('idempotency-key', vendorKeyId, idempotencyKey));
  return keys;
}

/** "The same call" for an Idempotency-Key: the call as read (names trimmed, phone as digits, callback_time in UTC), hashed. */
function callHash(call: VendorCall): string {
  return createHash('sha256').update(JSON.stringify(call)).digest('hex');
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
    requestHash: callHash(call),
    call,
    disposition: callDisposition(call.callOutcome),
    receivedAt: ctx.clock(),
  };
  // Repeats of one prospect's call, and of one Idempotency-Key, queue on these locks, taken
  // before the look for an earlier call or key, so that look sees a repeat that committed while
  // this one waited. The keys are numbers computed here, never caller text.
  const locks = repeatLockKeys(vendor.id, call, idempotencyKey);
  // The messages a stored call sends, made before it is known whether it is stored: they go in
  // the call's one statement (docs/adr/0051), which writes them only if it stores the call.
  const messages = callMessages(vendor, row, correlationId);
  const outbox = outboxRowsOf(messages);
  const found = await receiveVendorCall(ctx.pool, row, locks, outbox);
  // The statement committed on its own; its outbox rows exist only when it stored the call.
  if (found.storedId !== null) outbox.committed();
  // Rule 1: a key sent before answers what it answered then, for the same call only.
  if (found.keyedId !== null) {
    if (found.keyedHash !== null && found.keyedHash !== row.requestHash) return { outcome: 'key reused', callbackId: found.keyedId };
    return { outcome: 'received', callbackId: found.keyedId, repeated: true, message: WEBHOOK_REPEAT_MESSAGE };
  }
  if (found.storedId !== null) return { outcome: 'received', callbackId: found.storedId, repeated: false, message: WEBHOOK_RECEIVED_MESSAGE };
  // Rules 2 and 3: a repeat of an earlier call (its callback_time may have passed since).
  if (found.earlierId !== null) return { outcome: 'received', callbackId: found.earlierId, repeated: true, message: WEBHOOK_REPEAT_MESSAGE };
  if (found.past && call.callbackTime !== null) return { outcome: 'past callback time', callbackTime: call.callbackTime };
  // A concurrent call won a unique index this one ran into; it has committed, so it is seen now.
  const callbackId = await findEarlierCall(ctx.pool, row);
  if (callbackId === null) throw new Error('a vendor call was neither stored nor found as a repeat');
  return { outcome: 'received', callbackId, repeated: true, message: WEBHOOK_REPEAT_MESSAGE };
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
