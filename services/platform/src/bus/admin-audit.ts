import type { Queryable } from '../db/index';
import type { ActingAdmin } from '../identity';
import { enqueue } from './outbox';

/** One admin action, as the gateway's one audit log keeps it (audit.record, docs/adr/0013). */
export interface AdminAuditEntry {
  /** The service that states it, e.g. 'transfers'. */
  source: string;
  /** The admin who acted, and their username at the time. */
  actor: ActingAdmin;
  /** Dotted lower case, e.g. 'transfer_dispute.decided'. */
  action: string;
  subjectType: string;
  subjectId: string;
  /** A human label of the subject at the time (cut to what the log keeps). */
  subjectLabel: string;
  /** Only the fields that changed; never a secret. */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  reason?: string;
  at: Date;
  correlationId: string;
}

/**
 * Records an admin's action with an `audit.record` command in the caller's transaction: the
 * change and its record commit together or not at all.
 */
export async function recordAdminAction(db: Queryable, entry: AdminAuditEntry): Promise<void> {
  await enqueue(db, {
    type: 'audit.record',
    source: entry.source,
    correlationId: entry.correlationId,
    data: {
      actorId: entry.actor.userId,
      actorUsername: entry.actor.username.slice(0, 200),
      action: entry.action,
      subjectType: entry.subjectType,
      subjectId: entry.subjectId,
      subjectLabel: entry.subjectLabel.slice(0, 300),
      before: entry.before,
      after: entry.after,
      ...(entry.reason ? { reason: entry.reason.slice(0, 500) } : {}),
      at: entry.at.toISOString(),
    },
  });
}
