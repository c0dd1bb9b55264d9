import type { Queryable } from '@warmline/platform/db/index';
import type { AgedLeadAgeRange } from '@warmline/contracts';
import type { ListingWindow } from './listing-window';
import type { LeadContact } from '../../db/leads';
import { registryCheckAtSale, registryHidden } from '../../suppressions/db/dnc-registry';

/** Queries of the second brand's Aged Leads packages filled from stock (lead_package_fills, aged_leads). */

export interface NewLeadPackageFill {
  orderId: string;
  buyerUserId: string | null;
  ageRange: AgedLeadAgeRange;
  priceCents: number;
  leadsOrdered: number;
  /** The only states it was filled from; null: every state. */
  states: readonly string[] | null;
  filledAt: Date;
}

/**
 * Claims the order for filling; false when it was filled before. A second claim of the same
 * order waits here for the first one's transaction and then finds it taken, so two deliveries
 * of one payment can never both sell.
 */
export async function claimLeadPackageFill(db: Queryable, fill: NewLeadPackageFill): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO lead_package_fills (order_id, buyer_user_id, age_range, price_cents, leads_ordered, leads_delivered, refund_due_cents, filled_at, states)
     VALUES ($1, $2, $3, $4, $5, 0, 0, $6, $7)
     ON CONFLICT (order_id) DO NOTHING`,
    [fill.orderId, fill.buyerUserId, fill.ageRange, fill.priceCents, fill.leadsOrdered, fill.filledAt, fill.states],
  );
  return rowCount === 1;
}

export async function recordLeadPackageFilled(db: Queryable, orderId: string, p: { leadsDelivered: number; refundDueCents: number }): Promise<void> {
  await db.query('UPDATE lead_package_fills SET leads_delivered = $2, refund_due_cents = $3 WHERE order_id = $1', [
    orderId,
    p.leadsDelivered,
    p.refundDueCents,
  ]);
}

export interface StockQuery {
  /** The form-fill times of the package's age range now. */
  window: ListingWindow;
  /** Only these states; null: every state. */
  states: readonly string[] | null;
  now: Date;
  limit: number;
  /** Leads already taken or tried by this fill. */
  exceptIds: readonly string[];
}

/**
 * Unsold leads of the window that no reservation holds right now, newest first (as the market
 * lists them). Only candidates: lockUnsoldLeads takes them.
 */
export async function unsoldLeadsInWindow(db: Queryable, q: StockQuery): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM aged_leads
      WHERE sold_at IS NULL
        AND form_fill_time > $1 AND form_fill_time <= $2
        AND (held_until IS NULL OR held_until <= $3)
        AND ($4::text[] IS NULL OR state = ANY($4::text[]))
        AND id <> ALL($5::uuid[])
        AND NOT ${registryHidden('aged_leads', 'false')}
      ORDER BY form_fill_time DESC, id DESC
      LIMIT $6`,
    [q.window.oldestExclusive, q.window.newest, q.now, q.states, q.exceptIds, q.limit],
  );
  return rows.map((r) => r.id);
}

/**
 * Locks those of `leadIds` that are still for sale, in id order like every writer of holds and
 * sales (reservations.ts lockLeads). SKIP LOCKED: a lead another transaction is holding or
 * selling right now is left to it rather than waited for, so a fill never deadlocks with a
 * purchase. The conditions are checked again on the locked row, so a lead sold or held since
 * the candidates were read is not taken.
 */
export async function lockUnsoldLeads(db: Queryable, leadIds: string[], p: { window: ListingWindow; now: Date }): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM aged_leads
      WHERE id = ANY($1::uuid[])
        AND sold_at IS NULL
        AND form_fill_time > $2 AND form_fill_time <= $3
        AND (held_until IS NULL OR held_until <= $4)
        AND NOT ${registryHidden('aged_leads', 'false')}
      ORDER BY id
        FOR UPDATE SKIP LOCKED`,
    [leadIds, p.window.oldestExclusive, p.window.newest, p.now],
  );
  return rows.map((r) => r.id);
}

export interface SoldPackageLead extends LeadContact {
  id: string;
}

/**
 * Sells locked leads to the package's buyer at its price and range (My Leads shows them from
 * these columns). Returns them newest first, with what the receipt shows of each.
 */
export async function sellPackageLeads(
  db: Queryable,
  p: { leadIds: string[]; orderId: string; buyerUserId: string; soldAt: Date; priceCents: number; ageRange: AgedLeadAgeRange },
): Promise<SoldPackageLead[]> {
  const { rows } = await db.query<{ id: string; form_fill_time: Date } & LeadContact>(
    `UPDATE aged_leads
        SET sold_to_user_id = $2, sold_order_id = $3, sold_at = $4, sold_price_cents = $5, sold_age_range = $6,
            held_by_order_id = NULL, held_by_user_id = NULL, held_until = NULL,
            ${registryCheckAtSale('aged_leads')}
      WHERE id = ANY($1::uuid[]) AND sold_at IS NULL
      RETURNING id, name, state, phone, email, zip, form_fill_time`,
    [p.leadIds, p.buyerUserId, p.orderId, p.soldAt, p.priceCents, p.ageRange],
  );
  return rows
    .sort((a, b) => b.form_fill_time.getTime() - a.form_fill_time.getTime() || (a.id < b.id ? 1 : -1))
    .map((r) => ({ id: r.id, name: r.name, state: r.state, phone: r.phone, email: r.email, zip: r.zip }));
}
