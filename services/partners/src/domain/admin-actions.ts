import { enqueue } from '@warmline/platform/bus/index';
import type { Queryable } from '@warmline/platform/db/index';
import { SOURCE } from './context';

/** The admin behind a request (the gateway's signed identity). */
export interface Admin {
  userId: string;
  username: string;
}

export interface AdminAction {
  /** Dotted, e.g. 'partner_application.deleted'. */
  action: string;
  subjectId: string;
  subjectLabel: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** Why, in the admin's words (e.g. their note to the applicant). */
  reason?: string;
  at: Date;
}

/**
 * Records an admin's action on a partner application in the gateway's one audit log
 * (audit.record, docs/adr/0013), in the transaction of the change itself: both happen or neither.
 */
export async function recordAdminAction(db: Queryable, admin: Admin, correlationId: string, entry: AdminAction): Promise<void> {
  await enqueue(db, {
    type: 'audit.record',
    source: SOURCE,
    correlationId,
    data: {
      actorId: admin.userId,
      actorUsername: admin.username.slice(0, 200),
      action: entry.action,
      subjectType: 'partner_application',
      subjectId: entry.subjectId,
      subjectLabel: entry.subjectLabel.slice(0, 300),
      before: entry.before,
      after: entry.after,
      ...(entry.reason ? { reason: entry.reason.slice(0, 500) } : {}),
      at: entry.at.toISOString(),
    },
  });
}
