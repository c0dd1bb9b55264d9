import { createHash } from 'node:crypto';
import type { RouteRefusalReason } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform/db/index';

/**
 * Routing's queries (issue 23 §3, docs/adr/0031). Eligibility is one SQL expression, used twice:
 * to list candidates without locks, and again for the chosen agent after their row is locked
 * (a new statement, so it sees every decision committed before the lock was granted).
 */

/**
 * The transaction-scoped advisory lock on one vendor key's call_id, sent with BEGIN: two copies
 * of one call decide one after the other, the second reading the first's decision. The key is a
 * number made from the ids, never caller text.
 */
export function callLockStatement(vendorKeyId: string, callId: string): string {
  const key = createHash('sha256').update(`${vendorKeyId}\u0000${callId}`).digest().readBigInt64BE(0);
  return `SELECT pg_advisory_xact_lock('${key.toString()}'::bigint)`;
}

export type EarlierDecision =
  | { routed: true; transferId: string; agentName: string; transferPhone: string; expiresAt: Date }
  | { routed: false; reason: RouteRefusalReason };

/**
 * What was decided before for this call (routed or refused), whether the phone is suppressed, and
 * how many transfers it had since `capSince` (issue 24: a state's 3-calls-in-24-hours cap; counted
 * up to 3, by the phone's index): one round trip.
 */
export async function earlierDecisionAndSuppression(
  db: Queryable,
  vendorKeyId: string,
  callId: string,
  phone: string,
  capSince: Date,
): Promise<{ earlier: EarlierDecision | null; suppressed: boolean; recentTransfers: number }> {
  const { rows } = await db.query<{
    transferId: string | null;
    agentName: string | null;
    transferPhone: string | null;
    expiresAt: Date | null;
    reason: RouteRefusalReason | null;
    suppressed: boolean;
    recentTransfers: number;
  }>(
    `SELECT t.id AS "transferId", a.display_name AS "agentName", a.transfer_phone AS "transferPhone", t.expires_at AS "expiresAt",
            r.reason, COALESCE((SELECT s.suppressed FROM suppressed_phones s WHERE s.phone = $3), false) AS suppressed,
            (SELECT count(*)::int FROM (SELECT 1 FROM transfers c WHERE c.phone = $3 AND c.routed_at > $4 LIMIT 3) c) AS "recentTransfers"
       FROM (SELECT 1) one
       LEFT JOIN transfers t ON t.vendor_key_id = $1 AND t.call_id = $2
       LEFT JOIN agents a ON a.user_id = t.agent_id
       LEFT JOIN route_refusals r ON r.vendor_key_id = $1 AND r.call_id = $2`,
    [vendorKeyId, callId, phone, capSince],
  );
  const row = rows[0]!;
  let earlier: EarlierDecision | null = null;
  if (row.transferId) {
    earlier = { routed: true, transferId: row.transferId, agentName: row.agentName ?? '', transferPhone: row.transferPhone ?? '', expiresAt: row.expiresAt! };
  } else if (row.reason) {
    earlier = { routed: false, reason: row.reason };
  }
  return { earlier, suppressed: row.suppressed, recentTransfers: row.recentTransfers };
}

/** The conditions that change only with a write to the agent's row (agent_rotation holds them too). */
const ROUTABLE = `balance > 0 AND NOT paused AND deleted_at IS NULL
             AND states @> ARRAY[$2::text] AND transfer_phone IS NOT NULL AND time_zone IS NOT NULL`;
const AGENT_COLUMNS = 'user_id, display_name, transfer_phone, time_zone, hours, states, balance, at_once, daily_cap';

/**
 * Every routable agent of the prospect's state ($2), the longest waiting (never routed first)
 * first, ties by id: agent_rotation's index (state, last_routed_at, agent_id) hands them over in
 * that order, each agent's row read by its key as it is needed, so a LIMIT above stops the scan
 * (docs/adr/0056). The table is kept by a trigger on agents in the writer's statement; the
 * conditions are checked on the agent's row as well, so a row it might wrongly hold adds nobody.
 * OFFSET 0 keeps the agent's read a lookup per row instead of a join the planner could hash.
 * `LIMIT (SELECT NULL::bigint)` is no limit at all: a limit the planner cannot estimate makes it
 * plan this walk for a fraction of its rows, so it keeps the index's order instead of reading the
 * whole state and sorting it (which it chose for the statement's first, custom plans).
 */
