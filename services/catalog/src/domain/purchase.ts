import { randomUUID } from 'node:crypto';
import { withTransaction } from '@warmline/platform/db/index';
import { conflict, notFound, tooManyRequests } from '@warmline/platform/errors';
import type { Identity } from '@warmline/platform/http/identity';
import { AGED_LEAD_AGE_RANGES, type AgedLeadAgeRange } from '@warmline/contracts';
import {
  LEAD_RESERVATION_MINUTES,
  LEADS_UNAVAILABLE_MESSAGE,
  MAX_RESERVED_LEADS_PER_BUYER,
  MAX_UNPAID_LEAD_PURCHASES,
  TOO_MANY_UNPAID_PURCHASES_MESSAGE,
  type BulkPurchaseResponse,
  type BulkPurchaseStatusResponse,
  type LeadOrderLine,
} from '@warmline/contracts/catalog';
import { PaymentUnavailable } from '../clients/orders-client';
import {
  buyerHolds,
  closeReservation,
  findReservation,
  holdLeads,
  insertReservation,
  lockBuyerPurchases,
  lockLeads,
  releaseHolds,
  soldLeadsOfOrder,
  type BuyerHolds,
  type ReservedItem,
} from '../db/reservations';
import type { CatalogContext } from './context';
import { formatPhone } from './masking';
import { listingWindow, priceLead } from './lead-age';

/**
 * `POST /api/bulk-purchase-leads`: the whole flow of buying aged leads, up to the payment form.
 * 0. Refuse (429) a buyer who already has too many unpaid purchases or reserved leads, one
 *    purchase of that buyer at a time so parallel requests cannot all slip past the limit.
 * 1. Reserve every chosen lead for this buyer for 15 minutes — all of them or none: if any is
 *    sold, too young or old, or held by another buyer, nothing is held and the answer is 409
 *    naming those leads.
 * 2. Price them now, from the pricing table, by each lead's age today.
 * 3. Open the payment: the orders service records a lead order under the reservation's id and
 *    returns the client secret. If it cannot, the reservation is released again (502).
 * The leads are sold when the payment succeeds (events/lead-payments.ts).
 */
export async function purchaseLeads(
  ctx: CatalogContext,
  buyer: Identity & { userId: string },
  leadIds: string[],
  correlationId: string,
): Promise<BulkPurchaseResponse> {
  const now = ctx.clock();
  const orderId = randomUUID();
  const reservedUntil = new Date(now.getTime() + LEAD_RESERVATION_MINUTES * 60_000);

  const items = await withTransaction(ctx.pool, async (db) => {
    await lockBuyerPurchases(db, buyer.userId);
    checkPurchaseLimits(await buyerHolds(db, { buyerUserId: buyer.userId, now, exceptLeadIds: leadIds }), leadIds.length, now);
    await lockLeads(db, leadIds);
    const held = await holdLeads(db, {
      leadIds,
      orderId,
      buyerUserId: buyer.userId,
      now,
      until: reservedUntil,
      window: listingWindow(now),
    });
    if (held.length !== leadIds.length) {
      const got = new Set(held.map((l) => l.id));
      // Throwing rolls the holds back: all or none.
      throw conflict(LEADS_UNAVAILABLE_MESSAGE, { unavailableLeadIds: leadIds.filter((id) => !got.has(id)) });
    }
    const priced: ReservedItem[] = held.map((lead) => {
      const pricing = priceLead(lead.formFillTime, now);
      // holdLeads only holds leads inside the listing window, which all have a price.
      if (!pricing) throw new Error(`Lead ${lead.id} was held outside the listing window`);
      return { leadId: lead.id, ageRange: pricing.ageRange, priceCents: pricing.priceCents };
    });
    const amountCents = priced.reduce((sum, i) => sum + i.priceCents, 0);
    await insertReservation(
      db,
      { orderId, buyerUserId: buyer.userId, leadCount: priced.length, amountCents, createdAt: now, expiresAt: reservedUntil },
      priced,
    );
    return priced;
  });

  const lines = orderLines(items);
  const amountCents = items.reduce((sum, i) => sum + i.priceCents, 0);
  let order;
  try {
    order = await ctx.orders.createLeadOrder(buyer, { orderId, lines, amountCents }, correlationId);
  } catch (err) {
    ctx.log.error({ err: err instanceof PaymentUnavailable && err.cause ? err.cause : err, orderId }, 'opening the lead payment failed; reservation released');
    await withTransaction(ctx.pool, async (db) => {
      await releaseHolds(db, orderId);
      await closeReservation(db, orderId, 'released', 'the payment could not be opened', ctx.clock());
    });
    throw err instanceof PaymentUnavailable ? err : new PaymentUnavailable(err);
  }
  ctx.log.info({ orderId, leadCount: items.length, amountCents }, 'leads reserved and payment opened');
  return {
    orderId,
    total: amountCents / 100,
    totalCents: amountCents,
    leadCount: items.length,
    clientSecret: order.clientSecret,
    paymentProvider: order.paymentProvider,
    reservedUntil: reservedUntil.toISOString(),
  };
}

