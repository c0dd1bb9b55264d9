import type { Queryable } from '@warmline/platform/db/index';
import { registryCheckAtSale, registryHidden } from '../../suppressions/db/dnc-registry';
import type { AgedLeadAgeRange } from '@warmline/contracts';
import type { ListingWindow } from './listing-window';
import type { LeadContact } from '../../db/leads';

/** Queries of reservations, holds and sales. */

export type ReservationStatus = 'held' | 'paid' | 'released' | 'expired' | 'cancelled';

export interface Reservation {
  orderId: string;
  buyerUserId: string;
  status: ReservationStatus;
  leadCount: number;
  amountCents: number;
  createdAt: Date;
  expiresAt: Date;
  /** The buyer cancelled it (issue 22); it stays cancelled even if a payment arrives afterwards. */
  cancelledAt: Date | null;
}

export interface ReservedItem {
  leadId: string;
  ageRange: AgedLeadAgeRange;
  priceCents: number;
}

/** Advisory-lock class of the catalog's per-buyer purchase lock (the two-int lock space). */
const BUYER_PURCHASE_LOCK = 0x63_61_74_01;

/**
 * Serialises one buyer's purchases until the transaction ends, so two sent at once cannot both
 * pass the limits on unpaid purchases. Taken before any lead row lock; nothing that locks lead
 * rows waits for it, so it adds no deadlock. A hash collision only makes two buyers wait.
 */
export async function lockBuyerPurchases(db: Queryable, buyerUserId: string): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2::text))', [BUYER_PURCHASE_LOCK, buyerUserId]);
}

export interface BuyerHolds {
  /**
   * Reservations still waiting for payment that hold at least one lead. One whose leads all
   * moved to a newer purchase of the same buyer no longer counts (issue 22: reopening the
   * payment dialog must not lock the buyer out); a cancelled one is not held any more.
   */
  unpaidPurchases: number;
  /** Leads those reservations hold right now, apart from `exceptLeadIds`. */
  reservedLeads: number;
  /** When the first of them runs out; null when there is none. */
  firstExpiry: Date | null;
}

/**
 * What this buyer holds unpaid at `now`. The leads being bought again are left out of
 * `reservedLeads`: holdLeads moves a buyer's own hold to the new order, it does not add one.
 */
export async function buyerHolds(db: Queryable, p: { buyerUserId: string; now: Date; exceptLeadIds: string[] }): Promise<BuyerHolds> {
  const { rows } = await db.query<{ purchases: number; first_expiry: Date | null; reserved_leads: number }>(
    `WITH live AS (
       SELECT r.order_id, r.expires_at FROM lead_reservations r
        WHERE r.buyer_user_id = $1 AND r.status = 'held' AND r.expires_at > $2
          AND EXISTS (SELECT 1 FROM aged_leads l WHERE l.held_by_order_id = r.order_id AND l.held_until > $2))
     SELECT (SELECT count(*)::int FROM live) AS purchases,
            (SELECT min(expires_at) FROM live) AS first_expiry,
            (SELECT count(*)::int FROM live
               JOIN lead_reservation_items i ON i.order_id = live.order_id
               JOIN aged_leads l ON l.id = i.lead_id
              WHERE l.held_by_order_id = i.order_id AND l.held_until > $2 AND l.id <> ALL($3::uuid[])) AS reserved_leads`,
    [p.buyerUserId, p.now, p.exceptLeadIds],
  );
  const row = rows[0];
  return { unpaidPurchases: row?.purchases ?? 0, reservedLeads: row?.reserved_leads ?? 0, firstExpiry: row?.first_expiry ?? null };
}

/**
 * Locks the rows of these leads in id order. Every writer of holds and sales locks this way
 * first, so two purchases of overlapping leads wait for each other instead of deadlocking.
 */
export async function lockLeads(db: Queryable, leadIds: string[]): Promise<void> {
  await db.query('SELECT id FROM aged_leads WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE', [leadIds]);
}

/**
 * Holds for this order every lead of `leadIds` that is still for sale: unsold, in the listing
 * window, and not held by another buyer (an expired hold counts as none; the buyer's own hold
 * from an earlier, unpaid order moves to this one). Returns the leads it could hold.
 */
export async function holdLeads(
  db: Queryable,
  p: { leadIds: string[]; orderId: string; buyerUserId: string; now: Date; until: Date; window: ListingWindow },
): Promise<Array<{ id: string; formFillTime: Date }>> {
  const { rows } = await db.query<{ id: string; form_fill_time: Date }>(
    `UPDATE aged_leads
        SET held_by_order_id = $2, held_by_user_id = $3, held_until = $5
      WHERE id = ANY($1::uuid[])
        AND sold_at IS NULL
        AND form_fill_time > $6 AND form_fill_time <= $7
        AND NOT ${registryHidden('aged_leads', 'false')}
        AND (held_until IS NULL OR held_until <= $4 OR held_by_user_id = $3)
      RETURNING id, form_fill_time`,
    [p.leadIds, p.orderId, p.buyerUserId, p.now, p.until, p.window.oldestExclusive, p.window.newest],
  );
  return rows.map((r) => ({ id: r.id, formFillTime: r.form_fill_time }));
}

