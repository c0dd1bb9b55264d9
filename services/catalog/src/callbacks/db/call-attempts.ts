import type { CallAttemptOutcome } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform/db/index';

/** The calls agents log on their call-backs (issue 24 §3). Every query is bound to the agent. */

export interface CallAttemptRow {
  id: string;
  callbackId: string;
  outcome: CallAttemptOutcome | null;
  note: string | null;
  at: Date;
}

export interface RecentAttempts {
  count: number;
  last: Date;
}

/** Per call-back of this agent: their logged calls since `since`, and the newest one's time. One query for the whole list. */
export async function recentAttemptsOfAgent(db: Queryable, agentUserId: string, since: Date): Promise<Map<string, RecentAttempts>> {
  const { rows } = await db.query<{ callbackId: string; count: number; last: Date }>(
    `SELECT callback_opportunity_id AS "callbackId", count(*)::int AS count, max(at) AS last
       FROM callback_call_attempts WHERE agent_user_id = $1 AND at > $2
      GROUP BY callback_opportunity_id`,
    [agentUserId, since],
  );
  return new Map(rows.map((r) => [r.callbackId, { count: r.count, last: r.last }]));
}

/** This agent's logged calls on one call-back since `since`. */
export async function attemptsSince(db: Queryable, callbackId: string, agentUserId: string, since: Date): Promise<RecentAttempts | null> {
  const { rows } = await db.query<{ count: number; last: Date | null }>(
    `SELECT count(*)::int AS count, max(at) AS last FROM callback_call_attempts
      WHERE callback_opportunity_id = $1 AND agent_user_id = $2 AND at > $3`,
    [callbackId, agentUserId, since],
  );
  const row = rows[0];
  return row && row.last ? { count: row.count, last: row.last } : null;
}

export async function insertCallAttempt(
  db: Queryable,
  attempt: CallAttemptRow & { agentUserId: string; allowedWhenMade: boolean; outsideCallingHours: boolean },
): Promise<void> {
  await db.query(
    `INSERT INTO callback_call_attempts (id, callback_opportunity_id, agent_user_id, outcome, note, at, allowed_when_made, outside_calling_hours)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [attempt.id, attempt.callbackId, attempt.agentUserId, attempt.outcome, attempt.note, attempt.at, attempt.allowedWhenMade, attempt.outsideCallingHours],
  );
}
