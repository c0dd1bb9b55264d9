import { randomUUID } from 'node:crypto';
import {
  CALLBACK_AGENTS_MAX,
  CALLBACK_DUPLICATE_OPEN_MESSAGE,
  CALLBACK_EXPIRY_HOURS,
  CALLBACK_EXPORT_COLUMNS,
  CALLBACK_EXPORT_MAX_ROWS,
  CALLBACK_OPPORTUNITIES_PAGE_SIZE,
  CALLBACK_REPEAT_DAYS,
  CALLBACK_SUPPRESSED_MESSAGE,
  DEFAULT_CALLBACK_PRICE_CENTS,
  bulkCallbackOpportunitiesBody,
  callbackOpportunityInput,
  callbackDuplicateRowMessage,
  stateOfAreaCode,
  usStateOfText,
  type BulkCallbackResult,
  type CallbackAgent,
  type CallbackOpportunity,
  type CallbackOpportunityStatus,
  type CallbackRowError,
  type CallbackSource,
  type CommandData,
} from '@warmline/contracts';
import { outsideCallingHours } from '@warmline/contracts/calling-hours';
import { withTransaction, type PoolClient } from '@warmline/platform/db/index';
import { conflict, notFound } from '@warmline/platform/errors';
import type { z } from 'zod';
import type { GatewayClient } from '../../clients/gateway-client';
import {
  agentReceivedPhoneSince,
  expireCallbackOpportunities,
  findCallbackOpportunity,
  insertCallbackOpportunities,
  listCallbackOpportunities,
  lockCallbackIntake,
  lockOpenOpportunityOfPhone,
  phonesWithOpenOpportunity,
  setCallbackState,
  updateFromLaterCall,
  type CallbackOpportunityRow,
  type NewCallbackOpportunity,
} from '../db/callback-opportunities';
import { findSuppression, suppressedPhonesAmong } from '../../suppressions/db/suppressions';
import { listCallbackAccounts } from '../db/callback-balances';
import { toCsv } from '@warmline/platform/csv';
import { formatPhone } from '../../market/domain/masking';
import { recordAdminAction } from '@warmline/platform/bus/admin-audit';
import type { ActingAdmin } from '@warmline/platform/identity';
import { assignAvailableCallbacks, deliverCallback, repeatWindowStart } from './callback-assignment';
import { SOURCE, type CatalogContext } from '../../domain/context';
import { addToSuppressionList, maskForAudit, VENDOR_CALL_SUPPRESSOR } from '../../suppressions/domain/suppressions';

/**
 * Callback opportunities (issue 15): prospects who asked to be called back, from a vendor's
 * calls (a command from the ingestion service), an admin's CSV or the manual form. The catalog
 * owns them and delivers them to agents with a balance (callback-assignment.ts).
 */

export interface CallbackContext extends CatalogContext {
  gateway: GatewayClient;
}

const HOUR_MS = 3_600_000;

/** Not assigned within 72 hours after its callback time (or its creation when it has none) → expired. */
export function expiryOf(callbackTime: Date | null, createdAt: Date): Date {
  return new Date((callbackTime ?? createdAt).getTime() + CALLBACK_EXPIRY_HOURS * HOUR_MS);
}

/** The state as sent (a code or a name), else the phone's area code's; null: an admin gives it one. */
function stateOfProspect(sent: string | null, phone: string): string | null {
  return usStateOfText(sent) ?? stateOfAreaCode(phone);
}

function opportunityView(row: CallbackOpportunityRow): CallbackOpportunity {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    phone: row.phone,
    state: row.state,
    price: (row.priceCents / 100).toFixed(2),
    source: row.source,
    vendorName: row.vendorName,
    transcript: row.transcript,
    callbackTime: row.callbackTime?.toISOString() ?? null,
    callOutcome: row.callOutcome,
    leadQuality: row.leadQuality,
    interestLevel: row.interestLevel,
    status: row.status,
    suppressedAt: row.suppressedAt?.toISOString() ?? null,
    assignedUserId: row.assignedUserId,
    assignedAt: row.assignedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    callbackTimeOutsideCallingHours: row.callbackTime ? outsideCallingHours(row.state, row.phone, row.callbackTime) === true : false,
  };
}

