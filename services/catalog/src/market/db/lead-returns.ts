import type { Queryable } from '@warmline/platform/db/index';
import type { LeadReturnReason, LeadReturnStatus } from '@warmline/contracts';

/** Queries of `lead_returns` (issue 24, ADR 0034) and the returned mark on `aged_leads`. */

export interface LeadReturnRow {
  id: string;
  leadId: string;
  buyerUserId: string;
  buyerUsername: string;
  orderId: string;
  priceCents: number;
  reason: LeadReturnReason;
  note: string | null;
  recordsBackIt: boolean | null;
  status: LeadReturnStatus;
  automatic: boolean;
  requestedAt: Date;
  decidedAt: Date | null;
  decidedByUserId: string | null;
  decidedByUsername: string | null;
  decisionReason: string | null;
  refundedAt: Date | null;
  refundedCents: number | null;
}

const COLUMNS = `r.id, r.lead_id AS "leadId", r.buyer_user_id AS "buyerUserId", r.buyer_username AS "buyerUsername", r.order_id AS "orderId",
  r.price_cents AS "priceCents", r.reason, r.note, r.records_back_it AS "recordsBackIt", r.status, r.automatic,
  r.requested_at AS "requestedAt", r.decided_at AS "decidedAt", r.decided_by_user_id AS "decidedByUserId",
  r.decided_by_username AS "decidedByUsername", r.decision_reason AS "decisionReason", r.refunded_at AS "refundedAt",
  r.refunded_cents AS "refundedCents"`;

/** A lead as its buyer's return needs it: the sale and the checks kept with it. */
export interface ReturnableLead {
  id: string;
  name: string;
  phone: string;
  state: string;
  soldToUserId: string;
  soldOrderId: string;
  soldAt: Date;
  soldPriceCents: number;
  dncRegistryMatchAtSale: boolean | null;
}

/** The buyer's own sold lead, locked (two returns of it at once wait for each other); null for anyone else's. */
export async function lockBuyersLead(db: Queryable, leadId: string, buyerUserId: string): Promise<ReturnableLead | null> {
  const { rows } = await db.query<ReturnableLead>(
    `SELECT id, name, phone, state, sold_to_user_id AS "soldToUserId", sold_order_id AS "soldOrderId", sold_at AS "soldAt",
            sold_price_cents AS "soldPriceCents", dnc_registry_match AS "dncRegistryMatchAtSale"
       FROM aged_leads WHERE id = $1 AND sold_to_user_id = $2 AND sold_at IS NOT NULL FOR UPDATE`,
    [leadId, buyerUserId],
  );
  return rows[0] ?? null;
}

/** Whether the buyer bought another lead with the same phone before this one (or with it), not returned. */
export async function boughtSamePhoneBefore(db: Queryable, lead: ReturnableLead): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM aged_leads
      WHERE phone = $1 AND sold_to_user_id = $2 AND id <> $3 AND sold_at <= $4 AND returned_at IS NULL LIMIT 1`,
    [lead.phone, lead.soldToUserId, lead.id, lead.soldAt],
  );
  return rows.length > 0;
}

export async function isPhoneSuppressed(db: Queryable, phone: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM lead_suppressions WHERE phone = $1', [phone]);
  return rows.length > 0;
}

export async function findReturnOfLead(db: Queryable, leadId: string): Promise<LeadReturnRow | null> {
  const { rows } = await db.query<LeadReturnRow>(`SELECT ${COLUMNS} FROM lead_returns r WHERE r.lead_id = $1`, [leadId]);
  return rows[0] ?? null;
}

export async function lockReturn(db: Queryable, id: string): Promise<LeadReturnRow | null> {
  const { rows } = await db.query<LeadReturnRow>(`SELECT ${COLUMNS} FROM lead_returns r WHERE r.id = $1 FOR UPDATE`, [id]);
  return rows[0] ?? null;
}

export async function insertReturn(
  db: Queryable,
  r: Pick<LeadReturnRow, 'id' | 'leadId' | 'buyerUserId' | 'buyerUsername' | 'orderId' | 'priceCents' | 'reason' | 'note' | 'recordsBackIt' | 'status' | 'automatic' | 'requestedAt' | 'decidedAt'>,
): Promise<LeadReturnRow> {
  const { rows } = await db.query<LeadReturnRow>(
    `INSERT INTO lead_returns AS r (id, lead_id, buyer_user_id, buyer_username, order_id, price_cents, reason, note, records_back_it, status, automatic, requested_at, decided_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING ${COLUMNS}`,
    [r.id, r.leadId, r.buyerUserId, r.buyerUsername, r.orderId, r.priceCents, r.reason, r.note, r.recordsBackIt, r.status, r.automatic, r.requestedAt, r.decidedAt],
  );
  return rows[0]!;
}

export async function decideReturn(
  db: Queryable,
  id: string,
  d: { status: 'accepted' | 'refused'; at: Date; byUserId: string; byUsername: string; reason: string | null },
): Promise<LeadReturnRow> {
  const { rows } = await db.query<LeadReturnRow>(
    `UPDATE lead_returns AS r SET status = $2, decided_at = $3, decided_by_user_id = $4, decided_by_username = $5, decision_reason = $6
      WHERE r.id = $1 AND r.status = 'pending' RETURNING ${COLUMNS}`,
    [id, d.status, d.at, d.byUserId, d.byUsername, d.reason],
  );
  return rows[0]!;
}

/** The lead leaves its buyer's active list for good (the row stays sold to them). */
export async function markLeadReturned(db: Queryable, leadId: string, at: Date): Promise<void> {
  await db.query('UPDATE aged_leads SET returned_at = $2 WHERE id = $1 AND returned_at IS NULL', [leadId, at]);
}

/** orders refunded a return's lead: the first report counts, a redelivery changes nothing. */
export async function recordReturnRefund(db: Queryable, leadId: string, amountCents: number, at: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE lead_returns SET refunded_at = $3, refunded_cents = $2 WHERE lead_id = $1 AND status = 'accepted' AND refunded_at IS NULL`,
    [leadId, amountCents, at],
  );
  return (rowCount ?? 0) > 0;
}

