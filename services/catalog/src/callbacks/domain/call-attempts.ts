import { randomUUID } from 'node:crypto';
import { CALL_CAP_WINDOW_HOURS, outsideCallingHours, prospectCallingHours, type CallAttemptAnswer, type CallAttemptBody } from '@warmline/contracts';
import { withTransaction } from '@warmline/platform/db/index';
import { notFound } from '@warmline/platform/errors';
import { attemptsSince, insertCallAttempt } from '../db/call-attempts';
import { findCallbackOpportunity } from '../db/callback-opportunities';
import type { CallbackContext } from './callbacks';

const HOUR_MS = 3_600_000;

/** Where the 3-in-24-hours rule starts counting at `now`. */
export function capWindowStart(now: Date): Date {
  return new Date(now.getTime() - CALL_CAP_WINDOW_HOURS * HOUR_MS);
}

/**
 * `POST /api/my-callbacks/{id}/attempts` (issue 24 §3): the agent called the prospect of one of
 * their call-backs. The call is recorded whatever the clock says (the log is what happened); the
 * answer says whether it was allowed when made, counting the calls logged before it, and the
 * prospect's hours now, counting it. The call-back's row is locked, so two calls logged at once
 * are counted one after the other. Not the agent's call-back: not found.
 */
export async function logCallbackAttempt(ctx: CallbackContext, agent: { userId: string }, callbackId: string, body: CallAttemptBody): Promise<CallAttemptAnswer> {
  const now = ctx.clock();
  return withTransaction(ctx.pool, async (db) => {
    const row = await findCallbackOpportunity(db, callbackId, { forUpdate: true });
    if (!row || row.assignedUserId !== agent.userId || (row.status !== 'assigned' && row.status !== 'contacted')) throw notFound('Call-back not found');
    const before = (await attemptsSince(db, callbackId, agent.userId, capWindowStart(now)))?.count ?? 0;
    const when = prospectCallingHours(row.state, row.phone, now, before);
    const outside = outsideCallingHours(row.state, row.phone, now) ?? true;
    const attempt = { id: randomUUID(), callbackId, outcome: body.outcome ?? null, note: body.note || null, at: now };
    await insertCallAttempt(db, { ...attempt, agentUserId: agent.userId, allowedWhenMade: when.callableNow, outsideCallingHours: outside });
    const after = prospectCallingHours(row.state, row.phone, now, before + 1);
    let message = 'Recorded.';
    if (outside) message = `Recorded — this call was outside calling hours: it was ${when.localTime} for the prospect.`;
    else if (!when.callableNow) message = `Recorded — this call was over the limit: ${when.callingHoursNote ?? 'not callable'}.`;
    return {
      attempt: { ...attempt, at: now.toISOString() },
      allowedWhenMade: when.callableNow,
      outsideCallingHours: outside,
      message,
      attemptsLast24h: before + 1,
      ...after,
    };
  });
}
