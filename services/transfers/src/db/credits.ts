import type { Queryable } from '@warmline/platform/db/index';

/**
 * The order side of the ledger (issue 23 §1): paid orders waiting for their buyer, refunds that
 * may arrive before the credit, and the one lot each credited order made.
 */

/**
 * Holds one order's credit, claim and refunds still until the transaction ends, so whichever
 * arrives first is seen by the others (a row lock cannot: the lot may not exist yet).
 */
export async function lockOrder(db: Queryable, orderId: string): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`transfers:order:${orderId}`]);
}

export interface OrderLot {
  id: string;
  orderId: string;
  agentId: string;
  unitCents: number;
  paidCents: number;
  credited: number;
  remaining: number;
  takenBack: number;
}

export async function findOrderLot(db: Queryable, orderId: string): Promise<OrderLot | null> {
  const { rows } = await db.query<OrderLot>(
    `SELECT id, order_id AS "orderId", agent_id AS "agentId", unit_cents AS "unitCents", paid_cents AS "paidCents", credited, remaining, taken_back AS "takenBack"
       FROM credit_lots WHERE order_id = $1`,
    [orderId],
  );
  return rows[0] ?? null;
}

export interface UnclaimedOrder {
  orderId: string;
  description: string;
  count: number;
  unitCents: number;
  paidCents: number;
  paidAt: Date;
}

/** Keeps a paid order without a buyer until its claim (a repeat changes nothing). */
export async function keepUnclaimedOrder(db: Queryable, order: UnclaimedOrder): Promise<void> {
  await db.query(
    `INSERT INTO unclaimed_orders (order_id, description, count, unit_cents, paid_cents, paid_at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (order_id) DO NOTHING`,
    [order.orderId, order.description, order.count, order.unitCents, order.paidCents, order.paidAt],
  );
}

/** When the order was paid, if it waited for its claim (the claim's lot is dated then). */
export async function takeUnclaimedOrder(db: Queryable, orderId: string): Promise<UnclaimedOrder | null> {
  const { rows } = await db.query<UnclaimedOrder>(
    `DELETE FROM unclaimed_orders WHERE order_id = $1
     RETURNING order_id AS "orderId", description, count, unit_cents AS "unitCents", paid_cents AS "paidCents", paid_at AS "paidAt"`,
    [orderId],
  );
  return rows[0] ?? null;
}

/** Records the order's refunded total (cumulative: the larger one wins, whatever arrived first). */
export async function recordRefundedTotal(db: Queryable, orderId: string, refundedTotalCents: number, at: Date): Promise<number> {
  const { rows } = await db.query<{ total: number }>(
    `INSERT INTO order_refunds (order_id, refunded_total_cents, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (order_id) DO UPDATE SET refunded_total_cents = GREATEST(order_refunds.refunded_total_cents, EXCLUDED.refunded_total_cents),
       updated_at = CASE WHEN EXCLUDED.refunded_total_cents > order_refunds.refunded_total_cents THEN EXCLUDED.updated_at ELSE order_refunds.updated_at END
     RETURNING refunded_total_cents AS total`,
    [orderId, refundedTotalCents, at],
  );
  return rows[0]!.total;
}

export async function refundedTotal(db: Queryable, orderId: string): Promise<number> {
  const { rows } = await db.query<{ total: number }>('SELECT refunded_total_cents AS total FROM order_refunds WHERE order_id = $1', [orderId]);
  return rows[0]?.total ?? 0;
}

/** A deleted account is never routed to again; its ledger stays. */
export async function markAgentDeleted(db: Queryable, agentId: string, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO agents (user_id, deleted_at) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET deleted_at = COALESCE(agents.deleted_at, EXCLUDED.deleted_at), updated_at = EXCLUDED.deleted_at`,
    [agentId, at],
  );
}