const ROTATION = `SELECT a.* FROM agent_rotation r
           CROSS JOIN LATERAL (SELECT ${AGENT_COLUMNS} FROM agents WHERE user_id = r.agent_id AND ${ROUTABLE} OFFSET 0) a
           WHERE r.state = $2::text
           ORDER BY r.last_routed_at ASC NULLS FIRST, r.agent_id
           LIMIT (SELECT NULL::bigint)`;

/** The one agent $5 if the same conditions hold (the re-check under their row's lock). */
const ONE_AGENT = `SELECT ${AGENT_COLUMNS} FROM agents WHERE user_id = $5::uuid AND ${ROUTABLE}`;

/**
 * The agents who may take this prospect now ($1 now, $2 state, $3 phone, $4 the repeat window's
 * start), of `routable` (ROTATION or ONE_AGENT): balance beyond their live reservations, the
 * state, now inside their weekly hours in their zone (DST by PostgreSQL's zone data), today's
 * transfers in their own day under the cap, not paused or deleted, under their at-once limit,
 * and not sent this phone within the repeat window. An expired reservation no longer counts as
 * in flight; today's count leaves out calls that never connected and reservations that lapsed.
 *
 * The cheap conditions (state, balance, pause) pick and order the agents in a subquery kept
 * apart (OFFSET 0); the rest are checked on them in that order only until the LIMIT is met, so
 * a state with thousands of agents costs a few dozen checks, not thousands.
 */
function eligibleSql(routable: string, tail: string): string {
  return `
  SELECT a.user_id AS "userId", a.display_name AS "displayName", a.transfer_phone AS "transferPhone",
         (($1::timestamptz AT TIME ZONE a.time_zone)::date)::text AS "agentDate",
         a.states AS "agentStates", a.hours AS "agentHours", a.time_zone AS "agentTimeZone"
    FROM (${routable}
          OFFSET 0) a
   CROSS JOIN LATERAL (SELECT $1::timestamptz AT TIME ZONE a.time_zone AS local) l
   WHERE EXISTS (
       SELECT 1 FROM jsonb_array_elements(a.hours) h
        WHERE h->>'day' = lower(to_char(l.local, 'Dy'))
          AND (h->>'from') COLLATE "C" <= to_char(l.local, 'HH24:MI') COLLATE "C"
          AND to_char(l.local, 'HH24:MI') COLLATE "C" < (h->>'to') COLLATE "C")
     AND (SELECT count(*) FROM transfers f WHERE f.agent_id = a.user_id AND f.status = 'routed' AND f.expires_at > $1)
         < LEAST(a.balance, a.at_once)
     AND (a.daily_cap IS NULL OR (
       SELECT count(*) FROM transfers d
        WHERE d.agent_id = a.user_id AND d.agent_date = l.local::date
          AND d.status <> 'not_connected' AND NOT (d.status = 'routed' AND d.expires_at <= $1)) < a.daily_cap)
     AND NOT EXISTS (
       SELECT 1 FROM transfers p WHERE p.phone = $3 AND p.agent_id = a.user_id AND p.routed_at > $4 AND p.status <> 'not_connected')
  ${tail}`;
}

export interface RoutingAsk {
  now: Date;
  state: string;
  phone: string;
  repeatSince: Date;
}

const askParams = (ask: RoutingAsk) => [ask.now, ask.state, ask.phone, ask.repeatSince];

/**
 * Up to `limit` eligible agents, the longest waiting (never routed first) first, ties by id, less
 * those already `tried`; and, in the same round trip, the first of them nobody else is deciding
 * for, locked (SKIP LOCKED), or null when every one is.
 */
