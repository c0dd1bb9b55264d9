import type { Queryable } from '@warmline/platform/db/index';

/**
 * The orders service's numbers for the admin cards: money taken this month (every product —
 * packages, second-brand, aged leads and transfer orders are all payments in package_orders —
 * by the month of payment in `timeZone`) less what was refunded this month (a refunded amount
 * never counts as revenue), and transfer orders paid but not yet delivered.
 */
export async function orderStats(
  db: Queryable,
  timeZone: string,
  /** The moment whose month is counted (tests pass a fixed one). */
  now: Date = new Date(),
): Promise<{ revenueThisMonthCents: number; openTransferOrders: number }> {
  const { rows } = await db.query<{ revenue: string; open: string }>(
    `WITH month AS (
       -- The business's calendar month holding $2, as instants.
       SELECT date_trunc('month', $2::timestamptz AT TIME ZONE $1) AT TIME ZONE $1 AS starts,
              (date_trunc('month', $2::timestamptz AT TIME ZONE $1) + interval '1 month') AT TIME ZONE $1 AS ends
     )
     SELECT
       (SELECT coalesce(sum(amount_cents), 0) FROM package_orders, month
         WHERE status = 'paid' AND paid_at >= month.starts AND paid_at < month.ends)
       - (SELECT coalesce(sum(amount_cents), 0) FROM refunds, month
         WHERE created_at >= month.starts AND created_at < month.ends) AS revenue,
       (SELECT count(*) FROM transfer_orders WHERE status = 'paid') AS open`,
    [timeZone, now],
  );
  return { revenueThisMonthCents: Number(rows[0]?.revenue ?? 0), openTransferOrders: Number(rows[0]?.open ?? 0) };
}
