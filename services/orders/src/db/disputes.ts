import type { Queryable } from '@warmline/platform/db/index';

/** The dispute flag on an order (a buyer disputed the payment with their bank). */

export interface NewDispute {
  orderId: string;
  disputeId: string;
  reason: string;
  disputedCents: number;
}

/**
 * Flags the order as disputed; false when this dispute is already recorded (Stripe sends an
 * event again, or under another event id), so the team is told once.
 */
export async function flagOrderDisputed(db: Queryable, d: NewDispute): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE package_orders
        SET disputed_at = now(), dispute_id = $2, dispute_reason = $3, disputed_cents = $4, updated_at = now()
      WHERE id = $1 AND dispute_id IS DISTINCT FROM $2`,
    [d.orderId, d.disputeId, d.reason, d.disputedCents],
  );
  return rowCount === 1;
}
