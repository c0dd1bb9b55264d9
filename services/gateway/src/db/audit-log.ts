import type { Queryable } from '@warmline/platform';
import type { AuditLogFilter } from '@warmline/contracts';
import { containsPattern, SqlConditions } from '@warmline/platform/db/sql-conditions';

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

/** The filter as SQL (issue 22): text matched case-insensitively and literally, days on `timeZone`'s calendar. */
function whereOf(filter: AuditLogFilter, timeZone: string): { sql: string; params: unknown[] } {
  const conditions = new SqlConditions();
  if (filter.admin) conditions.add('actor_username ILIKE ?', containsPattern(filter.admin));
  if (filter.action) conditions.add('action = ?', filter.action);
  if (filter.subject) conditions.add(`(coalesce(subject_label, '') ILIKE ? OR subject_id ILIKE ?)`, containsPattern(filter.subject), containsPattern(filter.subject));
  if (filter.from) conditions.add('at >= (?::date)::timestamp AT TIME ZONE ?', filter.from, timeZone);
  if (filter.to) conditions.add('at < ((?::date + 1)::timestamp AT TIME ZONE ?)', filter.to, timeZone);
  return { sql: conditions.where, params: conditions.params };
}

/** One page of the log (of the entries the filter keeps), newest first, how many there are, and every action the log holds. */
export async function listAuditEntries(
  db: Queryable,
  page: { limit: number; offset: number; filter: AuditLogFilter; timeZone: string },
): Promise<{ entries: AuditEntryRecord[]; total: number; actions: string[] }> {
  const { sql, params } = whereOf(page.filter, page.timeZone);
  const n = params.length;
  const [{ rows }, count, actions] = await Promise.all([
    db.query<AuditEntryRecord>(`SELECT ${COLUMNS} FROM audit_log${sql} ORDER BY at DESC, recorded_at DESC, id DESC LIMIT $${n + 1} OFFSET $${n + 2}`, [
      ...params,
      page.limit,
      page.offset,
    ]),
    db.query<{ total: string }>(`SELECT count(*) AS total FROM audit_log${sql}`, params),
    db.query<{ action: string }>('SELECT DISTINCT action FROM audit_log ORDER BY action'),
  ]);
  return { entries: rows, total: Number(count.rows[0]?.total ?? 0), actions: actions.rows.map((r) => r.action) };
}
