import type { Queryable } from '@warmline/platform';

/** Queries of `audit_log` (append-only: there is no update or delete here, and the table refuses them). */

export interface NewAuditEntry {
  at: Date;
  actorId: string;
  actorUsername: string;
  action: string;
  subjectType: string;
  subjectId: string;
  subjectLabel: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  reason: string | null;
  source: string;
  /** The audit.record command's id when another service reported it; null for the gateway's own. */
  messageId: string | null;
}

export interface AuditEntryRecord extends Omit<NewAuditEntry, 'messageId'> {
  id: string;
}

const COLUMNS = `id, at, actor_id AS "actorId", actor_username AS "actorUsername", action, subject_type AS "subjectType",
  subject_id AS "subjectId", subject_label AS "subjectLabel", before, after, reason, source`;

/** Stores an entry; a reported one already stored (same message id) is not stored twice. */
export async function insertAuditEntry(db: Queryable, e: NewAuditEntry): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (at, actor_id, actor_username, action, subject_type, subject_id, subject_label, before, after, reason, source, message_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (message_id) DO NOTHING`,
    [e.at, e.actorId, e.actorUsername, e.action, e.subjectType, e.subjectId, e.subjectLabel, e.before, e.after, e.reason, e.source, e.messageId],
  );
}

/** One page of the log, newest first, and how many entries there are. */
export async function listAuditEntries(db: Queryable, page: { limit: number; offset: number }): Promise<{ entries: AuditEntryRecord[]; total: number }> {
  const [{ rows }, count] = await Promise.all([
    db.query<AuditEntryRecord>(`SELECT ${COLUMNS} FROM audit_log ORDER BY at DESC, recorded_at DESC, id DESC LIMIT $1 OFFSET $2`, [page.limit, page.offset]),
    db.query<{ total: string }>('SELECT count(*) AS total FROM audit_log'),
  ]);
  return { entries: rows, total: Number(count.rows[0]?.total ?? 0) };
}
