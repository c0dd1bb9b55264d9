import {
  PHONE_RULE_MESSAGE,
  SUPPRESSION_PAGE_SIZE,
  normaliseUsPhone,
  type CommandData,
  type OptOutSource,
  type SuppressionCreated,
  type SuppressionImportResult,
  type SuppressionPage,
  type SuppressionView,
} from '@warmline/contracts';
import { enqueue, enqueueAll, type OutgoingMessage } from '@warmline/platform/bus/index';
import { withTransaction, type PoolClient, type Queryable } from '@warmline/platform/db/index';
import { badRequest, conflict, notFound } from '@warmline/platform/errors';
import type { Logger } from '@warmline/platform/log';
import type { GatewayClient } from '../../clients/gateway-client';
import { withdrawUnsoldLeads } from '../../market/db/withdrawn-leads';
import {
  agentsWithCallbackOfPhone,
  callbacksDeliveredWithPhone,
  lockCallbackIntake,
  withdrawOpportunitiesOfPhone,
} from '../../callbacks/db/callback-opportunities';
import { recordAdminAction } from '@warmline/platform/bus/admin-audit';
import type { ActingAdmin } from '@warmline/platform/identity';
import {
  buyersOfPhone,
  claimUnmirroredSuppressions,
  deleteSuppression,
  findSuppression,
  insertSuppression,
  leadsBoughtWithPhone,
  listSuppressions,
  lockLeadLoads,
  type SuppressionRow,
} from '../db/suppressions';
import { SOURCE, type CatalogContext } from '../../domain/context';
import { formatPhone } from '../../market/domain/masking';

/**
 * The suppression list (issue 13): an admin adds a phone that opted out. At once, in one
 * transaction, its unsold leads leave the market, and every buyer who already bought one is
 * queued a notice to stop contacting it. The notice needs the buyer's e-mail from the gateway,
 * an HTTP call that may fail: it runs afterwards, from a command to this service, retried by the
 * bus, so the suppression never waits on the gateway and no notice is lost.
 */

/**
 * '5125550143' → '(512) XXX-0143': enough for an admin to recognise the number in the audit
 * log, which is kept for good, while the whole number leaves with the suppression.
 */
export function maskForAudit(phone: string): string {
  return `(${phone.slice(0, 3)}) XXX-${phone.slice(6)}`;
}

function phoneOf(text: string): string {
  const phone = normaliseUsPhone(text);
  if (!phone) throw badRequest(PHONE_RULE_MESSAGE);
  return phone;
}

export async function suppressPhone(
  ctx: CatalogContext,
  admin: ActingAdmin,
  input: { phone: string; reason: string },
  correlationId: string,
): Promise<SuppressionCreated> {
  const phone = phoneOf(input.phone);
  const created = await withTransaction(ctx.pool, async (db) => {
    const at = ctx.clock();
    const done = await addToSuppressionList(db, admin, { phone, reason: input.reason, source: 'admin', at }, correlationId);
    if (!done) throw conflict('Phone is already on the suppression list');
    const { row, leadsWithdrawn, buyersNotified, callbacksWithdrawn } = done;
    await audit(db, admin, correlationId, {
      action: 'lead_suppression.created',
      phone,
      before: null,
      after: { reason: row.reason, leadsWithdrawn, buyersNotified, callbacksWithdrawn },
      at,
    });
    return { ...suppressionView(row), leadsWithdrawn, buyersNotified };
  });
  ctx.log.info({ leadsWithdrawn: created.leadsWithdrawn, buyersNotified: created.buyersNotified }, 'phone suppressed');
  return created;
}

/**
 * Who put a phone on the list when no admin did: a vendor's call whose prospect said not to call
 * again (issue 15, lead_suppression.add). The nil id marks it; the reason names the vendor.
 */
export const VENDOR_CALL_SUPPRESSOR: ActingAdmin = { userId: '00000000-0000-0000-0000-000000000000', username: 'vendor call' };

/**
 * Puts a phone on the list, in the caller's transaction: its unsold leads leave the market and
 * every buyer of one is queued a notice. Null when it was on the list already (nothing changes).
 */
