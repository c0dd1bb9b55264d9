import type { Queryable } from '@warmline/platform/db/index';

/* What the signed agent's latest orders say, read by other services (internal routes). */

/**
 * The states of the agent's latest transfer order that was not cancelled (the catalog starts an
 * agent's call-backs in them when their survey named none); empty when there is none.
 */
export async function latestTransferOrderStates(db: Queryable, userId: string): Promise<string[]> {
  const { rows } = await db.query<{ selectedStates: string[] }>(
    `SELECT selected_states AS "selectedStates" FROM transfer_orders
      WHERE user_id = $1 AND status <> 'cancelled' ORDER BY created_at DESC, id LIMIT 1`,
    [userId],
  );
  return rows[0]?.selectedStates ?? [];
}

/**
 * The delivery details of the agent's latest transfer order that is not cancelled (issue 23: the
 * transfers service suggests delivery settings from it); null when they have none.
 */
export async function latestTransferOrderDelivery(
  db: Queryable,
  userId: string,
): Promise<{ transferPhone: string; callsPerDay: number; transferHours: string; states: string[] } | null> {
  const { rows } = await db.query<{ transferPhone: string; callsPerDay: number; transferHours: string; states: string[] }>(
    `SELECT transfer_number AS "transferPhone", transfers_per_day AS "callsPerDay", transfer_hours AS "transferHours", selected_states AS states
       FROM transfer_orders WHERE user_id = $1 AND status <> 'cancelled' ORDER BY created_at DESC, id LIMIT 1`,
    [userId],
  );
  return rows[0] ?? null;
}

/**
 * The buyer's latest paid Call-Backs orders (WarmLine's own, or the second brand's package) not refunded
 * in full, newest first: the catalog credits each a moment after it is paid (issue 22). Orders
 * written before leadType travelled name the product in the description, as the catalog reads them.
 */
export async function paidCallBacksOrders(db: Queryable, buyerUserId: string, limit: number): Promise<Array<{ id: string; count: number; paidAt: Date }>> {
  const { rows } = await db.query<{ id: string; count: number; paid_at: Date }>(
    `SELECT id, count, paid_at FROM package_orders
      WHERE buyer_user_id = $1 AND status = 'paid' AND refunded_cents < amount_cents
        AND kind = 'package'
        AND ((tier = 'callbacks' AND lead_type = 'Call-Backs')
          OR (tier = 'ringcloud' AND (lead_type = 'Call-Backs' OR (lead_type IS NULL AND description LIKE 'RingCloud Call-Backs%'))))
      ORDER BY paid_at DESC, id DESC
      LIMIT $2`,
    [buyerUserId, limit],
  );
  return rows.map((r) => ({ id: r.id, count: r.count, paidAt: r.paid_at }));
}
