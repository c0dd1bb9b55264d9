import { randomUUID } from 'node:crypto';
import {
  AUTOMATIC_LEAD_RETURN_REASONS,
  LEAD_RETURN_MESSAGES,
  LEAD_RETURN_PAGE_SIZE,
  LEAD_RETURN_RATE_DAYS,
  LEAD_RETURN_REASON_LABELS,
  LEAD_RETURN_WINDOW_MS,
  leadReturnRate,
  leadReturnRefundKey,
  returnDollars,
  type AdminLeadReturn,
  type AdminLeadReturnsPage,
  type EventData,
  type LeadReturnReason,
  type LeadReturnStatus,
  type MyLeadReturn,
} from '@warmline/contracts';
import { enqueue } from '@warmline/platform/bus/index';
import { withTransaction, type Queryable } from '@warmline/platform/db/index';
import { conflict, notFound } from '@warmline/platform/errors';
import type { Logger } from '@warmline/platform/log';
import { registryChecksOf } from '../../suppressions/db/read-models/registry-checks';
import {
  boughtSamePhoneBefore,
  decideReturn,
  findReturnOfLead,
  insertReturn,
  returnedLeadFacts,
  isPhoneSuppressed,
  listReturns,
  lockBuyersLead,
  lockReturn,
  markLeadReturned,
  recordReturnRefund,
  returnCountsSince,
  type LeadReturnRow,
  type ReturnableLead,
} from '../db/lead-returns';
import { recordAdminAction } from '@warmline/platform/bus/admin-audit';
import type { ActingAdmin } from '@warmline/platform/identity';
import { SOURCE, type CatalogContext } from '../../domain/context';
import { DAY_MS } from './lead-age';
import { formatPhone } from './masking';

/**
 * Lead returns (issue 24 item 5, docs/adr/0034). A buyer returns one of their leads within
 * LEAD_RETURN_WINDOW_DAYS of its sale, once. A reason the records can prove (duplicate, DNC
 * registry, opted out) is accepted at once when they do; when they do not, or for any other
 * reason, the return waits for an admin. Accepting marks the lead returned (it stays sold to its
 * buyer, so it is never sold again) and asks orders, in the same transaction, to refund its
 * price once (lead_return.refund); orders' payment.refunded tells when the money went back.
 */

export interface Buyer {
  userId: string;
  username: string;
}

export async function returnLead(
  ctx: CatalogContext,
  buyer: Buyer,
  leadId: string,
  input: { reason: LeadReturnReason; note?: string | undefined },
  correlationId: string,
): Promise<MyLeadReturn> {
  const now = ctx.clock();
  const row = await withTransaction(ctx.pool, async (db) => {
    const lead = await lockBuyersLead(db, leadId, buyer.userId);
    if (!lead) throw notFound(LEAD_RETURN_MESSAGES.notFound);
    const earlier = await findReturnOfLead(db, lead.id);
    if (earlier) throw conflict(alreadyMessage(earlier.status), { status: earlier.status });
    // Inclusive: a lead bought at 10:00 on the 1st may be returned until 10:00 on the 11th.
    if (now.getTime() > lead.soldAt.getTime() + LEAD_RETURN_WINDOW_MS) throw conflict(LEAD_RETURN_MESSAGES.tooLate);

    const backed = AUTOMATIC_LEAD_RETURN_REASONS.includes(input.reason) ? await recordsBack(db, lead, input.reason) : null;
    const created = await insertReturn(db, {
      id: randomUUID(),
      leadId: lead.id,
      buyerUserId: buyer.userId,
      buyerUsername: buyer.username,
      orderId: lead.soldOrderId,
      priceCents: lead.soldPriceCents,
      reason: input.reason,
      note: input.note ? input.note : null,
      recordsBackIt: backed,
      status: backed ? 'accepted' : 'pending',
      automatic: backed === true,
      requestedAt: now,
      decidedAt: backed ? now : null,
    });
    if (backed) await acceptInTransaction(db, created, now, correlationId);
    return created;
  });
  ctx.log.info({ leadId, returnId: row.id, reason: row.reason, status: row.status }, 'lead returned');
  return myReturnView(row);
}

function alreadyMessage(status: LeadReturnStatus): string {
  if (status === 'pending') return LEAD_RETURN_MESSAGES.alreadyPending;
  if (status === 'accepted') return LEAD_RETURN_MESSAGES.alreadyReturned;
  return LEAD_RETURN_MESSAGES.alreadyRefused;
}

/** Whether the records prove a machine-checkable reason, now. */
async function recordsBack(db: Queryable, lead: ReturnableLead, reason: LeadReturnReason): Promise<boolean> {
  if (reason === 'duplicate') return boughtSamePhoneBefore(db, lead);
  if (reason === 'opted_out') return isPhoneSuppressed(db, lead.phone);
  if (reason === 'dnc_registry') {
    if (lead.dncRegistryMatchAtSale === true) return true;
    const check = (await registryChecksOf(db, [lead.phone])).get(lead.phone);
    return check?.onRegistry === true;
  }
  return false;
}

/** The lead leaves the active list and orders is asked to refund its price, in the accepting transaction. */
async function acceptInTransaction(db: Queryable, row: LeadReturnRow, at: Date, correlationId: string): Promise<void> {
  await markLeadReturned(db, row.leadId, at);
  await enqueue(db, {
    type: 'lead_return.refund',
    source: SOURCE,
    correlationId,
    data: {
      returnId: row.id,
      leadId: row.leadId,
      orderId: row.orderId,
      buyerUserId: row.buyerUserId,
      amountCents: row.priceCents,
      reasonLabel: LEAD_RETURN_REASON_LABELS[row.reason],
      acceptedAt: at.toISOString(),
    },
  });
}