export async function addToSuppressionList(
  db: PoolClient,
  by: ActingAdmin,
  input: { phone: string; reason: string; source: OptOutSource; at: Date },
  correlationId: string,
): Promise<{ row: SuppressionRow; leadsWithdrawn: number; buyersNotified: number; callbacksWithdrawn: number } | null> {
  const { phone, at } = input;
  await lockLeadLoads(db);
  // Issue 22: after any opportunity being made for the phone has committed; none is made after.
  await lockCallbackIntake(db);
  const row = await insertSuppression(db, { phone, reason: input.reason, source: input.source, createdByUserId: by.userId, createdAt: at });
  if (!row) return null;
  // Routing of live transfers (issue 23) reads its own copy of the list.
  await enqueueAll(db, [mirrorMessage(phone, true, at, correlationId, row.reason)]);
  const withdrawn = await withdrawUnsoldLeads(db, { phone }, 'suppressed', at);
  // Its available callback opportunities leave the market as its leads do (issue 22).
  const callbacksWithdrawn = await withdrawOpportunitiesOfPhone(db, phone, at);
  // After the withdrawal: a sale that won the race for a lead is committed and counted here.
  // Agents with a call-back of the phone are told too (issue 22), once each.
  const buyers = [...new Set([...(await buyersOfPhone(db, phone)), ...(await agentsWithCallbackOfPhone(db, phone))])].sort();
  await enqueue(db, {
    type: 'leads.withdrawn',
    source: SOURCE,
    correlationId,
    data: { reason: 'suppressed', leadCount: withdrawn.length, withdrawnAt: at.toISOString() },
  });
  for (const buyerUserId of buyers) {
    await enqueue(db, {
      type: 'lead_suppression.notify_buyer',
      source: SOURCE,
      correlationId,
      data: {
        buyerUserId,
        phone,
        reason: row.reason,
        suppressedBy: { userId: by.userId, username: by.username },
        suppressedAt: at.toISOString(),
      },
    });
  }
  return { row, leadsWithdrawn: withdrawn.length, buyersNotified: buyers.length, callbacksWithdrawn };
}

/** A header line of an opt-out list ('Phone', 'phone_number', …): not a phone, not an error. */
const HEADER_LINE = /^\s*"?[a-z _-]*phone[a-z _-]*"?\s*(,.*)?$/i;

/**
 * An opt-out list (issue 24): every phone on it goes on the list at once, in one transaction,
 * each recorded as imported with the admin's reason and the file's name; its leads and
 * call-backs are withdrawn and their holders told as for one phone. A line that is no phone is
 * reported by its number; a phone already on the list keeps its first opt-out.
 */
