import { randomUUID } from 'node:crypto';
import {
  ADJUSTMENT_BELOW_ZERO_MESSAGE,
  DEFAULT_LIVE_TRANSFER_PRICE_CENTS,
  DISPUTE_REASON_LABELS,
  TRANSFERS_PAGE_SIZE,
  type AdminTransferAgent,
  type AdminTransferDispute,
  type AdminTransferRevenueAnswer,
  type AdminTransfersAnswer,
  type DisputeStatus,
  type IdleReason,
  type TransferCreditAdjustmentAnswer,
  type TransferStatus,
} from '@warmline/contracts';
import { recordAdminAction } from '@warmline/platform/bus/admin-audit';
import { withTransaction } from '@warmline/platform/db/index';
import { conflict, notFound } from '@warmline/platform/errors';
import { creditLot, ensureAgent, lockAgent, takeBackFromLot } from '../db/ledger';
import { adminAgents, agentName, latestLotPrice, newestOpenLots, revenueByDay, type AdminAgentRow } from '../db/admin-transfers';
import { listDisputes } from '../db/disputes';
import { listTransfers } from '../db/my-transfers';
import { SOURCE, type TransfersContext } from './context';
import type { Admin } from './disputes';
import { localTime, withinHours } from './hours';
import { transferView } from './my-transfers';

/**
 * The admin's Transfers tab (issue 23 §7): the day's transfers, every agent and why they are
 * idle, revenue beside cash, the dispute queue, and balance adjustments (audited).
 */

const DAY_MS = 86_400_000;
const REVENUE_DAYS = 30;
const DISPUTES_LIMIT = 500;

/** The business day's transfers with their agent, newest first. */
export async function adminTransfers(ctx: TransfersContext, query: { date?: string | undefined; status?: TransferStatus | undefined; page: number }): Promise<AdminTransfersAnswer> {
  const now = ctx.clock();
  const date = query.date ?? localTime(now, ctx.businessTimeZone).date;
  const { rows, total } = await listTransfers(
    ctx.pool,
    { timeZone: ctx.businessTimeZone, from: date, to: date, ...(query.status ? { status: query.status } : {}) },
    { limit: TRANSFERS_PAGE_SIZE, offset: (query.page - 1) * TRANSFERS_PAGE_SIZE },
  );
  return {
    date,
    transfers: rows.map((r) => ({ ...transferView(r, now), agent: { id: r.agentId, name: r.agentName || r.agentId } })),
    total,
    page: query.page,
    pageSize: TRANSFERS_PAGE_SIZE,
  };
}

/**
 * Why an agent can take no transfer now, by the rules routing applies (settings, pause, states,
 * hours in their zone, today's cap in their own day, transfers at once). Empty: they can.
 */
function idleReasons(agent: AdminAgentRow, now: Date): IdleReason[] {
  if (!agent.transferPhone || !agent.timeZone) return agent.balance > 0 ? ['no_settings'] : ['no_settings', 'no_balance'];
  const reasons: IdleReason[] = [];
  if (agent.balance === 0) reasons.push('no_balance');
  if (agent.paused) reasons.push('paused');
  if (agent.states.length === 0) reasons.push('no_states');
  if (!withinHours(agent.hours, agent.timeZone, now)) reasons.push('outside_hours');
  if (agent.dailyCap !== null && agent.today >= agent.dailyCap) reasons.push('cap_reached');
  // Routing holds at most min(balance, at once): with every transfer left reserved they take no more either.
  if (agent.balance > 0 && agent.inFlight >= Math.min(agent.atOnce, agent.balance)) reasons.push('at_once_limit');
  return reasons;
}

export async function adminTransferAgents(ctx: TransfersContext): Promise<AdminTransferAgent[]> {
  const now = ctx.clock();
  const rows = await adminAgents(ctx.pool, now, ctx.businessTimeZone);
  return rows.map((a) => ({
    id: a.userId,
    name: a.displayName || a.userId,
    balance: a.balance,
    inFlight: a.inFlight,
    today: a.today,
    dailyCap: a.dailyCap,
    atOnce: a.atOnce,
    timeZone: a.timeZone,
    states: a.states,
    hours: a.hours,
    paused: a.paused,
    idleReasons: idleReasons(a, now),
    lastTransferAt: a.lastRoutedAt?.toISOString() ?? null,
  }));
}

/**
 * Revenue per business day over 30 days (docs/adr/0032): earned = what the transfers charged that
 * day were bought at, less the transfers disputes credited back that day; cash = what was paid
 * for the order lots credited that day, less refunds of them that day.
 */