/** An opportunity typed by an admin (manual form or CSV row): no vendor, no transcript. */
function adminOpportunity(
  input: { firstName: string; lastName: string; phone: string; state: string; price: number },
  source: Extract<CallbackSource, 'csv' | 'manual'>,
  at: Date,
): NewCallbackOpportunity {
  return {
    id: randomUUID(),
    callbackId: null,
    vendorKeyId: null,
    vendorName: null,
    source,
    firstName: input.firstName,
    lastName: input.lastName,
    phone: input.phone,
    state: input.state,
    priceCents: input.price,
    transcript: null,
    callbackTime: null,
    callOutcome: null,
    agentId: null,
    leadQuality: null,
    interestLevel: null,
    expiresAt: expiryOf(null, at),
    createdAt: at,
  };
}

// ------------------------------------------------------------------------------ from a vendor

/**
 * callback_opportunity.create: the vendor's call becomes an opportunity, once per call (a
 * redelivered command finds its callback_id taken), and is assigned if someone can take it.
 * Issue 22: a call for a phone on the suppression list makes none — it is recorded as a
 * suppressed opportunity, so the admin's list says what became of the call — and a call for a
 * phone with an open opportunity updates that one (callback time, transcript) instead of making
 * a second.
 */
export async function createVendorOpportunity(
  db: PoolClient,
  ctx: Omit<CallbackContext, 'pool' | 'orders'>,
  command: CommandData<'callback_opportunity.create'>,
  correlationId: string,
): Promise<CallbackOpportunityRow | null> {
  const at = ctx.clock();
  const callbackTime = command.callbackTime ? new Date(command.callbackTime) : null;
  const log = ctx.log.child({ callbackId: command.callbackId });
  await lockCallbackIntake(db);
  const suppressed = await findSuppression(db, command.phone);
  if (!suppressed) {
    const open = await lockOpenOpportunityOfPhone(db, command.phone, repeatWindowStart(at));
    if (open && open.callbackId !== command.callbackId) {
      const updated = await updateFromLaterCall(db, open.id, {
        transcript: command.transcript,
        callbackTime,
        callOutcome: command.callOutcome,
        agentId: command.agentId,
        leadQuality: command.leadQuality,
        interestLevel: command.interestLevel,
        state: stateOfProspect(command.state, command.phone),
        expiresAt: expiryOf(callbackTime, at),
      });
      log.info({ opportunityId: open.id, status: open.status }, 'a later call for a phone with an open callback opportunity updated it; no second opportunity');
      if (updated?.status === 'available') await assignAvailableCallbacks(db, ctx, correlationId);
      return null;
    }
  }
  const [created] = await insertCallbackOpportunities(db, [
    {
      id: randomUUID(),
      callbackId: command.callbackId,
      vendorKeyId: command.vendorKeyId,
      vendorName: command.vendorName,
      source: 'vendor',
      firstName: command.firstName,
      lastName: command.lastName,
      phone: command.phone,
      state: stateOfProspect(command.state, command.phone),
      priceCents: DEFAULT_CALLBACK_PRICE_CENTS,
      transcript: command.transcript,
      callbackTime,
      callOutcome: command.callOutcome,
      agentId: command.agentId,
      leadQuality: command.leadQuality,
      interestLevel: command.interestLevel,
      expiresAt: expiryOf(callbackTime, at),
      createdAt: at,
      suppressedAt: suppressed ? at : null,
    },
  ]);
  if (!created) {
    log.info('the vendor call is an opportunity already; nothing created');
    return null;
  }
  if (suppressed) {
    log.warn({ opportunityId: created.id }, 'a vendor call for a phone on the suppression list: recorded as suppressed, no opportunity made');
    return null;
  }
  if (created.state === null) log.info({ opportunityId: created.id }, 'callback opportunity waits for an admin to give it a state');
  await assignAvailableCallbacks(db, ctx, correlationId);
  return created;
}