export async function importSuppressions(
  ctx: CatalogContext,
  admin: ActingAdmin,
  input: { fileName: string; lines: string[]; reason: string },
  correlationId: string,
): Promise<SuppressionImportResult> {
  const invalid: SuppressionImportResult['invalid'] = [];
  const phones = new Set<string>();
  input.lines.forEach((line, i) => {
    // The phone is the line, or a CSV line's first column.
    const text = (line.split(',')[0] ?? '').replace(/"/g, '').trim();
    if (text === '' || (i === 0 && HEADER_LINE.test(line))) return;
    const phone = normaliseUsPhone(text);
    if (phone) phones.add(phone);
    else invalid.push({ line: i + 1, message: PHONE_RULE_MESSAGE });
  });
  const reason = `${input.reason} (${input.fileName})`.slice(0, 500);
  const result = await withTransaction(ctx.pool, async (db) => {
    const at = ctx.clock();
    let added = 0;
    for (const phone of phones) {
      if (await addToSuppressionList(db, admin, { phone, reason, source: 'import', at }, correlationId)) added += 1;
    }
    await recordAdminAction(db, {
      source: SOURCE,
      actor: admin,
      correlationId,
      action: 'lead_suppression.imported',
      subjectType: 'lead_suppression_import',
      subjectId: correlationId,
      subjectLabel: `${added} opted-out ${added === 1 ? 'phone' : 'phones'} from ${input.fileName}`.slice(0, 200),
      before: null,
      after: { fileName: input.fileName, added, alreadyListed: phones.size - added, invalidLines: invalid.length },
      at,
    });
    return { added, alreadyListed: phones.size - added, invalid };
  });
  ctx.log.info({ added: result.added, alreadyListed: result.alreadyListed, invalid: invalid.length }, 'opt-out list imported');
  return result;
}

/** Withdrawn leads stay withdrawn: the phone may be sold again only from a new import. */
export async function removeSuppression(ctx: CatalogContext, admin: ActingAdmin, phoneText: string, correlationId: string): Promise<void> {
  const phone = phoneOf(phoneText);
  await withTransaction(ctx.pool, async (db) => {
    const at = ctx.clock();
    const removed = await deleteSuppression(db, phone);
    if (!removed) throw notFound('Phone is not on the suppression list');
    await enqueueAll(db, [mirrorMessage(phone, false, at, correlationId)]);
    await audit(db, admin, correlationId, {
      action: 'lead_suppression.removed',
      phone,
      before: { reason: removed.reason, suppressedAt: removed.createdAt.toISOString() },
      after: null,
      at,
    });
  });
  ctx.log.info('phone taken off the suppression list');
}

/** The transfers service's copy of one change of the list (docs/adr/0031): the newest `at` wins there. */
function mirrorMessage(phone: string, suppressed: boolean, at: Date, correlationId: string, reason?: string): OutgoingMessage<'suppression.mirror'> {
  // The reason goes with a suppression: the transfers service's notice to its agents says it (issue 24).
  return { type: 'suppression.mirror', source: SOURCE, correlationId, data: { phone, suppressed, at: at.toISOString(), ...(reason ? { reason } : {}) } };
}

/**
 * Sends the copies of phones suppressed before the transfers service existed, once (at start-up;
 * a second replica starting at the same time skips the phones the first has claimed). The number sent.
 */
export async function mirrorEarlierSuppressions(ctx: Pick<CatalogContext, 'pool' | 'clock'>): Promise<number> {
  return withTransaction(ctx.pool, async (db) => {
    const phones = await claimUnmirroredSuppressions(db, ctx.clock());
    await enqueueAll(db, phones.map((p) => mirrorMessage(p.phone, true, p.createdAt, `suppression-backfill-${p.phone}`)));
    return phones.length;
  });
}

export async function listSuppressionPage(ctx: CatalogContext, query: { q: string; page: number }): Promise<SuppressionPage> {
  // The search is by digits, however the admin typed them; a leading 1 of a whole number is the country code.
  let digits = query.q.replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
  if (query.q !== '' && digits === '') return { suppressions: [], total: 0, page: query.page, pageSize: SUPPRESSION_PAGE_SIZE };
  const { rows, total } = await listSuppressions(ctx.pool, digits, {
    offset: (query.page - 1) * SUPPRESSION_PAGE_SIZE,
    limit: SUPPRESSION_PAGE_SIZE,
  });
  return { suppressions: rows.map(suppressionView), total, page: query.page, pageSize: SUPPRESSION_PAGE_SIZE };
}

function suppressionView(row: SuppressionRow): SuppressionView {
  return { phone: row.phone, reason: row.reason, source: row.source, createdAt: row.createdAt.toISOString(), createdByUserId: row.createdByUserId };
}

async function audit(
  db: Queryable,
  admin: ActingAdmin,
  correlationId: string,
  entry: { action: string; phone: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null; at: Date },
): Promise<void> {
  const masked = maskForAudit(entry.phone);
  const { action, before, after, at } = entry;
  await recordAdminAction(db, { source: SOURCE, actor: admin, correlationId, action, subjectType: 'lead_suppression', subjectId: masked, subjectLabel: masked, before, after, at });
}

/** Leads one e-mail lists at most (email.lead_opt_out); a buyer with more gets more e-mails. */
const LEADS_PER_NOTICE = 100;

/**
 * A buyer of a suppressed phone's leads is told to stop contacting it: their leads with the
 * phone, read now, and their e-mail from the gateway, asked as the admin who suppressed it. In
 * the consumer's transaction: a failed call throws and the command is retried; a redelivery
 * after success writes nothing twice (processed_events).
 */
export async function noticeBuyerOfOptOut(
  db: PoolClient,
  deps: { gateway: GatewayClient; log: Logger },
  notice: CommandData<'lead_suppression.notify_buyer'>,
  correlationId: string,
): Promise<void> {
  const log = deps.log.child({ buyerUserId: notice.buyerUserId });
  // Taken off the list since, or added again (that suppression queued its own notice): nothing to say now.
  const current = await findSuppression(db, notice.phone);
  if (!current || current.createdAt.getTime() !== new Date(notice.suppressedAt).getTime()) {
    log.info('the phone is no longer suppressed as it was; no opt-out notice');
    return;
  }
  const leads = await leadsBoughtWithPhone(db, notice.buyerUserId, notice.phone);
  const callbacks = await callbacksDeliveredWithPhone(db, notice.buyerUserId, notice.phone);
  if (leads.length === 0 && callbacks.length === 0) return;
  const buyer = await deps.gateway.userContact(notice.buyerUserId, correlationId);
  if (!buyer) {
    log.warn('the buyer of an opted-out lead has no account any more; no opt-out notice');
    return;
  }
  // The call-backs go with the first notice (at most 100: the query's bound).
  for (let i = 0; i === 0 || i < leads.length; i += LEADS_PER_NOTICE) {
    await enqueue(db, {
      type: 'email.lead_opt_out',
      source: SOURCE,
      correlationId,
      data: {
        to: buyer.email,
        name: buyer.firstName,
        leads: leads.slice(i, i + LEADS_PER_NOTICE).map((l) => ({
          leadId: l.id,
          name: l.name.slice(0, 200),
          phone: formatPhone(l.phone),
          purchasedAt: l.soldAt.toISOString(),
        })),
        ...(i === 0 && callbacks.length > 0
          ? {
              callbacks: callbacks.map((c) => ({
                opportunityId: c.id,
                name: `${c.firstName} ${c.lastName}`.slice(0, 201),
                phone: formatPhone(c.phone),
                deliveredAt: (c.assignedAt ?? c.createdAt).toISOString(),
              })),
            }
          : {}),
        reason: notice.reason,
        at: notice.suppressedAt,
      },
    });
  }
  log.info({ leads: leads.length, callbacks: callbacks.length }, 'opt-out notice queued');
}
