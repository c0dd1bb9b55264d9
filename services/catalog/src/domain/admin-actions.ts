import { enqueue } from '@warmline/platform/bus/index';
import type { Queryable } from '@warmline/platform/db/index';
import { SOURCE } from './context';

/** The admin behind a request (the gateway's signed identity). */
export interface Admin {
  userId: string;
  username: string;
}

export interface AdminAction {
  /** Dotted, e.g. 'lead_import.undone'. */
  action: string;
  subjectType: string;
  subjectId: string;
  subjectLabel: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  reason?: string;
  at: Date;
}

/**
 * Records an admin's action in the gateway's one audit log (audit.record, docs/adr/0013), in the
 * transaction of the change itself: both happen or neither.
 */
export async function recordAdminAction(db: Queryable, admin: Admin, correlationId: string, entry: AdminAction): Promise<void> {
  await enqueue(db, {
    type: 'audit.record',
    source: SOURCE,
    correlationId,
    data: {
      actorId: admin.userId,
      actorUsername: admin.username,
      action: entry.action,
      subjectType: entry.subjectType,
      subjectId: entry.subjectId,
      subjectLabel: entry.subjectLabel.slice(0, 300),
      before: entry.before,
      after: entry.after,
      ...(entry.reason ? { reason: entry.reason } : {}),
      at: entry.at.toISOString(),
    },
  });
}