/**
 * The buyer's unpaid purchase of exactly these leads that still holds every one of them, if any
 * (issue 22: opening the payment dialog again for the same leads resumes that purchase — the same
 * order and payment — rather than making another).
 */
export async function findResumablePurchase(db: Queryable, p: { buyerUserId: string; leadIds: string[]; now: Date }): Promise<Reservation | null> {
  const { rows } = await db.query<ReservationRecord>(
    `SELECT ${RESERVATION_COLUMNS} FROM lead_reservations r
      WHERE r.buyer_user_id = $1 AND r.status = 'held' AND r.expires_at > $3 AND r.lead_count = cardinality($2::uuid[])
        AND (SELECT count(*) FROM lead_reservation_items i
               JOIN aged_leads l ON l.id = i.lead_id AND l.held_by_order_id = i.order_id AND l.held_until > $3 AND l.sold_at IS NULL
              WHERE i.order_id = r.order_id AND i.lead_id = ANY($2::uuid[])) = cardinality($2::uuid[])
      ORDER BY r.created_at DESC LIMIT 1`,
    [p.buyerUserId, p.leadIds, p.now],
  );
  return rows[0] ? toReservation(rows[0]) : null;
}

/** One of the buyer's unpaid purchases as My Orders lists it. */
export interface UnpaidPurchaseRow extends Reservation {
  heldLeadCount: number;
}

/** The buyer's unpaid purchases that still hold at least one lead, newest first (the ones BuyerHolds counts). */
export async function unpaidPurchasesOf(db: Queryable, buyerUserId: string, now: Date): Promise<UnpaidPurchaseRow[]> {
  const { rows } = await db.query<ReservationRecord & { held_lead_count: number }>(
    `SELECT ${RESERVATION_COLUMNS}, h.held_lead_count FROM lead_reservations r
       CROSS JOIN LATERAL (SELECT count(*)::int AS held_lead_count FROM aged_leads l
                            WHERE l.held_by_order_id = r.order_id AND l.held_until > $2) h
      WHERE r.buyer_user_id = $1 AND r.status = 'held' AND r.expires_at > $2 AND h.held_lead_count > 0
      ORDER BY r.created_at DESC, r.order_id`,
    [buyerUserId, now],
  );
  return rows.map((r) => ({ ...toReservation(r), heldLeadCount: r.held_lead_count }));
}

/** The buyer cancelled the purchase: it is closed as cancelled (its holds are released by the caller). */
export async function cancelReservation(db: Queryable, orderId: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE lead_reservations SET status = 'cancelled', cancelled_at = $2, closed_at = COALESCE(closed_at, $2),
            close_reason = 'cancelled by the buyer' || CASE WHEN status = 'held' THEN '' ELSE ' after it was ' || status END
      WHERE order_id = $1`,
    [orderId, at],
  );
}

export async function insertReservation(db: Queryable, r: Omit<Reservation, 'status' | 'cancelledAt'>, items: ReservedItem[]): Promise<void> {
  await db.query(
    `INSERT INTO lead_reservations (order_id, buyer_user_id, lead_count, amount_cents, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [r.orderId, r.buyerUserId, r.leadCount, r.amountCents, r.createdAt, r.expiresAt],
  );
  await db.query(
    `INSERT INTO lead_reservation_items (order_id, lead_id, age_range, price_cents)
     SELECT $1, * FROM unnest($2::uuid[], $3::text[], $4::int[])`,
    [r.orderId, items.map((i) => i.leadId), items.map((i) => i.ageRange), items.map((i) => i.priceCents)],
  );
}

interface ReservationRecord {
  order_id: string;
  buyer_user_id: string;
  status: ReservationStatus;
  lead_count: number;
  amount_cents: number;
  created_at: Date;
  expires_at: Date;
  cancelled_at: Date | null;
}

const RESERVATION_COLUMNS = 'r.order_id, r.buyer_user_id, r.status, r.lead_count, r.amount_cents, r.created_at, r.expires_at, r.cancelled_at';

const toReservation = (r: ReservationRecord): Reservation => ({
  orderId: r.order_id,
  buyerUserId: r.buyer_user_id,
  status: r.status,
  leadCount: r.lead_count,
  amountCents: r.amount_cents,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  cancelledAt: r.cancelled_at,
});