/** lead_suppression.add: the prospect said not to call again; the phone goes on the list (once). */
export async function suppressVendorPhone(
  db: PoolClient,
  ctx: Omit<CallbackContext, 'pool' | 'orders' | 'gateway'>,
  command: CommandData<'lead_suppression.add'>,
  correlationId: string,
): Promise<void> {
  const done = await addToSuppressionList(db, VENDOR_CALL_SUPPRESSOR, { phone: command.phone, reason: command.reason, source: 'vendor', at: ctx.clock() }, correlationId);
  if (!done) ctx.log.info({ callbackId: command.callbackId }, 'the phone was on the suppression list already');
  else {
    ctx.log.info(
      { callbackId: command.callbackId, leadsWithdrawn: done.leadsWithdrawn, callbacksWithdrawn: done.callbacksWithdrawn },
      "phone suppressed at a vendor call's request",
    );
  }
}

// ------------------------------------------------------------------------------ by an admin

export async function addCallbackOpportunity(
  ctx: CallbackContext,
  admin: ActingAdmin,
  input: { firstName: string; lastName: string; phone: string; state: string; price: number },
  correlationId: string,
): Promise<CallbackOpportunity> {
  const created = await withTransaction(ctx.pool, async (db) => {
    const at = ctx.clock();
    await lockCallbackIntake(db);
    if (await findSuppression(db, input.phone)) throw conflict(CALLBACK_SUPPRESSED_MESSAGE, { field: 'phone' });
    if (await lockOpenOpportunityOfPhone(db, input.phone, repeatWindowStart(at))) throw conflict(CALLBACK_DUPLICATE_OPEN_MESSAGE, { field: 'phone' });
    const [row] = await insertCallbackOpportunities(db, [adminOpportunity(input, 'manual', at)]);
    if (!row) throw new Error('the new callback opportunity was not inserted');
    await recordAdminAction(db, {
      source: SOURCE,
      actor: admin,
      correlationId,
      action: 'callback_opportunity.created',
      subjectType: 'callback_opportunity',
      subjectId: row.id,
      subjectLabel: `${row.firstName} ${row.lastName} (${row.state ?? 'no state'})`,
      before: null,
      after: { source: 'manual', phone: maskForAudit(row.phone), state: row.state, priceCents: row.priceCents },
      at,
    });
    await assignAvailableCallbacks(db, ctx, correlationId);
    return (await findCallbackOpportunity(db, row.id)) ?? row;
  });
  ctx.log.info({ opportunityId: created.id }, 'callback opportunity added by hand');
  return opportunityView(created);
}

type BulkRow = z.output<typeof bulkCallbackOpportunitiesBody>['csvData'][number];

/** A spreadsheet parser may hand a phone or a name over as a number: the row's text is what counts. */
function rowText(row: BulkRow): Record<string, unknown> {
  const text = (v: string | number | null | undefined) => (typeof v === 'number' ? String(v) : v);
  return { firstName: text(row.firstName), lastName: text(row.lastName), phone: text(row.phone), state: text(row.state), price: row.price };
}

/** A CSV row's number in the file: the header is row 1 (as a lead import counts them). */
const fileRow = (index: number) => index + 2;

/**
 * The CSV's rows: each validated (the manual form's rule); the good ones created together, the
 * bad ones listed. Issue 22: a suppressed phone, a phone with an open opportunity and a phone
 * already in the file (the first row with it counts) are refused rows too.
 */
