import type { DisputeReason, DisputeStatus, TransferStatus, TransferView } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform/db/index';
import { SqlConditions } from '@warmline/platform/db/sql-conditions';

/** What the vendor told of the call, stored as the agent sees it (contracts' TransferView). */
type TransferCallFacts = Pick<
  TransferView,
  'id' | 'firstName' | 'lastName' | 'phone' | 'state' | 'leadType' | 'durationSeconds' | 'status' | 'chargedCents' | 'transcript' | 'recordingUrl' | 'disposition'
>;

/** A transfer with its dispute, as My Transfers and the admin's list read it. */
export interface TransferRow extends TransferCallFacts {
  agentId: string;
  agentName: string;
  routedAt: Date;
  disputeId: string | null;
  disputeReason: DisputeReason | null;
  disputeStatus: DisputeStatus | null;
  disputeNote: string | null;
  decisionReason: string | null;
  openedAt: Date | null;
  decidedAt: Date | null;
  /** When the prospect's phone opted out (the copy of the suppression list), or null (issue 24). */
  optedOutAt: Date | null;
}

export const TRANSFER_COLUMNS = `t.id, t.agent_id AS "agentId", a.display_name AS "agentName", t.routed_at AS "routedAt",
  t.first_name AS "firstName", t.last_name AS "lastName", t.phone, t.state, t.lead_type AS "leadType",
  t.duration_seconds AS "durationSeconds", t.status, t.charged_cents AS "chargedCents", t.transcript,
  t.recording_url AS "recordingUrl", t.disposition, d.id AS "disputeId", d.reason AS "disputeReason",
  d.status AS "disputeStatus", d.note AS "disputeNote", d.decision_reason AS "decisionReason", d.opened_at AS "openedAt", d.decided_at AS "decidedAt",
  (SELECT sp.changed_at FROM suppressed_phones sp WHERE sp.phone = t.phone AND sp.suppressed) AS "optedOutAt"`;

export const TRANSFER_FROM = 'transfers t JOIN agents a ON a.user_id = t.agent_id LEFT JOIN transfer_disputes d ON d.transfer_id = t.id';

export interface TransferFilter {
  /** Only this agent's (My Transfers); every agent's when absent (the admin). */
  agentId?: string;
  status?: TransferStatus;
  /** Dates (YYYY-MM-DD) read in `timeZone`: from its first moment, to its last. */
  from?: string;
  to?: string;
  timeZone: string;
}

function conditionsOf(filter: TransferFilter): SqlConditions {
  const where = new SqlConditions();
  if (filter.agentId) where.add('t.agent_id = ?', filter.agentId);
  if (filter.status) where.add('t.status = ?', filter.status);
  // The zone's own midnight, DST included: PostgreSQL does the arithmetic.
  if (filter.from) where.add('t.routed_at >= (?::date)::timestamp AT TIME ZONE ?', filter.from, filter.timeZone);
  if (filter.to) where.add('t.routed_at < (?::date + 1)::timestamp AT TIME ZONE ?', filter.to, filter.timeZone);
  return where;
}

/** One page, newest first, and how many match in all. */
export async function listTransfers(db: Queryable, filter: TransferFilter, page: { limit: number; offset: number }): Promise<{ rows: TransferRow[]; total: number }> {
  const where = conditionsOf(filter);
  const n = where.params.length;
  const [list, count] = await Promise.all([
    db.query<TransferRow>(
      `SELECT ${TRANSFER_COLUMNS} FROM ${TRANSFER_FROM}${where.where} ORDER BY t.routed_at DESC, t.id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...where.params, page.limit, page.offset],
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM transfers t${where.where}`, where.params),
  ]);
  return { rows: list.rows, total: count.rows[0]?.total ?? 0 };
}

/**
 * The transfers of a day that count against the daily cap, as routing counts them: not those
 * never connected, nor reservations that ran out. `$1` is now.
 */
export const COUNTS_TOWARD_CAP = "t.status <> 'not_connected' AND NOT (t.status = 'routed' AND t.expires_at <= $1)";

/** The agent's balance, what routing holds for them now, and today's count (their own date). */
export async function agentDay(db: Queryable, agentId: string, agentDate: string, now: Date): Promise<{ balance: number; inFlight: number; today: number }> {
  const { rows } = await db.query<{ balance: number; inFlight: number; today: number }>(
    `SELECT COALESCE((SELECT balance FROM agents WHERE user_id = $2), 0) AS balance,
            (SELECT count(*)::int FROM transfers WHERE agent_id = $2 AND status = 'routed' AND expires_at > $1) AS "inFlight",
            (SELECT count(*)::int FROM transfers t WHERE t.agent_id = $2 AND t.agent_date = $3 AND ${COUNTS_TOWARD_CAP}) AS today`,
    [now, agentId, agentDate],
  );
  return rows[0]!;
}
