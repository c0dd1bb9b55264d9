import { WEBHOOK_REPEAT_WINDOW_HOURS, type CallDisposition, type VendorCall } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform/db/index';

/** Queries of the vendor_calls table (every call a vendor posted) and vendor_call_keys (every Idempotency-Key it sent). */

/**
 * The statement that takes these transaction-scoped advisory locks, sent with BEGIN
 * (withTransaction's `atBegin`, one round trip). Sorted, so two calls sharing locks take them in
 * the same order and never wait on each other. The keys are numbers, never caller text.
 */
export function advisoryLocksStatement(keys: readonly bigint[]): string {
  const sorted = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `SELECT ${sorted.map((k) => `pg_advisory_xact_lock('${k.toString()}'::bigint)`).join(', ')}`;
}

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

/** $2 Idempotency-Key: its row, when the vendor sent it before. */
const KEYED_CALL = `SELECT callback_id, request_hash FROM vendor_call_keys WHERE $2::text IS NOT NULL AND vendor_key_id = $1 AND idempotency_key = $2`;

function repeatParams(row: NewVendorCall): unknown[] {
  return [row.vendorKeyId, row.idempotencyKey, row.call.phone, row.call.callbackTime, row.call.transcript, row.receivedAt];
}

/**
 * Looks at the call's Idempotency-Key, then for an earlier call it repeats, and stores it when
 * neither answers it and its callback_time has not passed — one statement. The key, when new, is
 * kept with the call that answers it (stored or repeated). Everything null and `past` false only
 * when a concurrent transaction stored a repeat first under a unique index this one then ran into
 * (ON CONFLICT); the caller looks again (findEarlierCall) once that one is visible.
 */
export async function storeCallUnlessRepeat(db: Queryable, row: NewVendorCall): Promise<CallOutcome> {
  const c = row.call;
  const { rows } = await db.query<CallOutcome>(
    `WITH keyed AS (${KEYED_CALL}),
     earlier AS (${EARLIER_CALL}),
     stored AS (
       INSERT INTO vendor_calls
         (id, vendor_key_id, idempotency_key, first_name, last_name, phone, transcript, call_outcome, state,
          callback_time, agent_id, lead_quality, interest_level, disposition, received_at)
       SELECT $7, $1, $2, $8, $9, $3, $5, $10, $11, $4, $12, $13, $14, $15, $6
        WHERE NOT EXISTS (SELECT 1 FROM keyed) AND NOT EXISTS (SELECT 1 FROM earlier)
          AND ($4::timestamptz IS NULL OR $4::timestamptz > $6::timestamptz)
       ON CONFLICT DO NOTHING
       RETURNING id),
     answered AS (SELECT COALESCE((SELECT id FROM stored), (SELECT id FROM earlier)) AS id),
     kept AS (
       INSERT INTO vendor_call_keys (vendor_key_id, idempotency_key, request_hash, callback_id, received_at)
       SELECT $1, $2, $16, answered.id, $6 FROM answered
        WHERE $2::text IS NOT NULL AND answered.id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM keyed)
       ON CONFLICT DO NOTHING)
     SELECT (SELECT id FROM stored) AS "storedId",
            (SELECT id FROM earlier) AS "earlierId",
            (SELECT callback_id FROM keyed) AS "keyedId",
            (SELECT request_hash FROM keyed) AS "keyedHash",
            ($4::timestamptz IS NOT NULL AND $4::timestamptz <= $6::timestamptz) AS past`,
    [
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
    ],
  );
  return rows[0] ?? { storedId: null, earlierId: null, keyedId: null, keyedHash: null, past: false };
}

export async function findEarlierCall(db: Queryable, row: NewVendorCall): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(EARLIER_CALL, repeatParams(row));
  return rows[0]?.id ?? null;
}