export async function addCallbackOpportunityRows(
  ctx: CallbackContext,
  admin: ActingAdmin,
  rows: BulkRow[],
  correlationId: string,
): Promise<BulkCallbackResult> {
  const rejected: CallbackRowError[] = [];
  const valid: Array<{ row: number; input: z.output<typeof callbackOpportunityInput> }> = [];
  rows.forEach((raw, i) => {
    const parsed = callbackOpportunityInput.safeParse(rowText(raw));
    if (parsed.success) valid.push({ row: fileRow(i), input: parsed.data });
    else {
      // One error per field of the row, in the columns' order.
      const seen = new Set<string>();
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? 'row');
        if (seen.has(field)) continue;
        seen.add(field);
        rejected.push({ row: fileRow(i), field, message: issue.message });
      }
    }
  });
  let created = 0;
  let duplicates = 0;
  if (valid.length > 0) {
    await withTransaction(ctx.pool, async (db) => {
      const at = ctx.clock();
      await lockCallbackIntake(db);
      const phones = valid.map((v) => v.input.phone);
      const suppressed = await suppressedPhonesAmong(db, phones);
      const open = await phonesWithOpenOpportunity(db, phones, repeatWindowStart(at));
      const firstRowOf = new Map<string, number>();
      const good: Array<z.output<typeof callbackOpportunityInput>> = [];
      for (const { row, input } of valid) {
        const earlier = firstRowOf.get(input.phone);
        let message: string | null = null;
        if (suppressed.has(input.phone)) message = CALLBACK_SUPPRESSED_MESSAGE;
        else if (earlier !== undefined) message = callbackDuplicateRowMessage(earlier);
        else if (open.has(input.phone)) message = CALLBACK_DUPLICATE_OPEN_MESSAGE;
        if (earlier === undefined) firstRowOf.set(input.phone, row);
        if (message === null) good.push(input);
        else {
          if (message !== CALLBACK_SUPPRESSED_MESSAGE) duplicates += 1;
          rejected.push({ row, field: 'phone', message });
        }
      }
      rejected.sort((a, b) => a.row - b.row);
      if (good.length === 0) return;
      const inserted = await insertCallbackOpportunities(db, good.map((row) => adminOpportunity(row, 'csv', at)));
      created = inserted.length;
      await recordAdminAction(db, {
        source: SOURCE,
        actor: admin,
        correlationId,
        action: 'callback_opportunity.uploaded',
        subjectType: 'callback_opportunity_upload',
        subjectId: correlationId,
        subjectLabel: `${created} callback ${created === 1 ? 'opportunity' : 'opportunities'} from a CSV`,
        before: null,
        after: { created, rejectedRows: new Set(rejected.map((r) => r.row)).size, duplicates },
        at,
      });
      await assignAvailableCallbacks(db, ctx, correlationId);
    });
  }
  ctx.log.info({ created, rejected: rejected.length, duplicates }, 'callback CSV uploaded');
  return { created, rejected };
}

/** The admin's export (issue 22): the list's filters, every page up to CALLBACK_EXPORT_MAX_ROWS, newest first. */
export async function exportCallbackOpportunitiesCsv(
  ctx: CatalogContext,
  filter: { status?: CallbackOpportunityStatus; state?: string; source?: CallbackSource },
): Promise<{ csv: string; total: number; rows: number }> {
  const { rows, total } = await listCallbackOpportunities(ctx.pool, filter, { offset: 0, limit: CALLBACK_EXPORT_MAX_ROWS });
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  const csv = toCsv(
    [...CALLBACK_EXPORT_COLUMNS],
    rows.map((r) => [
      r.id, r.status, r.firstName, r.lastName, formatPhone(r.phone), r.state, (r.priceCents / 100).toFixed(2), r.source, r.vendorName,
      iso(r.callbackTime), r.callOutcome, r.leadQuality, r.interestLevel, r.assignedUserId, iso(r.assignedAt),
      r.assignedBy, iso(r.contactedAt), iso(r.suppressedAt), iso(r.expiresAt), iso(r.createdAt), r.transcript,
    ]),
  );
  return { csv, total, rows: rows.length };
}

/**
 * The manual-assign picker (issue 22): agents with a call-back account, with their balance and
 * states; names and e-mails from the gateway, asked as the admin (a few at a time). An account
 * whose user is gone is left out.
 */
export async function callbackAgents(ctx: CallbackContext, admin: ActingAdmin, correlationId: string): Promise<CallbackAgent[]> {
  const accounts = await listCallbackAccounts(ctx.pool, CALLBACK_AGENTS_MAX);
  const agents: Array<CallbackAgent | null> = [];
  for (let i = 0; i < accounts.length; i += GATEWAY_CALLS_AT_ONCE) {
    agents.push(
      ...(await Promise.all(
        accounts.slice(i, i + GATEWAY_CALLS_AT_ONCE).map(async (a) => {
          const contact = await ctx.gateway.userContact(a.userId, correlationId);
          if (!contact) return null;
          return { userId: a.userId, firstName: contact.firstName, lastName: contact.lastName ?? '', email: contact.email, balance: a.balance, states: a.states };
        }),
      )),
    );
  }
  return agents.filter((a): a is CallbackAgent => a !== null);
}

const GATEWAY_CALLS_AT_ONCE = 10;

