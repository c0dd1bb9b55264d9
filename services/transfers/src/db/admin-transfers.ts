import type { HoursRange } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform/db/index';
import { COUNTS_TOWARD_CAP } from './my-transfers';

/** An agent as the admin's tab shows them, with today's count in their own zone. */
export interface AdminAgentRow {
  userId: string;
  displayName: string;
  balance: number;
  inFlight: number;
  today: number;
  dailyCap: number | null;
  atOnce: number;
  timeZone: string | null;
  states: string[];
  hours: HoursRange[];
  paused: boolean;
  transferPhone: string | null;
  lastRoutedAt: Date | null;
}

/** Every live agent with transfers or settings; today is each agent's own date (their zone, else the business's). */
export async function adminAgents(db: Queryable, now: Date, businessTimeZone: string): Promise<AdminAgentRow[]> {
  const { rows } = await db.query<AdminAgentRow>(
    `SELECT a.user_id AS "userId", a.display_name AS "displayName", a.balance,
            (SELECT count(*)::int FROM transfers t WHERE t.agent_id = a.user_id AND t.status = 'routed' AND t.expires_at > $1) AS "inFlight",
            (SELECT count(*)::int FROM transfers t WHERE t.agent_id = a.user_id
                AND t.agent_date = ($1::timestamptz AT TIME ZONE COALESCE(a.time_zone, $2))::date
                AND ${COUNTS_TOWARD_CAP}) AS today,
            a.daily_cap AS "dailyCap", a.at_once AS "atOnce", a.time_zone AS "timeZone", a.states, a.hours, a.paused,
            a.transfer_phone AS "transferPhone", a.last_routed_at AS "lastRoutedAt"
       FROM agents a
      WHERE a.deleted_at IS NULL AND (a.balance > 0 OR a.settings_saved_at IS NOT NULL)
      ORDER BY a.balance DESC, a.display_name, a.user_id`,
    [now, businessTimeZone],
  );
  return rows;
}

export interface RevenueRow {
  date: string;
  chargedTransfers: number;
  chargedCents: number;
  creditedBackCents: number;
  paidCents: number;
  refundedCents: number;
}

/**
 * Per business day from `fromDate` to `toDate` (dates in `zone`): what charged transfers were
 * bought at, what disputes gave back, what order lots were paid, and what refunds of them gave
 * back (a refund counts on the day its order's refunded total last grew).
 */
export async function revenueByDay(db: Queryable, fromDate: string, toDate: string, zone: string): Promise<RevenueRow[]> {
  const { rows } = await db.query<RevenueRow>(
    `WITH days AS (SELECT generate_series($1::date, $2::date, interval '1 day')::date AS d),
          start AS (SELECT ($1::date)::timestamp AT TIME ZONE $3 AS at),
          charged AS (
            SELECT (COALESCE(settled_at, routed_at) AT TIME ZONE $3)::date AS d, count(*)::int AS n, sum(charged_cents)::bigint AS cents
              FROM transfers, start WHERE status IN ('charged', 'disputed', 'credited') AND COALESCE(settled_at, routed_at) >= start.at GROUP BY 1),
          credited AS (
            SELECT (e.at AT TIME ZONE $3)::date AS d, sum(e.unit_cents * e.transfers)::bigint AS cents
              FROM ledger_entries e, start WHERE e.kind = 'dispute_credit' AND e.at >= start.at GROUP BY 1),
          paid AS (
            SELECT (credited_at AT TIME ZONE $3)::date AS d, sum(paid_cents)::bigint AS cents
              FROM credit_lots, start WHERE source = 'order' AND credited_at >= start.at GROUP BY 1),
          refunded AS (
            SELECT (r.updated_at AT TIME ZONE $3)::date AS d, sum(LEAST(r.refunded_total_cents, l.paid_cents))::bigint AS cents
              FROM order_refunds r JOIN credit_lots l ON l.order_id = r.order_id, start WHERE r.updated_at >= start.at GROUP BY 1)
     SELECT to_char(days.d, 'YYYY-MM-DD') AS date, COALESCE(charged.n, 0) AS "chargedTransfers",
            COALESCE(charged.cents, 0)::int AS "chargedCents", COALESCE(credited.cents, 0)::int AS "creditedBackCents",
            COALESCE(paid.cents, 0)::int AS "paidCents", COALESCE(refunded.cents, 0)::int AS "refundedCents"
       FROM days LEFT JOIN charged USING (d) LEFT JOIN credited USING (d) LEFT JOIN paid USING (d) LEFT JOIN refunded USING (d)
      ORDER BY days.d DESC`,
    [fromDate, toDate, zone],
  );
  return rows;
}

/** The agent's lots with transfers left, newest first (an adjustment down takes from these first). */
export async function newestOpenLots(db: Queryable, agentId: string): Promise<Array<{ id: string; remaining: number }>> {
  const { rows } = await db.query<{ id: string; remaining: number }>(
    'SELECT id, remaining FROM credit_lots WHERE agent_id = $1 AND remaining > 0 ORDER BY credited_at DESC, id DESC',
    [agentId],
  );
  return rows;
}

/** The price of the agent's latest lot (what an adjustment up counts at by default). */
export async function latestLotPrice(db: Queryable, agentId: string): Promise<number | null> {
  const { rows } = await db.query<{ unitCents: number }>(
    'SELECT unit_cents AS "unitCents" FROM credit_lots WHERE agent_id = $1 ORDER BY credited_at DESC, id DESC LIMIT 1',
    [agentId],
  );
  return rows[0]?.unitCents ?? null;
}

export async function agentName(db: Queryable, agentId: string): Promise<string | null> {
  const { rows } = await db.query<{ name: string }>('SELECT display_name AS name FROM agents WHERE user_id = $1', [agentId]);
  return rows[0]?.name ?? null;
}
