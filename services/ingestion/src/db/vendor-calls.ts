import { WEBHOOK_REPEAT_WINDOW_HOURS, type CallDisposition, type VendorCall } from '@warmline/contracts';
import type { OutboxRows } from '@warmline/platform/bus/index';
import type { Queryable } from '@warmline/platform/db/index';

/** Queries of the vendor_calls table (every call a vendor posted) and vendor_call_keys (every Idempotency-Key it sent). */

export interface NewVendorCall {
  id: string;
  vendorKeyId: string;
  idempotencyKey: string | null;
  /** SHA-256 (hex) of the call as read: what "the same call" means for an Idempotency-Key. */
  requestHash: string;
  call: VendorCall;
  disposition: CallDisposition;
  receivedAt: Date;
}

/** What the one statement below did with a call. */
export interface CallOutcome {
  /** The new call's id, when it was stored. */
  storedId: string | null;
  /** The earlier call it repeats by phone and callback_time, or phone and transcript (rules 2 and 3). */
  earlierId: string | null;
  /** The Idempotency-Key was sent before: the call it answered, and the hash of the call it came with (null: not known). */
  keyedId: string | null;
  keyedHash: string | null;
  /** Nothing matched and the callback_time is not later than now: refused, nothing stored. */
  past: boolean;
}

/**
 * The earlier call of the same vendor that a new one repeats (docs/adr/0030 rules 2 and 3): the
 * same phone and callback_time; else, when the new call has no callback_time, the same phone and
 * transcript within the repeat window. $1 vendor key, $3 phone, $4 callback_time, $5 transcript, $6 now.
 */
const EARLIER_CALL = `
  SELECT id FROM (
    (SELECT id, 2 AS rule FROM vendor_calls
      WHERE $4::timestamptz IS NOT NULL AND vendor_key_id = $1 AND phone = $3 AND callback_time = $4)
    UNION ALL
    (SELECT id, 3 AS rule FROM vendor_calls
      WHERE $4::timestamptz IS NULL AND vendor_key_id = $1 AND phone = $3 AND transcript = $5
        AND received_at > $6::timestamptz - interval '${WEBHOOK_REPEAT_WINDOW_HOURS} hours'
      ORDER BY received_at DESC LIMIT 1)
  ) matches ORDER BY rule LIMIT 1`;

function repeatParams(row: NewVendorCall): unknown[] {
  return [row.vendorKeyId, row.idempotencyKey, row.call.phone, row.call.callbackTime, row.call.transcript, row.receivedAt];
}

/**
 * The call in one statement (migration 1769710000000, docs/adr/0051): its advisory locks (the
 * prospect's, the Idempotency-Key's; sorted, so two calls sharing locks take them in the same
 * order), then the look at its Idempotency-Key and for an earlier call it repeats, the call
 * stored when neither answers it and its callback_time has not passed, the key kept with the call
 * that answers it, and `outbox` written when the call was stored: on the pool, a transaction of
 * its own in one round trip.
 * Everything null and `past` false only when a concurrent call stored a repeat first under a
 * unique index this one then ran into (ON CONFLICT); the caller looks again (findEarlierCall).
 */
export async function receiveVendorCall(db: Queryable, row: NewVendorCall, lockKeys: readonly bigint[], outbox: OutboxRows): Promise<CallOutcome> {
  const c = row.call;
  const sorted = [...lockKeys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String);
  // Named: each connection parses and plans it once, not on every call.
  const { rows } = await db.query<CallOutcome>({
    name: 'ingestion-receive-vendor-call',
    text: `SELECT * FROM receive_vendor_call($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
             $17::bigint[], $18::uuid[], $19::text[], $20::text[], $21::jsonb[], $22, $23::interval)`,
    values: [
      ...repeatParams(row),
      row.id,
      c.firstName,
      c.lastName,
      c.callOutcome,
      c.state,
      c.agentId,
      c.leadQuality,
      c.interestLevel,
      row.disposition,
      row.requestHash,
      sorted,
      outbox.ids,
      outbox.exchanges,
      outbox.routingKeys,
      outbox.envelopes,
      outbox.inProcessWake,
      `${WEBHOOK_REPEAT_WINDOW_HOURS} hours`,
    ],
  });
  return rows[0] ?? { storedId: null, earlierId: null, keyedId: null, keyedHash: null, past: false };
}

export async function findEarlierCall(db: Queryable, row: NewVendorCall): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(EARLIER_CALL, repeatParams(row));
  return rows[0]?.id ?? null;
}
