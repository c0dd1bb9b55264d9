import type { Queryable } from '@warmline/platform/db/index';

/** Queries of `refunds` and the refunded total kept on each order. */

export interface NewRefund {
  orderId: string;
  amountCents: number;
  reason: string;
  initiatedBy: 'admin' | 'system' | 'provider';
  actorId: string | null;
  providerRefundId: string;
  idempotencyKey: string | null;
}

export interface RefundRecord extends NewRefund {
  id: string;
  createdAt: Date;
}

const COLUMNS = `id, order_id AS "orderId", amount_cents AS "amountCents", reason, initiated_by AS "initiatedBy",
  actor_id AS "actorId", provider_refund_id AS "providerRefundId", idempotency_key AS "idempotencyKey", created_at AS "createdAt"`;

/**
 * Holds a refund's idempotency key until the transaction ends: the same key asked for on two
 * orders at once (each locking only its own order) is then carried out once, the other sees it.
 */
export async function lockRefundKey(db: Queryable, key: string): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`orders:refund-key:${key}`]);
}

export async function findRefundByIdempotencyKey(db: Queryable, key: string): Promise<RefundRecord | null> {
  const { rows } = await db.query<RefundRecord>(`SELECT ${COLUMNS} FROM refunds WHERE idempotency_key = $1`, [key]);
  return rows[0] ?? null;
}

export async function findRefundByProviderId(db: Queryable, providerRefundId: string): Promise<RefundRecord | null> {
  const { rows } = await db.query<RefundRecord>(`SELECT ${COLUMNS} FROM refunds WHERE provider_refund_id = $1`, [providerRefundId]);
  return rows[0] ?? null;
}

/** Stores a refund and adds it to its order's refunded total; the order's total after it. */
export async function insertRefund(db: Queryable, r: NewRefund): Promise<{ refund: RefundRecord; refundedTotalCents: number }> {
  const { rows } = await db.query<RefundRecord>(
    `INSERT INTO refunds (order_id, amount_cents, reason, initiated_by, actor_id, provider_refund_id, idempotency_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
    [r.orderId, r.amountCents, r.reason, r.initiatedBy, r.actorId, r.providerRefundId, r.idempotencyKey],
  );
  const total = await db.query<{ refunded: number }>(
    `UPDATE package_orders SET refunded_cents = refunded_cents + $2, updated_at = now() WHERE id = $1 RETURNING refunded_cents AS refunded`,
    [r.orderId, r.amountCents],
  );
  return { refund: rows[0]!, refundedTotalCents: total.rows[0]!.refunded };
}

/** What was already refunded of an order (for the provider's own reports). */
export async function refundedCentsOf(db: Queryable, orderId: string): Promise<number> {
  const { rows } = await db.query<{ refunded: number }>('SELECT refunded_cents AS refunded FROM package_orders WHERE id = $1', [orderId]);
  return rows[0]?.refunded ?? 0;
}
