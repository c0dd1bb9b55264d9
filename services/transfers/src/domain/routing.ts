import { randomUUID } from 'node:crypto';
import {
  CALL_CAP_WINDOW_HOURS,
  callingHoursRuleOf,
  stateOfAreaCode,
  TRANSFER_REPEAT_PHONE_DAYS,
  TRANSFER_RESERVATION_SECONDS,
  withinCallingHours,
  type RouteRefusalReason,
  type TransferRouteAnswer,
  type TransferRouteRequest,
  type UsStateCode,
} from '@warmline/contracts';
import { enqueue } from '@warmline/platform/bus/index';
import { withTransaction, type PoolClient } from '@warmline/platform/db/index';
import {
  callLockStatement,
  earlierDecisionAndSuppression,
  lockCandidate,
  lookAndLock,
  recordRefusal,
  reserveAgent,
  type RoutingAsk,
} from '../db/routing';
import { SOURCE, type TransfersContext } from './context';

/**
 * Where the vendor sends a qualified prospect (issue 23 §3, docs/adr/0031). One transaction per
 * decision: the call's earlier decision (a repeated call_id answers the same), the suppression
 * list, the prospect's calling hours, then the longest-waiting eligible agent, locked and checked
 * again under the lock, their slot reserved for TRANSFER_RESERVATION_SECONDS and transfer.routed
 * queued with it.
 */

/** Candidates read per look; a decision that finds all of them taken by concurrent ones looks again. */
const CANDIDATES_PER_LOOK = 20;
const LOOKS = 3;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const DEADLOCK = '40P01';
const RETRIES = 3;

/** The vendor asked without a state and the phone's area code names none. */
export class StateUnknown extends Error {}

/** Who the vendor is told to transfer to: the agent's name, or words that say nothing about them. */
function agentNameOf(displayName: string): string {
  return displayName.trim() || 'Your agent';
}

export async function routeTransfer(ctx: TransfersContext, vendorKeyId: string, ask: TransferRouteRequest, correlationId: string): Promise<TransferRouteAnswer> {
  const state = ask.state ?? stateOfAreaCode(ask.phone_number);
  if (!state) throw new StateUnknown();
  for (let attempt = 1; ; attempt++) {
    try {
      return await withTransaction(ctx.pool, (db) => decide(ctx, db, vendorKeyId, { ...ask, state }, correlationId), {
        atBegin: callLockStatement(vendorKeyId, ask.call_id),
      });
    } catch (err) {
      // Two decisions each waiting for an agent the other holds: PostgreSQL ends one; it decides again.
      if (attempt >= RETRIES || (err as { code?: string }).code !== DEADLOCK) throw err;
      ctx.log.warn({ attempt }, 'a routing decision met a deadlock; deciding again');
    }
  }
}

async function decide(
  ctx: TransfersContext,
  db: PoolClient,
  vendorKeyId: string,
  ask: TransferRouteRequest & { state: UsStateCode },
  correlationId: string,
): Promise<TransferRouteAnswer> {
  const now = ctx.clock();
  const { earlier, suppressed, recentTransfers } = await earlierDecisionAndSuppression(
    db,
    vendorKeyId,
    ask.call_id,
    ask.phone_number,
    new Date(now.getTime() - CALL_CAP_WINDOW_HOURS * HOUR_MS),
  );
  if (earlier?.routed) {
    return routedAnswer(earlier.transferId, earlier.transferPhone, earlier.agentName, earlier.expiresAt);
  }
  if (earlier) return { success: true, routed: false, reason: earlier.reason };

  const refuse = async (reason: RouteRefusalReason): Promise<TransferRouteAnswer> => {
    await recordRefusal(db, { vendorKeyId, callId: ask.call_id, reason, phone: ask.phone_number, state: ask.state, at: now });
    return { success: true, routed: false, reason };
  };
  if (suppressed) return refuse('suppressed');
  // The state's hours (8 pm in Florida, Oklahoma, Maryland; 9 pm elsewhere) and, where it caps
  // calls, the transfers this phone had in the last 24 hours: the vendor contract has one reason
  // for both (docs/adr/0036).
  if (!withinCallingHours(ask.state, ask.phone_number, now)) return refuse('outside_calling_hours');
  const cap = callingHoursRuleOf(ask.state).maxCallsPer24h;
  if (cap !== null && recentTransfers >= cap) return refuse('outside_calling_hours');

  const routing: RoutingAsk = { now, state: ask.state, phone: ask.phone_number, repeatSince: new Date(now.getTime() - TRANSFER_REPEAT_PHONE_DAYS * DAY_MS) };
  const transfer = {
    id: randomUUID(),
    vendorKeyId,
    callId: ask.call_id,
    firstName: ask.first_name,
    lastName: ask.last_name,
    leadType: ask.lead_type ?? null,
    expiresAt: new Date(now.getTime() + TRANSFER_RESERVATION_SECONDS * 1000),
  };
  const tried = new Set<string>();
  for (let look = 0; look < LOOKS; look++) {
    const { candidates, locked: lockedAtLook } = await lookAndLock(db, routing, CANDIDATES_PER_LOOK + tried.size, [...tried]);
    if (candidates.length === 0) break;
    let left = candidates;
    // The look locked the first one nobody else is deciding for, if there was one.
    let skipFree: string | null | undefined = lockedAtLook;
    while (left.length > 0) {
      // First one nobody else is deciding for; when every one is, wait for the first in line:
      // a decision never skips an agent just because a concurrent one is looking at them.
      const free = skipFree === undefined ? await lockCandidate(db, left, false) : skipFree;
      skipFree = undefined;
      const locked = free ?? (await lockCandidate(db, left, true));
      if (!locked) {
        left = left.slice(1);
        continue;
      }
      tried.add(locked);
      left = left.filter((id) => id !== locked);
      const agent = await reserveAgent(db, routing, locked, transfer);
      if (!agent) continue;
      await enqueue(db, {
        type: 'transfer.routed',
        source: SOURCE,
        correlationId,
        data: {
          transferId: transfer.id,
          agentUserId: locked,
          vendorKeyId,
          state: ask.state,
          leadType: transfer.leadType,
          routedAt: now.toISOString(),
          expiresAt: transfer.expiresAt.toISOString(),
        },
      });
      return routedAnswer(transfer.id, agent.transferPhone, agent.displayName, transfer.expiresAt);
    }
  }
  return refuse('no_agent_available');
}

/** The vendor dials transfer_phone: 10 digits, no punctuation (docs/adr/0031). */
function routedAnswer(transferId: string, transferPhone: string, displayName: string, expiresAt: Date): TransferRouteAnswer {
  return { success: true, routed: true, transfer_id: transferId, transfer_phone: transferPhone, agent_name: agentNameOf(displayName), expires_at: expiresAt.toISOString() };
}