export async function decideLeadReturn(
  ctx: CatalogContext,
  admin: ActingAdmin,
  returnId: string,
  decision: { decision: 'accept' | 'refuse'; reason?: string | undefined },
  correlationId: string,
): Promise<AdminLeadReturn> {
  const now = ctx.clock();
  const decided = await withTransaction(ctx.pool, async (db) => {
    const pending = await lockReturn(db, returnId);
    if (!pending) throw notFound(LEAD_RETURN_MESSAGES.returnNotFound);
    if (pending.status !== 'pending') throw conflict(LEAD_RETURN_MESSAGES.decided, { status: pending.status });
    const status = decision.decision === 'accept' ? 'accepted' : 'refused';
    const row = await decideReturn(db, pending.id, { status, at: now, byUserId: admin.userId, byUsername: admin.username, reason: decision.reason || null });
    if (status === 'accepted') await acceptInTransaction(db, row, now, correlationId);
    await recordAdminAction(db, {
      source: SOURCE,
      actor: admin,
      correlationId,
      action: status === 'accepted' ? 'lead_return.accepted' : 'lead_return.refused',
      subjectType: 'lead_return',
      subjectId: row.id,
      subjectLabel: `${LEAD_RETURN_REASON_LABELS[row.reason]} — lead ${row.leadId} bought by ${row.buyerUsername}`,
      before: { status: 'pending' },
      after: { status, ...(status === 'accepted' ? { refundCents: row.priceCents } : {}) },
      ...(decision.reason ? { reason: decision.reason } : {}),
      at: now,
    });
    return row;
  });
  ctx.log.info({ returnId, status: decided.status, adminId: admin.userId }, 'lead return decided');
  const page = await adminViews(ctx, ctx.pool, [{ ...decided, ...(await returnedLeadFacts(ctx.pool, decided.leadId)) }]);
  return page[0]!;
}

export async function listLeadReturns(ctx: CatalogContext, query: { status: LeadReturnStatus; page: number }): Promise<AdminLeadReturnsPage> {
  const { rows, total } = await listReturns(ctx.pool, query.status, { offset: (query.page - 1) * LEAD_RETURN_PAGE_SIZE, limit: LEAD_RETURN_PAGE_SIZE });
  return { returns: await adminViews(ctx, ctx.pool, rows), total, page: query.page, pageSize: LEAD_RETURN_PAGE_SIZE };
}

async function adminViews(
  ctx: CatalogContext,
  db: Queryable,
  rows: Array<LeadReturnRow & { leadName: string; leadPhone: string; leadState: string; soldAt: Date }>,
): Promise<AdminLeadReturn[]> {
  const since = new Date(ctx.clock().getTime() - LEAD_RETURN_RATE_DAYS * DAY_MS);
  const counts = await returnCountsSince(db, rows.map((r) => r.buyerUserId), since);
  return rows.map((r) => {
    const c = counts.get(r.buyerUserId) ?? { returned: 0, bought: 0 };
    return {
      ...myReturnView(r),
      lead: { id: r.leadId, name: r.leadName, phone: formatPhone(r.leadPhone), state: r.leadState },
      orderId: r.orderId,
      purchasedAt: r.soldAt.toISOString(),
      buyer: { userId: r.buyerUserId, username: r.buyerUsername, returnRate: leadReturnRate(c.returned, c.bought) },
      recordsBackIt: r.recordsBackIt,
      decidedBy: r.decidedByUserId ? { userId: r.decidedByUserId, username: r.decidedByUsername ?? r.decidedByUserId } : null,
    };
  });
}

export function myReturnView(r: LeadReturnRow): MyLeadReturn {
  return {
    id: r.id,
    leadId: r.leadId,
    reason: r.reason,
    reasonLabel: LEAD_RETURN_REASON_LABELS[r.reason],
    note: r.note,
    status: r.status,
    automatic: r.automatic,
    requestedAt: r.requestedAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
    decisionReason: r.decisionReason,
    priceCents: r.priceCents,
    refundedAt: r.refundedAt?.toISOString() ?? null,
    refundedCents: r.refundedCents,
    message: buyerMessage(r),
  };
}

function buyerMessage(r: LeadReturnRow): string {
  if (r.status === 'pending') return LEAD_RETURN_MESSAGES.pending;
  if (r.status === 'refused') return `Return refused: ${r.decisionReason ?? ''}`.trim();
  return `Returned — ${returnDollars(r.refundedCents ?? r.priceCents)} refunded`;
}

/**
 * payment.refunded: a refund asked with a lead return's key marks that return refunded
 * (the first report; a redelivery changes nothing). Other refunds pass by.
 */
export async function recordLeadReturnRefunded(db: Queryable, deps: { log: Logger }, refund: EventData<'payment.refunded'>): Promise<void> {
  const prefix = leadReturnRefundKey('');
  const key = refund.refundKey;
  if (!key?.startsWith(prefix)) return;
  const leadId = key.slice(prefix.length);
  if (await recordReturnRefund(db, leadId, refund.amountCents, new Date(refund.refundedAt))) {
    deps.log.info({ leadId, amountCents: refund.amountCents }, 'lead return refunded');
  }
}
