import type { OptOutSource } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform/db/index';

/**
 * The suppression list (issue 13): phones that opted out, ten digits each. A suppressed phone
 * is never sold again (its unsold leads are withdrawn when it is added) and never imported
 * again (the importer skips it); its sold leads stay with their buyers.
 */

export interface SuppressionRow {
  phone: string;
  reason: string;
  /** Where the opt-out came from (issue 24). */
  source: OptOutSource;
  createdByUserId: string;
  createdAt: Date;
}

interface Row {
  phone: string;
  reason: string;
  source: OptOutSource;
  created_by_user_id: string;
  created_at: Date;
}

const COLUMNS = 'phone, reason, source, created_by_user_id, created_at';

const toSuppression = (r: Row): SuppressionRow => ({
  phone: r.phone,
  reason: r.reason,
  source: r.source,
  createdByUserId: r.created_by_user_id,
  createdAt: r.created_at,
});

/**
 * Taken while a phone is added (the lead loads' lock, db/lead-batch-load.ts), so an import batch
 * that read the list before this suppression committed has committed its leads before they are
 * withdrawn, and one that starts after reads the phone on the list.
 */
export { lockLeadLoads } from '../../imports/db/lead-batch-load';

/** Adds the phone; null when it is already on the list (the list is unchanged). */
export async function insertSuppression(db: Queryable, s: SuppressionRow): Promise<SuppressionRow | null> {
  const { rows } = await db.query<Row>(
    `INSERT INTO lead_suppressions (phone, reason, source, created_by_user_id, created_at, mirrored_at) VALUES ($1, $2, $3, $4, $5, $5)
     ON CONFLICT (phone) DO NOTHING
     RETURNING ${COLUMNS}`,
    [s.phone, s.reason, s.source, s.createdByUserId, s.createdAt],
  );
  return rows[0] ? toSuppression(rows[0]) : null;
}

/** Takes the phone off the list; what it was, or null when it was not there. */
export async function deleteSuppression(db: Queryable, phone: string): Promise<SuppressionRow | null> {
  const { rows } = await db.query<Row>(
    `DELETE FROM lead_suppressions WHERE phone = $1 RETURNING ${COLUMNS}`,
    [phone],
  );
  return rows[0] ? toSuppression(rows[0]) : null;
}

export async function findSuppression(db: Queryable, phone: string): Promise<SuppressionRow | null> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM lead_suppressions WHERE phone = $1`, [phone]);
  return rows[0] ? toSuppression(rows[0]) : null;
}

/**
 * Newest first; `digits` (possibly empty: every phone) must appear in the phone. The list is
 * one row per opted-out phone, small enough to sort and count whole.
 */
export async function listSuppressions(
  db: Queryable,
  digits: string,
  page: { offset: number; limit: number },
): Promise<{ rows: SuppressionRow[]; total: number }> {
  const { rows } = await db.query<Row & { total: number }>(
    `SELECT ${COLUMNS}, count(*) OVER ()::int AS total
       FROM lead_suppressions
      WHERE strpos(phone, $1) > 0
      ORDER BY created_at DESC, phone DESC
     OFFSET $2 LIMIT $3`,
    [digits, page.offset, page.limit],
  );
  if (rows.length > 0) return { rows: rows.map(toSuppression), total: rows[0]!.total };
  // Past the last page the window has no row to carry the total.
  const counted = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM lead_suppressions WHERE strpos(phone, $1) > 0', [digits]);
  return { rows: [], total: counted.rows[0]?.n ?? 0 };
}

/**
 * Which of `phones` (ten digits each) are on the suppression list: for the importer, a batch at
 * a time, in one query.
 */
export async function suppressedPhonesAmong(db: Queryable, phones: string[]): Promise<Set<string>> {
  if (phones.length === 0) return new Set();
  const { rows } = await db.query<{ phone: string }>('SELECT phone FROM lead_suppressions WHERE phone = ANY($1::text[])', [[...new Set(phones)]]);
  return new Set(rows.map((r) => r.phone));
}

/** The buyers of sold leads with this phone, each once. */
export async function buyersOfPhone(db: Queryable, phone: string): Promise<string[]> {
  const { rows } = await db.query<{ buyer: string }>(
    'SELECT DISTINCT sold_to_user_id AS buyer FROM aged_leads WHERE phone = $1 AND sold_at IS NOT NULL ORDER BY 1',
    [phone],
  );
  return rows.map((r) => r.buyer);
}

export interface BoughtLead {
  id: string;
  name: string;
  phone: string;
  soldAt: Date;
}

/** One buyer's leads with this phone, in the order bought. */
export async function leadsBoughtWithPhone(db: Queryable, buyerUserId: string, phone: string): Promise<BoughtLead[]> {
  const { rows } = await db.query<{ id: string; name: string; phone: string; sold_at: Date }>(
    `SELECT id, name, phone, sold_at FROM aged_leads
      WHERE sold_to_user_id = $1 AND phone = $2 AND sold_at IS NOT NULL
      ORDER BY sold_at, id`,
    [buyerUserId, phone],
  );
  return rows.map((r) => ({ id: r.id, name: r.name, phone: r.phone, soldAt: r.sold_at }));
}

/**
 * Phones suppressed before their copies were sent (mirrored_at NULL), locked and marked sent:
 * the caller queues their suppression.mirror in the same transaction. SKIP LOCKED: two replicas
 * starting at once each send a phone at most once between them.
 */
export async function claimUnmirroredSuppressions(db: Queryable, at: Date): Promise<Array<{ phone: string; createdAt: Date }>> {
  const { rows } = await db.query<{ phone: string; createdAt: Date }>(
    `WITH claimed AS (SELECT phone FROM lead_suppressions WHERE mirrored_at IS NULL ORDER BY created_at, phone FOR UPDATE SKIP LOCKED)
     UPDATE lead_suppressions s SET mirrored_at = $1 FROM claimed WHERE s.phone = claimed.phone
     RETURNING s.phone, s.created_at AS "createdAt"`,
    [at],
  );
  return rows;
}