export async function adminTransferRevenue(ctx: TransfersContext): Promise<AdminTransferRevenueAnswer> {
  const today = localTime(ctx.clock(), ctx.businessTimeZone).date;
  const first = new Date(Date.parse(`${today}T00:00:00Z`) - (REVENUE_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  const rows = await revenueByDay(ctx.pool, first, today, ctx.businessTimeZone);
  const days = rows.map((r) => ({
    date: r.date,
    chargedTransfers: r.chargedTransfers,
    earnedCents: r.chargedCents - r.creditedBackCents,
    cashCents: r.paidCents - r.refundedCents,
    refundedCents: r.refundedCents,
  }));
  return {
    timeZone: ctx.businessTimeZone,
    days,
    totals: {
      earnedCents: days.reduce((s, d) => s + d.earnedCents, 0),
      cashCents: days.reduce((s, d) => s + d.cashCents, 0),
      refundedCents: days.reduce((s, d) => s + d.refundedCents, 0),
    },
  };
}

export async function adminTransferDisputes(ctx: TransfersContext, status: DisputeStatus | undefined): Promise<AdminTransferDispute[]> {
  const now = ctx.clock();
  const rows = await listDisputes(ctx.pool, status, DISPUTES_LIMIT);
  return rows.map((r) => ({
    id: r.disputeId,
    reason: r.disputeReason,
    reasonLabel: DISPUTE_REASON_LABELS[r.disputeReason],
    note: r.disputeNote,
    status: r.disputeStatus,
    openedAt: r.openedAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
    decisionReason: r.decisionReason,
    transfer: transferView(r, now),
    agent: { id: r.agentId, name: r.agentName || r.agentId },
  }));
}

/**
 * `POST /api/admin/users/{id}/transfer-credits`: a positive count is an 'adjustment' lot at the
 * price given, else the agent's latest lot's, else the default; a negative one takes back from
 * the newest lots first and never below zero (409). Audited in the same transaction.
 */
export async function adjustTransferCredits(
  ctx: TransfersContext,
  admin: Admin,
  agentId: string,
  adjustment: { transfers: number; reason: string; unitCents?: number | undefined },
  correlationId: string,
): Promise<TransferCreditAdjustmentAnswer> {
  const profile = await ctx.gateway.agentProfile(agentId, correlationId).catch((err: unknown) => {
    ctx.log.warn({ err, agentId }, "the gateway did not say whether the agent exists; the adjustment goes ahead");
    return undefined;
  });
  if (profile === null) throw notFound('User not found');
  const now = ctx.clock();
  const id = randomUUID();
  return withTransaction(ctx.pool, async (db) => {
    if (adjustment.transfers < 0 && !(await lockAgent(db, agentId))) throw conflict(ADJUSTMENT_BELOW_ZERO_MESSAGE);
    await ensureAgent(db, agentId);
    const before = (await lockAgent(db, agentId))!.balance;
    if (adjustment.transfers > 0) {
      const unitCents = adjustment.unitCents ?? (await latestLotPrice(db, agentId)) ?? DEFAULT_LIVE_TRANSFER_PRICE_CENTS;
      await creditLot(db, {
        agentId,
        source: 'adjustment',
        orderId: null,
        description: `Adjustment: ${adjustment.reason}`,
        unitCents,
        paidCents: 0,
        transfers: adjustment.transfers,
        at: now,
        kind: 'adjustment',
        cause: adjustment.reason,
        causeId: id,
        actorId: admin.userId,
      });
    } else {
      let due = -adjustment.transfers;
      if (before < due) throw conflict(ADJUSTMENT_BELOW_ZERO_MESSAGE);
      for (const lot of await newestOpenLots(db, agentId)) {
        if (due === 0) break;
        due -= await takeBackFromLot(db, { lotId: lot.id, transfers: Math.min(due, lot.remaining), kind: 'adjustment', cause: adjustment.reason, causeId: id, actorId: admin.userId, at: now });
      }
    }
    const after = (await lockAgent(db, agentId))!.balance;
    const name = profile ? `${profile.firstName} ${profile.lastName}`.trim() : await agentName(db, agentId);
    await recordAdminAction(db, {
      source: SOURCE,
      actor: admin,
      action: 'transfer_credits.adjusted',
      subjectType: 'user',
      subjectId: agentId,
      subjectLabel: profile ? `${name} (${profile.email})` : name || agentId,
      before: { balance: before },
      after: { balance: after, transfers: adjustment.transfers },
      reason: adjustment.reason,
      at: now,
      correlationId,
    });
    return { agentId, transfers: adjustment.transfers, balance: after };
  });
}
