import type { Queryable } from '@warmline/platform/db/index';

/**
 * The orders service's numbers for the admin cards: money taken this month (every product —
 * packages, second-brand, aged leads and transfer orders are all payments in package_orders —
 * by the month of payment in `timeZone`) less what was refunded this month (a refunded amount
 * never counts as revenue), and transfer orders paid but not yet delivered.
 */
export async function orderStats(db: Queryable, timeZone: string): Promise<{ revenueThisMonthCents: number; openTransferOrders: number }> {
  const { rows } = await db.query<{ revenue: string; open: string }>(
    `SELECT
       (SELECT coalesce(sum(amount_cents), 0) FROM package_orders
         WHERE status = 'paid' AND paid_at >= date_trunc('month', now() AT TIME ZONE $1) AT TIME ZONE $1)
       - (SELECT coalesce(sum(amount_cents), 0) FROM refunds
         WHERE created_at >= date_trunc('month', now() AT TIME ZONE $1) AT TIME ZONE $1) AS revenue,
       (SELECT count(*) FROM transfer_orders WHERE status = 'paid') AS open`,
    [timeZone],
  );
  return { revenueThisMonthCents: Number(rows[0]?.revenue ?? 0), openTransferOrders: Number(rows[0]?.open ?? 0) };
}
