import { randomUUID } from 'node:crypto';
import { withTransaction } from '@warmline/platform/db/index';
import { conflict, notFound, tooManyRequests } from '@warmline/platform/errors';
import type { Identity } from '@warmline/platform/identity';
import { AGED_LEAD_AGE_RANGES, type AgedLeadAgeRange } from '@warmline/contracts';
import {
  LEAD_PURCHASE_ALREADY_PAID_MESSAGE,
  LEAD_PURCHASE_CANCELLED_MESSAGE,
  LEAD_PURCHASE_ENDED_MESSAGE,
  LEAD_RESERVATION_MINUTES,
  LEADS_UNAVAILABLE_MESSAGE,
  MAX_RESERVED_LEADS_PER_BUYER,
  MAX_UNPAID_LEAD_PURCHASES,
  TOO_MANY_UNPAID_PURCHASES_MESSAGE,
  type BulkPurchaseResponse,
  type BulkPurchaseStatusResponse,
  type CancelLeadPurchaseResponse,
  type LeadOrderLine,
  type UnpaidLeadPurchasesResponse,
} from '@warmline/contracts/catalog';
import { DNC_REGISTRY_NOT_SOLD_MESSAGE } from '@warmline/contracts/dnc-registry';
import { PaymentUnavailable } from '../../clients/orders-client';
import { registryBlockedLeadIds } from '../../suppressions/db/dnc-registry';
import {
  buyerHolds,
  cancelReservation,
  closeReservation,
  findReservation,
  findResumablePurchase,
  holdLeads,
  insertReservation,
  lockBuyerPurchases,
  lockLeads,
  releaseHolds,
  reservedItems,
  soldLeadsOfOrder,
  unpaidPurchasesOf,
  type BuyerHolds,
  type Reservation,
  type ReservedItem,
} from '../db/reservations';
import type { CatalogContext } from '../../domain/context';
import { formatPhone } from './masking';
import { listingWindow, priceLead } from './lead-age';

/**
 * `POST /api/bulk-purchase-leads`: the whole flow of buying aged leads, up to the payment form.
 * 0. One purchase of that buyer at a time. When the buyer already has an unpaid purchase of
 *    exactly these leads that still holds them all, it is resumed (issue 22): the same order and
 *    payment, nothing new reserved, no limit counted again.
 *    Otherwise refuse (429) a buyer who already has too many unpaid purchases or reserved leads,
 *    so parallel requests cannot all slip past the limit.
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

  const reserved = await withTransaction(ctx.pool, async (db) => {
    await lockBuyerPurchases(db, buyer.userId);
    const unpaid = await findResumablePurchase(db, { buyerUserId: buyer.userId, leadIds, now });
    if (unpaid) return { resumed: unpaid, items: await reservedItems(db, unpaid.orderId) };
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
      const unavailableLeadIds = leadIds.filter((id) => !got.has(id));
      // Issue 24 (docs/adr/0033): a registry match without a consent certificate is refused by name.
      const onRegistry = await registryBlockedLeadIds(db, unavailableLeadIds);
      // Throwing rolls the holds back: all or none.
      if (onRegistry.length > 0) throw conflict(DNC_REGISTRY_NOT_SOLD_MESSAGE, { unavailableLeadIds, dncRegistryLeadIds: onRegistry });
      throw conflict(LEADS_UNAVAILABLE_MESSAGE, { unavailableLeadIds });
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
    return { resumed: null, items: priced };
  });

  if (reserved.resumed) return openPayment(ctx, buyer, reserved.resumed, reserved.items, correlationId);
  const { items } = reserved;
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
    resumed: false,
  };
}

/**
 * The payment of an unpaid purchase, again (issue 22): the orders service answers the order it
 * already has under the reservation's id, with the same client secret. The reservation keeps its
 * time (resuming never holds leads longer). When orders cannot be reached the reservation stays:
 * it was fine before this attempt, and the buyer may try again.
 */
async function openPayment(
  ctx: CatalogContext,
  buyer: Identity & { userId: string },
  reservation: Reservation,
  items: ReservedItem[],
  correlationId: string,
): Promise<BulkPurchaseResponse> {
  const order = await ctx.orders.createLeadOrder(buyer, { orderId: reservation.orderId, lines: orderLines(items), amountCents: reservation.amountCents }, correlationId);
  ctx.log.info({ orderId: reservation.orderId }, 'unpaid lead purchase resumed');
  return {
    orderId: reservation.orderId,
    total: reservation.amountCents / 100,
    totalCents: reservation.amountCents,
    leadCount: reservation.leadCount,
    clientSecret: order.clientSecret,
    paymentProvider: order.paymentProvider,
    reservedUntil: reservation.expiresAt.toISOString(),
    resumed: true,
  };
}