export async function findReservation(db: Queryable, orderId: string, options: { forUpdate?: boolean } = {}): Promise<Reservation | null> {
  const { rows } = await db.query<ReservationRecord>(
    `SELECT ${RESERVATION_COLUMNS}
       FROM lead_reservations r WHERE r.order_id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [orderId],
  );
  return rows[0] ? toReservation(rows[0]) : null;
}

/** A lead an order sold, with its real name (the caller masks it) and what it was sold at. */
export interface SoldLead extends LeadContact {
  leadId: string;
  ageRange: AgedLeadAgeRange;
  priceCents: number;
  soldAt: Date;
}

/** The leads one order sold to its buyer (the buyer's index narrows it to their leads), by name. */
export async function soldLeadsOfOrder(db: Queryable, orderId: string, buyerUserId: string): Promise<SoldLead[]> {
  const { rows } = await db.query<{ id: string; sold_age_range: AgedLeadAgeRange; sold_price_cents: number; sold_at: Date } & LeadContact>(
    `SELECT id, name, state, phone, email, zip, sold_age_range, sold_price_cents, sold_at FROM aged_leads
      WHERE sold_to_user_id = $2 AND sold_order_id = $1 ORDER BY name, id`,
    [orderId, buyerUserId],
  );
  return rows.map((r) => ({
    leadId: r.id,
    name: r.name,
    state: r.state,
    phone: r.phone,
    email: r.email,
    zip: r.zip,
    ageRange: r.sold_age_range,
    priceCents: r.sold_price_cents,
    soldAt: r.sold_at,
  }));
}

export async function reservedItems(db: Queryable, orderId: string): Promise<ReservedItem[]> {
  const { rows } = await db.query<{ lead_id: string; age_range: AgedLeadAgeRange; price_cents: number }>(
    'SELECT lead_id, age_range, price_cents FROM lead_reservation_items WHERE order_id = $1 ORDER BY lead_id',
    [orderId],
  );
  return rows.map((r) => ({ leadId: r.lead_id, ageRange: r.age_range, priceCents: r.price_cents }));
}

export async function closeReservation(
  db: Queryable,
  orderId: string,
  status: Exclude<ReservationStatus, 'held'>,
  reason: string,
  at: Date,
): Promise<void> {
  await db.query('UPDATE lead_reservations SET status = $2, close_reason = $3, closed_at = $4 WHERE order_id = $1', [
    orderId,
    status,
    reason,
    at,
  ]);
}

/** Lets go of the leads this order still holds (a newer order of the same buyer may hold some). */
export async function releaseHolds(db: Queryable, orderId: string): Promise<number> {
  // Locked in id order first, like every other writer (see lockLeads).
  await db.query(
    `SELECT id FROM aged_leads
      WHERE id IN (SELECT lead_id FROM lead_reservation_items WHERE order_id = $1) AND held_by_order_id = $1
      ORDER BY id FOR UPDATE`,
    [orderId],
  );
  const { rowCount } = await db.query(
    `UPDATE aged_leads SET held_by_order_id = NULL, held_by_user_id = NULL, held_until = NULL
      WHERE id IN (SELECT lead_id FROM lead_reservation_items WHERE order_id = $1) AND held_by_order_id = $1`,
    [orderId],
  );
  return rowCount ?? 0;
}

/** Held reservations whose time is up, oldest first. */
export async function expiredReservationIds(db: Queryable, now: Date, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ order_id: string }>(
    `SELECT order_id FROM lead_reservations
      WHERE status = 'held' AND expires_at <= $1
      ORDER BY expires_at LIMIT $2`,
    [now, limit],
  );
  return rows.map((r) => r.order_id);
}

/**
 * Sells the order's leads to its buyer: each one nobody has bought and nobody else holds right
 * now (held by this order, not held, held past its time, or held by the same buyer's other
 * order). Returns the ids sold. A sold lead is never sold again: the WHERE clause skips it,
 * and the aged_leads_sold_once trigger refuses any change to a sale.
 */
export async function sellReservedLeads(db: Queryable, p: { orderId: string; buyerUserId: string; soldAt: Date }): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE aged_leads l
        SET sold_to_user_id = $2, sold_order_id = $1, sold_at = $3,
            sold_price_cents = i.price_cents, sold_age_range = i.age_range,
            held_by_order_id = NULL, held_by_user_id = NULL, held_until = NULL,
            ${registryCheckAtSale('l')}
       FROM lead_reservation_items i
      WHERE i.order_id = $1 AND l.id = i.lead_id AND l.sold_at IS NULL
        -- Checked again at sale (docs/adr/0033): a lead put on the registry since it was held is
        -- not sold; the order's settlement refunds it like any undelivered lead.
        AND NOT ${registryHidden('l', 'false')}
        AND (l.held_until IS NULL OR l.held_by_order_id = $1 OR l.held_until <= $3 OR l.held_by_user_id = $2)
      RETURNING l.id`,
    [p.orderId, p.buyerUserId, p.soldAt],
  );
  return rows.map((r) => r.id);
}

/** Records each item's outcome: sold, or undelivered (owed back to the buyer). */
export async function recordItemOutcomes(db: Queryable, orderId: string, soldIds: string[]): Promise<void> {
  await db.query(
    `UPDATE lead_reservation_items SET outcome = CASE WHEN lead_id = ANY($2::uuid[]) THEN 'sold' ELSE 'undelivered' END
      WHERE order_id = $1`,
    [orderId, soldIds],
  );
}
