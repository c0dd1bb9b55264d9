import { ADMIN_EXPORT_MAX_ROWS, ADMIN_PAGE_SIZE, businessDateTime, type AuditLogFilter, type AuditLogPage, type CommandData } from '@warmline/contracts';
import { toCsv } from '@warmline/platform/csv';
import type { Queryable } from '@warmline/platform';
import type { ActingAdmin } from '@warmline/platform/identity';
import { insertAuditEntry, listAuditEntries } from '../db/audit-log';
import { SOURCE } from './context';

/**
 * The audit log (issue 12): one list of every admin action. The gateway's own actions are
 * recorded in the transaction that makes them (no action without its entry, no entry without
 * its action); other services report theirs with `audit.record` commands, stored once each.
 */

export interface AdminAction {
  actor: ActingAdmin;
  /** Dotted, lower case: 'user.price_changed', 'user.deleted', 'view_as.started', 'campaign.created', ... */
  action: string;
  subjectType: string;
  subjectId: string;
  subjectLabel?: string;
  /** Only what changed; never a password or a secret. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  reason?: string;
}

/** Records one of the gateway's admin actions; `db` is the action's transaction. */
export async function recordAdminAction(db: Queryable, a: AdminAction, at: Date = new Date()): Promise<void> {
  await insertAuditEntry(db, {
    at,
    actorId: a.actor.userId,
    actorUsername: a.actor.username,
    action: a.action,
    subjectType: a.subjectType,
    subjectId: a.subjectId,
    subjectLabel: a.subjectLabel ?? null,
    before: a.before ?? null,
    after: a.after ?? null,
    reason: a.reason ?? null,
    source: SOURCE,
    messageId: null,
  });
}

/** Stores an admin action another service reported (a redelivered command is stored once). */
export async function storeReportedAction(
  db: Queryable,
  report: CommandData<'audit.record'>,
  command: { id: string; source: string },
): Promise<void> {
  await insertAuditEntry(db, {
    at: new Date(report.at),
    actorId: report.actorId,
    actorUsername: report.actorUsername,
    action: report.action,
    subjectType: report.subjectType,
    subjectId: report.subjectId,
    subjectLabel: report.subjectLabel ?? null,
    before: report.before,
    after: report.after,
    reason: report.reason ?? null,
    source: command.source,
    messageId: command.id,
  });
}

export async function auditLogPage(db: Queryable, page: number, filter: AuditLogFilter, timeZone: string): Promise<AuditLogPage> {
  const { entries, total, actions } = await listAuditEntries(db, { limit: ADMIN_PAGE_SIZE, offset: (page - 1) * ADMIN_PAGE_SIZE, filter, timeZone });
  return {
    total,
    actions,
    entries: entries.map((e) => ({ ...e, at: e.at.toISOString() })),
  };
}

/**
 * The entries the filter keeps, newest first, as CSV (issue 22; at most ADMIN_EXPORT_MAX_ROWS):
 * times on the business's clock, named in the header; before and after as JSON.
 */
export async function auditLogCsv(db: Queryable, filter: AuditLogFilter, timeZone: string): Promise<string> {
  const { entries } = await listAuditEntries(db, { limit: ADMIN_EXPORT_MAX_ROWS, offset: 0, filter, timeZone });
  const json = (value: Record<string, unknown> | null) => (value ? JSON.stringify(value) : '');
  return toCsv(
    [`When (${timeZone})`, 'Admin', 'Action', 'Subject type', 'Subject', 'Subject id', 'Before', 'After', 'Reason', 'Service'],
    entries.map((e) => [businessDateTime(e.at, timeZone), e.actorUsername, e.action, e.subjectType, e.subjectLabel, e.subjectId, json(e.before), json(e.after), e.reason, e.source]),
  );
}