/**
 * At most MAX_UNPAID_LEAD_PURCHASES unpaid purchases and MAX_RESERVED_LEADS_PER_BUYER reserved
 * leads per buyer, this purchase included; past either, 429 with a wait until the first ends.
 */
function checkPurchaseLimits(holds: BuyerHolds, wantedLeads: number, now: Date): void {
  if (holds.unpaidPurchases < MAX_UNPAID_LEAD_PURCHASES && holds.reservedLeads + wantedLeads <= MAX_RESERVED_LEADS_PER_BUYER) return;
  const waitMs = holds.firstExpiry ? holds.firstExpiry.getTime() - now.getTime() : LEAD_RESERVATION_MINUTES * 60_000;
  throw tooManyRequests(TOO_MANY_UNPAID_PURCHASES_MESSAGE, Math.max(1, Math.ceil(waitMs / 1000)));
}

/** Where one of the buyer's purchases stands; another buyer's (or an unknown) order is not found. */
export async function purchaseStatus(ctx: CatalogContext, buyerUserId: string, orderId: string): Promise<BulkPurchaseStatusResponse> {
  const reservation = await findReservation(ctx.pool, orderId);
  if (!reservation || reservation.buyerUserId !== buyerUserId) throw notFound('Purchase not found');
  // The receipt screen (issue 17 item 3) lists what was sold: the buyer's own, in full (issue 22).
  // Only the buyer gets here (an order of anyone else's is 'not found' above).
  const sold = reservation.status === 'paid' ? await soldLeadsOfOrder(ctx.pool, orderId, buyerUserId) : [];
  return {
    orderId,
    status: reservation.status,
    leadCount: reservation.leadCount,
    soldLeadCount: sold.length,
    reservedUntil: reservation.expiresAt.toISOString(),
    leads: sold.map((l) => ({
      leadId: l.leadId,
      name: l.name,
      phone: formatPhone(l.phone),
      email: l.email,
      state: l.state,
      zip: l.zip,
      ageRange: l.ageRange,
      priceCents: l.priceCents,
    })),
    totalCents: sold.reduce((sum, l) => sum + l.priceCents, 0),
    paidAt: sold[0]?.soldAt.toISOString() ?? null,
  };
}

/** How many leads of each age range, at its price: what the orders service charges for. */
function orderLines(items: ReservedItem[]): LeadOrderLine[] {
  const lines: LeadOrderLine[] = [];
  for (const range of AGED_LEAD_AGE_RANGES as readonly AgedLeadAgeRange[]) {
    const ofRange = items.filter((i) => i.ageRange === range);
    const first = ofRange[0];
    if (first) lines.push({ ageRange: range, count: ofRange.length, unitPriceCents: first.priceCents });
  }
  return lines;
}
