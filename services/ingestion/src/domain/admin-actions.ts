import { enqueue } from '@warmline/platform/bus/index';
import type { Queryable } from '@warmline/platform/db/index';
import { SOURCE } from './context';

/** The admin behind a request (the gateway's signed identity). */
export interface Admin {
  userId: string;
  username: string;
}

/**
 * Records an admin's action on a vendor key in the gateway's one audit log (audit.record,
 * docs/adr/0013), in the transaction of the change itself: both happen or neither. Never the key.
 */
export async function recordAdminAction(
  db: Queryable,
  admin: Admin,
  correlationId: string,
  entry: { action: string; subjectId: string; subjectLabel: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null; at: Date },
): Promise<void> {
  await enqueue(db, {
    type: 'audit.record',
    source: SOURCE,
    correlationId,
    data: {
      actorId: admin.userId,
      actorUsername: admin.username.slice(0, 200),
      action: entry.action,
      subjectType: 'vendor_key',
      subjectId: entry.subjectId,
      subjectLabel: entry.subjectLabel.slice(0, 300),
      before: entry.before,
      after: entry.after,
      at: entry.at.toISOString(),
    },
  });
}
