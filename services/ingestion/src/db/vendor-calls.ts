import { WEBHOOK_REPEAT_WINDOW_HOURS, type CallDisposition, type VendorCall } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform/db/index';

/** Queries of the vendor_calls table: every call a vendor posted. */

export interface NewVendorCall {
  id: string;
  vendorKeyId: string;
  idempotencyKey: string | null;
  call: VendorCall;
  disposition: CallDisposition;
  receivedAt: Date;
}

/**
 * The earlier call of the same vendor that a new one repeats, by the rules in their order
 * (docs/adr/0019): the same Idempotency-Key; else the same phone and callback_time; else, when
 * the new call has no callback_time, the same phone and transcript within the repeat window.
 * $1 vendor key, $2 Idempotency-Key, $3 phone, $4 callback_time, $5 transcript, $6 now.
 */
const EARLIER_CALL = `
  SELECT id FROM (
    (SELECT id, 1 AS rule FROM vendor_calls
      WHERE $2::text IS NOT NULL AND vendor_key_id = $1 AND idempotency_key = $2)
    UNION ALL
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
 * Stores the call unless it repeats an earlier one, in one statement: `storedId` is the new
 * call's id, or `earlierId` the id of the call it repeats. Both are null only when a concurrent
 * transaction stored a repeat first under a unique index this one then ran into (ON CONFLICT);
 * the caller looks again (findEarlierCall) once that one is visible.
 */
export async function storeCallUnlessRepeat(db: Queryable, row: NewVendorCall): Promise<{ storedId: string | null; earlierId: string | null }> {
  const c = row.call;
  const { rows } = await db.query<{ storedId: string | null; earlierId: string | null }>(
    `WITH earlier AS (${EARLIER_CALL}),
     stored AS (
       INSERT INTO vendor_calls
         (id, vendor_key_id, idempotency_key, first_name, last_name, phone, transcript, call_outcome, state,
          callback_time, agent_id, lead_quality, interest_level, disposition, received_at)
       SELECT $7, $1, $2, $8, $9, $3, $5, $10, $11, $4, $12, $13, $14, $15, $6
        WHERE NOT EXISTS (SELECT 1 FROM earlier)
       ON CONFLICT DO NOTHING
       RETURNING id)
     SELECT (SELECT id FROM stored) AS "storedId", (SELECT id FROM earlier) AS "earlierId"`,
    [...repeatParams(row), row.id, c.firstName, c.lastName, c.callOutcome, c.state, c.agentId, c.leadQuality, c.interestLevel, row.disposition],
  );
  return rows[0] ?? { storedId: null, earlierId: null };
}

export async function findEarlierCall(db: Queryable, row: NewVendorCall): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(EARLIER_CALL, repeatParams(row));
  return rows[0]?.id ?? null;
}
