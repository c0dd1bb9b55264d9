import type { Queryable } from '@warmline/platform/db/index';
import type { PaymentProviderName } from '@warmline/contracts';
import type { LeadOrderLine } from '@warmline/contracts/catalog';
import { findOrder, type PackageOrder } from './orders';

/** Queries of lead orders: rows of `package_orders` with kind 'lead', and their price lines. */

export interface NewLeadOrder {
  id: string;
  buyerUserId: string;
  leadCount: number;
  /** The one price when every lead shares an age range, else 0 ("varies"). */
  unitPriceCents: number;
  amountCents: number;
  description: string;
  lines: LeadOrderLine[];
  provider: PaymentProviderName;
}

/**
 * Inserts a pending lead order with its lines; returns null when an order with this id
 * already exists (a retry of the same purchase: the caller reads that one).
 */
export async function insertLeadOrder(db: Queryable, o: NewLeadOrder): Promise<PackageOrder | null> {
  const { rowCount } = await db.query(
    `INSERT INTO package_orders (id, kind, tier, count, unit_price_cents, amount_cents, currency, description,
       buyer_user_id, provider)
     VALUES ($1, 'lead', 'aged-leads', $2, $3, $4, 'usd', $5, $6, $7)
     ON CONFLICT (id) DO NOTHING`,
    [o.id, o.leadCount, o.unitPriceCents, o.amountCents, o.description, o.buyerUserId, o.provider],
  );
  if (rowCount !== 1) return null;
  await db.query(
    `INSERT INTO lead_order_lines (order_id, age_range, lead_count, unit_price_cents)
     SELECT $1, age_range, lead_count, unit_price_cents
       FROM unnest($2::text[], $3::int[], $4::int[]) AS l(age_range, lead_count, unit_price_cents)`,
    [o.id, o.lines.map((l) => l.ageRange), o.lines.map((l) => l.count), o.lines.map((l) => l.unitPriceCents)],
  );
  return findOrder(db, o.id);
}

export async function findLeadOrderLines(db: Queryable, orderId: string): Promise<LeadOrderLine[]> {
  const { rows } = await db.query<{ age_range: LeadOrderLine['ageRange']; lead_count: number; unit_price_cents: number }>(
    'SELECT age_range, lead_count, unit_price_cents FROM lead_order_lines WHERE order_id = $1 ORDER BY age_range',
    [orderId],
  );
  return rows.map((r) => ({ ageRange: r.age_range, count: r.lead_count, unitPriceCents: r.unit_price_cents }));
}
