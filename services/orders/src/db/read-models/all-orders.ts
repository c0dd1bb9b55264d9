import type { Queryable } from '@warmline/platform/db/index';
import type { AdminOrderRow, AllOrdersQuery, RevenueDay } from '@warmline/contracts';
import { containsPattern, SqlConditions } from '@warmline/platform/db/sql-conditions';

/**
 * All Orders (issue 12): every payment row (packages, second-brand, aged leads, transfer orders)
 * with its product, buyer as at purchase, and one status a person would use: a transfer order's
 * own (completed, cancelled), refunded or partially refunded, else the payment's.
 */
const ALL_ORDERS = `
  SELECT o.id,
         CASE WHEN o.kind = 'transfer' THEN 'transfer' WHEN o.kind = 'lead' THEN 'aged-leads'
              WHEN o.tier = 'ringcloud' THEN 'second-brand' WHEN o.tier = 'callbacks' THEN 'callbacks' ELSE 'package' END AS product,
         CASE WHEN o.kind = 'transfer' THEN t.first_name || ' ' || t.last_name ELSE o.billing_name END AS "buyerName",
         CASE WHEN o.kind = 'transfer' THEN t.email ELSE o.billing_email END AS "buyerEmail",
         o.description, o.amount_cents AS "amountCents", o.refunded_cents AS "refundedCents",
         CASE WHEN o.kind = 'transfer' AND t.status IN ('cancelled', 'completed') THEN t.status
              WHEN o.status = 'paid' AND o.refunded_cents >= o.amount_cents THEN 'refunded'
              WHEN o.status = 'paid' AND o.refunded_cents > 0 THEN 'partially-refunded'
              ELSE o.status END AS status,
         o.status = 'paid' AS paid,
         o.disputed_at IS NOT NULL AS disputed,
         o.created_at AS "createdAt", o.paid_at AS "paidAt"
    FROM package_orders o LEFT JOIN transfer_orders t ON t.id = o.id`;

export async function listAllOrders(
  db: Queryable,
  filter: Omit<AllOrdersQuery, 'page'> & { timeZone: string; limit: number; offset: number },
): Promise<{ orders: AdminOrderRow[]; total: number; totals: { count: number; paidCents: number; refundedCents: number } }> {
  const conditions = new SqlConditions();
  if (filter.product) conditions.add('product = ?', filter.product);
  if (filter.status) conditions.add('status = ?', filter.status);
  if (filter.q) {
    // Case-insensitive, the text taken literally.
    const pattern = containsPattern(filter.q);
    conditions.add(`("buyerEmail" ILIKE ? OR "buyerName" ILIKE ?)`, pattern, pattern);
  }
  // Inclusive dates on the business's calendar.
  if (filter.from) conditions.add(`"createdAt" >= (?::date)::timestamp AT TIME ZONE ?`, filter.from, filter.timeZone);
  if (filter.to) conditions.add(`"createdAt" < ((?::date + 1)::timestamp AT TIME ZONE ?)`, filter.to, filter.timeZone);
  const { params } = conditions;
  const filtered = `WITH all_orders AS (${ALL_ORDERS}) SELECT * FROM all_orders${conditions.where}`;
  const [page, totals] = await Promise.all([
    db.query<AdminOrderRow & { createdAt: Date; paidAt: Date | null; paid: boolean }>(
      `${filtered} ORDER BY "createdAt" DESC, id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.limit, filter.offset],
    ),
    db.query<{ count: number; paid: string; refunded: string }>(
      `SELECT count(*)::int AS count, coalesce(sum("amountCents") FILTER (WHERE paid), 0) AS paid, coalesce(sum("refundedCents"), 0) AS refunded FROM (${filtered}) f`,
      params,
    ),
  ]);
  const t = totals.rows[0]!;
  return {
    orders: page.rows.map(({ paid: _paid, ...r }) => ({ ...r, createdAt: r.createdAt.toISOString(), paidAt: r.paidAt?.toISOString() ?? null })),
    total: t.count,
    totals: { count: t.count, paidCents: Number(t.paid), refundedCents: Number(t.refunded) },
  };
}

/**
 * Revenue per day by product for the last `days` days (today included) in `timeZone`: payments
 * on the day they were paid, less refunds on the day they were made. Every day is there.
 */
export async function revenuePerDay(db: Queryable, days: number, timeZone: string): Promise<RevenueDay[]> {
  const { rows } = await db.query<{ date: string; product: string; cents: string }>(
    `WITH span AS (
       SELECT generate_series((now() AT TIME ZONE $1)::date - ($2::int - 1), (now() AT TIME ZONE $1)::date, interval '1 day')::date AS day
     ),
     products AS (
       SELECT o.id, CASE WHEN o.kind = 'transfer' THEN 'transfer' WHEN o.kind = 'lead' THEN 'aged-leads'
                         WHEN o.tier = 'ringcloud' THEN 'second-brand' WHEN o.tier = 'callbacks' THEN 'callbacks' ELSE 'package' END AS product,
              o.amount_cents, o.paid_at
         FROM package_orders o WHERE o.status = 'paid'
     ),
     moves AS (
       SELECT (paid_at AT TIME ZONE $1)::date AS day, product, amount_cents AS cents FROM products
       UNION ALL
       SELECT (r.created_at AT TIME ZONE $1)::date, p.product, -r.amount_cents FROM refunds r JOIN products p ON p.id = r.order_id
     )
     SELECT to_char(span.day, 'YYYY-MM-DD') AS date, m.product, coalesce(sum(m.cents), 0) AS cents
       FROM span LEFT JOIN moves m ON m.day = span.day
      GROUP BY span.day, m.product ORDER BY span.day`,
    [timeZone, days],
  );
  const byDay = new Map<string, RevenueDay>();
  for (const r of rows) {
    const day = byDay.get(r.date) ?? { date: r.date, packageCents: 0, secondBrandCents: 0, agedLeadsCents: 0, transferCents: 0 };
    const cents = Number(r.cents);
    // WarmLine's Call-Backs count with its packages: the chart has no line of their own (yet).
    if (r.product === 'package' || r.product === 'callbacks') day.packageCents += cents;
    else if (r.product === 'second-brand') day.secondBrandCents += cents;
    else if (r.product === 'aged-leads') day.agedLeadsCents += cents;
    else if (r.product === 'transfer') day.transferCents += cents;
    byDay.set(r.date, day);
  }
  return [...byDay.values()];
}