export async function listCallbackOpportunityPage(
  ctx: CatalogContext,
  query: { status?: CallbackOpportunityStatus; state?: string; source?: CallbackSource; page?: number },
): Promise<{ opportunities: CallbackOpportunity[]; total: number }> {
  const page = query.page ?? 1;
  const { rows, total } = await listCallbackOpportunities(ctx.pool, query, {
    offset: (page - 1) * CALLBACK_OPPORTUNITIES_PAGE_SIZE,
    limit: CALLBACK_OPPORTUNITIES_PAGE_SIZE,
  });
  return { opportunities: rows.map(opportunityView), total };
}

const NOT_AVAILABLE = 'This callback opportunity is no longer available';

/** An admin gives an available opportunity (usually one waiting for it) its state; then it may be assigned. */
export async function giveCallbackState(ctx: CallbackContext, admin: ActingAdmin, id: string, state: string, correlationId: string): Promise<CallbackOpportunity> {
  return withTransaction(ctx.pool, async (db) => {
    const before = await findCallbackOpportunity(db, id, { forUpdate: true });
    if (!before) throw notFound('Callback opportunity not found');
    const row = await setCallbackState(db, id, state);
    if (!row) throw conflict(NOT_AVAILABLE);
    await recordAdminAction(db, {
      source: SOURCE,
      actor: admin,
      correlationId,
      action: 'callback_opportunity.state_set',
      subjectType: 'callback_opportunity',
      subjectId: row.id,
      subjectLabel: `${row.firstName} ${row.lastName}`,
      before: { state: before.state },
      after: { state: row.state },
      at: ctx.clock(),
    });
    await assignAvailableCallbacks(db, ctx, correlationId);
    return opportunityView((await findCallbackOpportunity(db, id)) ?? row);
  });
}

/**
 * An admin gives an available opportunity to an agent by hand. One of the agent's balance pays
 * for it when they have one; an agent without a balance gets it anyway (the admin's call).
 */
export async function assignCallbackByHand(ctx: CallbackContext, admin: ActingAdmin, id: string, agentUserId: string, correlationId: string): Promise<CallbackOpportunity> {
  // Read before the transaction: a gateway call should not hold the row lock.
  const contact = await ctx.gateway.userContact(agentUserId, correlationId);
  if (!contact) throw notFound('Agent not found');
  return withTransaction(ctx.pool, async (db) => {
    await lockCallbackIntake(db);
    const opportunity = await findCallbackOpportunity(db, id, { forUpdate: true });
    if (!opportunity) throw notFound('Callback opportunity not found');
    if (opportunity.status !== 'available') throw conflict(NOT_AVAILABLE);
    if (opportunity.state === null) throw conflict('Give the opportunity a state before assigning it');
    const at = ctx.clock();
    if (await findSuppression(db, opportunity.phone)) throw conflict(CALLBACK_SUPPRESSED_MESSAGE);
    if (await agentReceivedPhoneSince(db, agentUserId, opportunity.phone, repeatWindowStart(at))) {
      throw conflict(`This agent received this phone within the last ${CALLBACK_REPEAT_DAYS} days`);
    }
    const delivered = await deliverCallback(db, { opportunity, agentUserId, contact, by: 'admin', at }, correlationId);
    if (!delivered) throw conflict(NOT_AVAILABLE);
    await recordAdminAction(db, {
      source: SOURCE,
      actor: admin,
      correlationId,
      action: 'callback_opportunity.assigned',
      subjectType: 'callback_opportunity',
      subjectId: opportunity.id,
      subjectLabel: `${opportunity.firstName} ${opportunity.lastName}`,
      before: { status: 'available', assignedUserId: null },
      after: { status: 'assigned', assignedUserId: agentUserId, balanceLeft: delivered.balanceLeft },
      at,
    });
    return opportunityView(delivered.opportunity);
  });
}

// ------------------------------------------------------------------------------ periodic

/**
 * The sweep: opportunities past their 72 hours expire, and whatever an earlier assignment could
 * not do (the gateway was down) is done now.
 */
export async function sweepCallbackOpportunities(ctx: CallbackContext): Promise<{ expired: number; assigned: number }> {
  return withTransaction(ctx.pool, async (db) => {
    const expired = await expireCallbackOpportunities(db, ctx.clock());
    if (expired > 0) ctx.log.info({ expired }, 'callback opportunities expired');
    const assigned = await assignAvailableCallbacks(db, ctx, randomUUID());
    return { expired, assigned };
  });
}
