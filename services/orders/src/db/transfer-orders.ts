import type { Queryable } from '@warmline/platform/db/index';
import type { PaymentProviderName, TransferOrderRecord, TransferOrderStats, UsStateCode } from '@warmline/contracts';
import { findOrder, type PackageOrder } from './orders';

/** Queries of transfer orders: `transfer_orders` and their payment rows in `package_orders` (kind 'transfer'). */

export interface NewTransferOrder {
  id: string;
  userId: string;
  firstName: string;
  lastName: string;
  phone: string;
  email: string;
  transferNumber: string;
  totalTransfers: number;
  transfersPerDay: number;
  transferHours: string;
  selectedStates: UsStateCode[];
  unitPriceCents: number;
  totalCents: number;
  description: string;
  provider: PaymentProviderName;
}

/** Inserts the pending transfer order and its payment row; returns the payment row. */
export async function insertTransferOrder(db: Queryable, o: NewTransferOrder): Promise<PackageOrder> {
  await db.query(
    `INSERT INTO package_orders (id, kind, tier, lead_type, count, unit_price_cents, amount_cents, currency, description,
       buyer_user_id, billing_name, billing_email, billing_phone, provider)
     VALUES ($1, 'transfer', 'live-transfers', 'Live Transfers', $2, $3, $4, 'usd', $5, $6, $7, $8, $9, $10)`,
    [
      o.id,
      o.totalTransfers,
      o.unitPriceCents,
      o.totalCents,
      o.description,
      o.userId,
      `${o.firstName} ${o.lastName}`.trim() || null,
      o.email || null,
      o.phone || null,
      o.provider,
    ],
  );
  await db.query(
    `INSERT INTO transfer_orders (id, user_id, first_name, last_name, phone, email, transfer_number, total_transfers,
       transfers_per_day, transfer_hours, selected_states, unit_price, total_price)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::numeric / 100, $13::numeric / 100)`,
    [
      o.id,
      o.userId,
      o.firstName,
      o.lastName,
      o.phone,
      o.email,
      o.transferNumber,
      o.totalTransfers,
      o.transfersPerDay,
      o.transferHours,
      o.selectedStates,
      o.unitPriceCents,
      o.totalCents,
    ],
  );
  const order = await findOrder(db, o.id);
  if (!order) throw new Error(`Transfer order ${o.id} vanished right after being inserted`);
  return order;
}

const COLUMNS = `id, user_id AS "userId", first_name AS "firstName", last_name AS "lastName",
  transfer_number AS "transferNumber", phone, email, total_transfers AS "totalTransfers",
  transfers_per_day AS "transfersPerDay", transfer_hours AS "transferHours",
  selected_states AS "selectedStates", lead_type AS "leadType", unit_price::text AS "unitPrice",
  total_price::text AS "totalPrice", status, created_at AS "createdAt", paid_at AS "paidAt"`;

type TransferOrderRow = Omit<TransferOrderRecord, 'createdAt' | 'paidAt'> & { createdAt: Date; paidAt: Date | null };

const toRecord = (r: TransferOrderRow): TransferOrderRecord => ({
  ...r,
  createdAt: r.createdAt.toISOString(),
  paidAt: r.paidAt?.toISOString() ?? null,
});

export async function findTransferOrder(db: Queryable, id: string, options: { forUpdate?: boolean } = {}): Promise<TransferOrderRecord | null> {
  const { rows } = await db.query<TransferOrderRow>(`SELECT ${COLUMNS} FROM transfer_orders WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`, [id]);
  return rows[0] ? toRecord(rows[0]) : null;
}

/** Moves a transfer order from `from` to `to`; null when it was no longer `from` (someone else moved it). */
export async function moveTransferOrder(db: Queryable, id: string, from: string, to: 'completed' | 'cancelled'): Promise<TransferOrderRecord | null> {
  const { rows } = await db.query<TransferOrderRow>(
    `UPDATE transfer_orders SET status = $3 WHERE id = $1 AND status = $2 RETURNING ${COLUMNS}`,
    [id, from, to],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

/** Cancels transfer orders left unpaid since before `olderThan`; their ids. */
export async function cancelUnpaidTransferOrders(db: Queryable, olderThan: Date): Promise<TransferOrderRecord[]> {
  const { rows } = await db.query<TransferOrderRow>(
    `UPDATE transfer_orders SET status = 'cancelled' WHERE status = 'pending' AND created_at < $1 RETURNING ${COLUMNS}`,
    [olderThan],
  );
  return rows.map(toRecord);
}

/**
 * A pending transfer order becomes paid; null when it was not pending (already paid, or
 * completed / cancelled by the team), so the caller announces it only once.
 */
export async function markTransferOrderPaid(db: Queryable, id: string, paidAt: Date): Promise<TransferOrderRecord | null> {
  const { rows } = await db.query<TransferOrderRow>(
    `UPDATE transfer_orders SET status = 'paid', paid_at = $2 WHERE id = $1 AND status = 'pending' RETURNING ${COLUMNS}`,
    [id, paidAt],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

/** Every transfer order, newest first. */
export async function listTransferOrders(db: Queryable): Promise<TransferOrderRecord[]> {
  const { rows } = await db.query<TransferOrderRow>(`SELECT ${COLUMNS} FROM transfer_orders ORDER BY created_at DESC, id`);
  return rows.map(toRecord);
}

/** The admin orders page's four figures; revenue counts what was paid (paid and completed orders). */
export async function transferOrderStats(db: Queryable): Promise<TransferOrderStats> {
  const { rows } = await db.query<TransferOrderStats>(
    `SELECT count(*)::int AS "totalOrders",
            (count(*) FILTER (WHERE status = 'pending'))::int AS "pendingOrders",
            COALESCE(sum(total_price) FILTER (WHERE status IN ('paid', 'completed')), 0)::numeric(12, 2)::text AS "totalRevenue",
            COALESCE(sum(total_transfers), 0)::int AS "totalTransfers"
       FROM transfer_orders`,
  );
  return rows[0]!;
}