export async function lookAndLock(db: Queryable, ask: RoutingAsk, limit: number, tried: readonly string[]): Promise<{ candidates: string[]; locked: string | null }> {
  // A named statement: PostgreSQL plans this long query once per connection, not on every decision.
  const { rows } = await db.query<{ candidates: string[]; locked: string | null }>({
    name: 'transfers.look-and-lock',
    text: `WITH looked AS (
             SELECT e."userId", row_number() OVER () AS n FROM (${eligibleSql(ROTATION, 'LIMIT $5')}) e),
           candidates AS (
             SELECT COALESCE(array_agg("userId" ORDER BY n), '{}') AS ids FROM looked WHERE "userId" <> ALL($6::uuid[])),
           locked AS (
             SELECT user_id FROM agents WHERE user_id = ANY((SELECT ids FROM candidates)::uuid[])
              ORDER BY array_position((SELECT ids FROM candidates), user_id) LIMIT 1 FOR UPDATE SKIP LOCKED)
           SELECT (SELECT ids FROM candidates)::text[] AS candidates, (SELECT user_id FROM locked)::text AS locked`,
    values: [...askParams(ask), Math.trunc(limit), tried],
  });
  return { candidates: rows[0]?.candidates ?? [], locked: rows[0]?.locked ?? null };
}

/**
 * Locks the first of these agents nobody else is deciding for (SKIP LOCKED), or with `wait`
 * the first one, waiting for its lock; its id, or null.
 */
export async function lockCandidate(db: Queryable, agentIds: readonly string[], wait: boolean): Promise<string | null> {
  if (agentIds.length === 0) return null;
  const { rows } = await db.query<{ userId: string }>(
    `SELECT user_id AS "userId" FROM agents WHERE user_id = ANY($1::uuid[])
      ORDER BY array_position($1::uuid[], user_id) LIMIT 1 FOR UPDATE${wait ? '' : ' SKIP LOCKED'}`,
    [wait ? agentIds.slice(0, 1) : agentIds],
  );
  return rows[0]?.userId ?? null;
}

export interface NewTransfer {
  id: string;
  vendorKeyId: string;
  callId: string;
  firstName: string;
  lastName: string;
  leadType: string | null;
  expiresAt: Date;
}

/**
 * With the agent's row locked: if they are still eligible, inserts the transfer (routed, their
 * slot held until expiresAt, their own date, and their states, hours and zone at this moment, by
 * which a dispute of it is decided) and moves their rotation clock, in one statement.
 * Null when they are no longer eligible.
 */
export async function reserveAgent(
  db: Queryable,
  ask: RoutingAsk,
  agentId: string,
  transfer: NewTransfer,
): Promise<{ displayName: string; transferPhone: string } | null> {
  const { rows } = await db.query<{ displayName: string; transferPhone: string }>(
    `WITH e AS (${eligibleSql(ONE_AGENT, '')}),
     inserted AS (
       INSERT INTO transfers (id, vendor_key_id, call_id, agent_id, first_name, last_name, phone, state, lead_type, status, routed_at, expires_at, agent_date,
                              agent_states, agent_hours, agent_time_zone)
       SELECT $6, $7, $8, e."userId", $9, $10, $3, $2, $11, 'routed', $1, $12, e."agentDate"::date,
              e."agentStates", e."agentHours", e."agentTimeZone" FROM e
       RETURNING agent_id),
     rotated AS (UPDATE agents SET last_routed_at = $1 WHERE user_id = (SELECT agent_id FROM inserted))
     SELECT e."displayName", e."transferPhone" FROM e JOIN inserted ON inserted.agent_id = e."userId"`,
    [...askParams(ask), agentId, transfer.id, transfer.vendorKeyId, transfer.callId, transfer.firstName, transfer.lastName, transfer.leadType, transfer.expiresAt],
  );
  return rows[0] ?? null;
}

/** Records that no agent got this call, so a repeat of its call_id answers the same. */
export async function recordRefusal(
  db: Queryable,
  refusal: { vendorKeyId: string; callId: string; reason: RouteRefusalReason; phone: string; state: string; at: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO route_refusals (vendor_key_id, call_id, reason, phone, state, at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (vendor_key_id, call_id) DO NOTHING`,
    [refusal.vendorKeyId, refusal.callId, refusal.reason, refusal.phone, refusal.state, refusal.at],
  );
}