/** The buyer's returns of the given leads (My Leads' page). */
export async function returnsOfLeads(db: Queryable, leadIds: readonly string[]): Promise<Map<string, LeadReturnRow>> {
  const map = new Map<string, LeadReturnRow>();
  if (leadIds.length === 0) return map;
  const { rows } = await db.query<LeadReturnRow>(`SELECT ${COLUMNS} FROM lead_returns r WHERE r.lead_id = ANY($1::uuid[])`, [leadIds]);
  for (const row of rows) map.set(row.leadId, row);
  return map;
}

export interface AdminReturnRow extends LeadReturnRow {
  leadName: string;
  leadPhone: string;
  leadState: string;
  soldAt: Date;
}

/** The admin's queue: pending ones oldest first (the longest waiting on top), decided ones newest decision first. */
export async function listReturns(db: Queryable, status: LeadReturnStatus, page: { offset: number; limit: number }): Promise<{ rows: AdminReturnRow[]; total: number }> {
  const order = status === 'pending' ? 'r.requested_at ASC, r.id' : 'r.decided_at DESC, r.id';
  const list = await db.query<AdminReturnRow>(
      `SELECT ${COLUMNS}, l.name AS "leadName", l.phone AS "leadPhone", l.state AS "leadState", l.sold_at AS "soldAt"
         FROM lead_returns r JOIN aged_leads l ON l.id = r.lead_id
        WHERE r.status = $1 ORDER BY ${order} OFFSET $2 LIMIT $3`,
      [status, page.offset, page.limit],
  );
  const count = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM lead_returns WHERE status = $1', [status]);
  return { rows: list.rows, total: count.rows[0]?.n ?? 0 };
}

/** Per buyer: leads bought since `since`, and how many of those they returned (whatever the decision). */
export async function returnCountsSince(db: Queryable, buyerUserIds: readonly string[], since: Date): Promise<Map<string, { returned: number; bought: number }>> {
  const map = new Map<string, { returned: number; bought: number }>();
  if (buyerUserIds.length === 0) return map;
  const { rows } = await db.query<{ buyer: string; bought: number; returned: number }>(
    `SELECT l.sold_to_user_id AS buyer, count(*)::int AS bought, count(r.id)::int AS returned
       FROM aged_leads l LEFT JOIN lead_returns r ON r.lead_id = l.id
      WHERE l.sold_to_user_id = ANY($1::uuid[]) AND l.sold_at >= $2
      GROUP BY l.sold_to_user_id`,
    [[...new Set(buyerUserIds)], since],
  );
  for (const r of rows) map.set(r.buyer, { returned: r.returned, bought: r.bought });
  return map;
}

/** The returned lead as the admin's list shows it beside its return. */
export async function returnedLeadFacts(db: Queryable, leadId: string): Promise<{ leadName: string; leadPhone: string; leadState: string; soldAt: Date }> {
  const { rows } = await db.query<{ leadName: string; leadPhone: string; leadState: string; soldAt: Date }>(
    'SELECT name AS "leadName", phone AS "leadPhone", state AS "leadState", sold_at AS "soldAt" FROM aged_leads WHERE id = $1',
    [leadId],
  );
  return rows[0]!;
}
