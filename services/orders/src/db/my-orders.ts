import type { Queryable } from '@warmline/platform/db/index';
import type { AllOrderStatus, MyTransferDelivery, OrderProduct } from '@warmline/contracts';
import type { LeadOrderLine } from '@warmline/contracts/catalog';
import { findOrder, type PackageOrder } from './orders';

/** Queries of My Orders (issue 12): an agent's orders, the cards' last digits, checkout-token links. */


export interface MyOrderRow {
  id: string;
  product: OrderProduct;
  tier: string;
  description: string;
  count: number;
  unitPriceCents: number;
  amountCents: number;
  refundedCents: number;
  status: AllOrderStatus;
  disputed: boolean;
  createdAt: Date;
  paidAt: Date | null;
  cardLast4: string | null;
  transfer: MyTransferDelivery | null;
  leadLines: LeadOrderLine[];
}

/**
 * The agent's orders, newest first: transfer orders in every state (the agent placed them with
 * the order form), and the other products once paid (an unpaid checkout is a payment session
 * left behind, not an order). Status words and product names as All Orders has them.
 */
export async function listOrdersOfBuyer(
  db: Queryable,
  userId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: MyOrderRow[]; total: number }> {
  const { rows } = await db.query<Omit<MyOrderRow, 'leadLines'> & { leadLines: Array<{ ageRange: LeadOrderLine['ageRange']; count: number; unitPriceCents: number }> | null; total: string }>(
    `SELECT o.id,
            CASE WHEN o.kind = 'transfer' THEN 'transfer' WHEN o.kind = 'lead' THEN 'aged-leads'
                 WHEN o.tier = 'ringcloud' THEN 'second-brand' WHEN o.tier = 'callbacks' THEN 'callbacks' ELSE 'package' END AS product,
            o.tier, o.description, o.count, o.unit_price_cents AS "unitPriceCents", o.amount_cents AS "amountCents",
            o.refunded_cents AS "refundedCents",
            CASE WHEN o.kind = 'transfer' AND t.status IN ('cancelled', 'completed') THEN t.status
                 WHEN o.status = 'paid' AND o.refunded_cents >= o.amount_cents THEN 'refunded'
                 WHEN o.status = 'paid' AND o.refunded_cents > 0 THEN 'partially-refunded'
                 ELSE o.status END AS status,
            o.disputed_at IS NOT NULL AS disputed,
            count(*) OVER () AS total,
            o.created_at AS "createdAt", o.paid_at AS "paidAt", o.card_last4 AS "cardLast4",
            CASE WHEN t.id IS NULL THEN NULL ELSE json_build_object(
              'totalTransfers', t.total_transfers, 'transfersPerDay', t.transfers_per_day,
              'transferHours', t.transfer_hours, 'selectedStates', t.selected_states,
              'transferNumber', t.transfer_number) END AS transfer,
            (SELECT json_agg(json_build_object('ageRange', l.age_range, 'count', l.lead_count, 'unitPriceCents', l.unit_price_cents)
                             ORDER BY l.age_range)
               FROM lead_order_lines l WHERE l.order_id = o.id) AS "leadLines"
       FROM package_orders o LEFT JOIN transfer_orders t ON t.id = o.id
      WHERE o.buyer_user_id = $1 AND (o.kind = 'transfer' OR o.status = 'paid')
      ORDER BY o.created_at DESC, o.id
      LIMIT $2 OFFSET $3`,
    [userId, page.limit, page.offset],
  );
  if (rows.length === 0 && page.offset > 0) {
    // Past the last page: the total still tells the pager where the orders are.
    const counted = await db.query<{ total: string }>(
      `SELECT count(*) AS total FROM package_orders o WHERE o.buyer_user_id = $1 AND (o.kind = 'transfer' OR o.status = 'paid')`,
      [userId],
    );
    return { rows: [], total: Number(counted.rows[0]?.total ?? 0) };
  }
  return {
    rows: rows.map(({ total: _total, ...r }) => ({ ...r, leadLines: r.leadLines ?? [] })),
    total: rows.length > 0 ? Number(rows[0]!.total) : 0,
  };
}

/** The last four digits of the card that paid (nothing else of a card is ever stored). */
export async function recordCardLast4(db: Queryable, orderId: string, last4: string): Promise<void> {
  await db.query('UPDATE package_orders SET card_last4 = $2 WHERE id = $1', [orderId, last4]);
}

/**
 * Links a just-created anonymous order to the account a checkout token was signed for, once
 * per token: null (nothing linked) when the token already linked an order.
 */
export async function linkOrderByCheckoutToken(
  db: Queryable,
  input: { orderId: string; tokenId: string; userId: string },
): Promise<PackageOrder | null> {
  const used = await db.query(
    `INSERT INTO checkout_token_uses (token_id, user_id, order_id) VALUES ($1, $2, $3)
     ON CONFLICT (token_id) DO NOTHING`,
    [input.tokenId, input.userId, input.orderId],
  );
  if (used.rowCount !== 1) return null;
  await db.query('UPDATE package_orders SET buyer_user_id = $2, updated_at = now() WHERE id = $1 AND buyer_user_id IS NULL', [
    input.orderId,
    input.userId,
  ]);
  return findOrder(db, input.orderId);
}

/** Whether the order was linked to an account through a checkout token (its buyer may follow it). */
export async function linkedByCheckoutToken(db: Queryable, orderId: string): Promise<boolean> {
  const linked = await db.query('SELECT 1 FROM checkout_token_uses WHERE order_id = $1', [orderId]);
  return linked.rowCount === 1;
}