/**
 * `POST /api/bulk-purchase-leads/{orderId}/resume`: My Orders' Pay on an unpaid purchase — the
 * same payment as before, while the purchase still holds its leads. One that ended (released,
 * expired, cancelled) is 409: its leads may be someone else's now; one already paid is 409 too.
 */
export async function resumePurchase(ctx: CatalogContext, buyer: Identity & { userId: string }, orderId: string, correlationId: string): Promise<BulkPurchaseResponse> {
  const now = ctx.clock();
  const reservation = await findReservation(ctx.pool, orderId);
  if (!reservation || reservation.buyerUserId !== buyer.userId) throw notFound('Purchase not found');
  if (reservation.status === 'paid') throw conflict(LEAD_PURCHASE_ALREADY_PAID_MESSAGE);
  if (reservation.status === 'cancelled') throw conflict(LEAD_PURCHASE_CANCELLED_MESSAGE);
  const items = await reservedItems(ctx.pool, orderId);
  const held = await unpaidPurchasesOf(ctx.pool, buyer.userId, now);
  if (reservation.status !== 'held' || !held.some((p) => p.orderId === orderId)) throw conflict(LEAD_PURCHASE_ENDED_MESSAGE);
  return openPayment(ctx, buyer, reservation, items, correlationId);
}

/** `GET /api/bulk-purchase-leads`: the buyer's unpaid purchases that still hold leads (My Orders' Pay and Cancel). */
export async function unpaidPurchases(ctx: CatalogContext, buyerUserId: string): Promise<UnpaidLeadPurchasesResponse> {
  const rows = await unpaidPurchasesOf(ctx.pool, buyerUserId, ctx.clock());
  return {
    purchases: rows.map((r) => ({
      orderId: r.orderId,
      leadCount: r.leadCount,
      heldLeadCount: r.heldLeadCount,
      totalCents: r.amountCents,
      createdAt: r.createdAt.toISOString(),
      reservedUntil: r.expiresAt.toISOString(),
    })),
  };
}

/**
 * `POST /api/bulk-purchase-leads/{orderId}/cancel` (issue 22): the buyer gives up an unpaid
 * purchase. The orders service is asked first, so the order can no longer be paid (or, paid a
 * moment ago, the answer is 409 and nothing is released); then, in one transaction, its leads go
 * back on the market at once and the reservation is closed as cancelled. A payment the provider
 * still reports afterwards sells nothing and is refunded in full (sellPaidLeadOrder). Cancelling
 * twice answers the same; one the sweeper or a failed card already ended is cancelled all the
 * same, so a late payment cannot revive it either.
 */
export async function cancelPurchase(ctx: CatalogContext, buyer: Identity & { userId: string }, orderId: string, correlationId: string): Promise<CancelLeadPurchaseResponse> {
  const found = await findReservation(ctx.pool, orderId);
  if (!found || found.buyerUserId !== buyer.userId) throw notFound('Purchase not found');
  if (found.status === 'paid') throw conflict(LEAD_PURCHASE_ALREADY_PAID_MESSAGE);
  if (found.status !== 'cancelled') await ctx.orders.cancelLeadOrder(buyer, orderId, correlationId);
  const released = await withTransaction(ctx.pool, async (db) => {
    const reservation = await findReservation(db, orderId, { forUpdate: true });
    if (!reservation) throw notFound('Purchase not found');
    // Paid in the instant between orders' answer and this lock (orders refused it): not cancelled.
    if (reservation.status === 'paid') throw conflict(LEAD_PURCHASE_ALREADY_PAID_MESSAGE);
    if (reservation.status === 'cancelled') return 0;
    const count = await releaseHolds(db, orderId);
    await cancelReservation(db, orderId, ctx.clock());
    return count;
  });
  if (released > 0 || found.status !== 'cancelled') ctx.log.info({ orderId, released }, 'lead purchase cancelled by its buyer; leads released');
  return { orderId, status: 'cancelled', releasedLeadCount: released };
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
