import { ADMIN_PAGE_SIZE, type AuditLogPage, type CommandData } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform';
import { insertAuditEntry, listAuditEntries } from '../db/audit-log';
import { SOURCE } from './context';

/**
 * The audit log (issue 12): one list of every admin action. The gateway's own actions are
 * recorded in the transaction that makes them (no action without its entry, no entry without
 * its action); other services report theirs with `audit.record` commands, stored once each.
 */

export interface AdminActor {
  id: string;
  username: string;
}

export interface AdminAction {
  actor: AdminActor;
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
    actorId: a.actor.id,
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

export async function auditLogPage(db: Queryable, page: number): Promise<AuditLogPage> {
  const { entries, total } = await listAuditEntries(db, { limit: ADMIN_PAGE_SIZE, offset: (page - 1) * ADMIN_PAGE_SIZE });
  return {
    total,
    entries: entries.map((e) => ({ ...e, at: e.at.toISOString() })),
  };
}
