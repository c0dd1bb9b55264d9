import type { PoolClient } from '@warmline/platform/db/index';
import { enqueue } from '@warmline/platform/bus/index';
import { withTransaction } from '@warmline/platform/db/index';
import type { Logger } from '@warmline/platform/log';
import {
  closeReservation,
  expiredReservationIds,
  findReservation,
  lockLeads,
  recordItemOutcomes,
  releaseHolds,
  reservedItems,
  sellReservedLeads,
} from '../db/reservations';
import { leadContacts } from '../../db/leads';
import { marketLead, ownedLead } from './receipt-leads';
import { SOURCE, type CatalogContext } from '../../domain/context';

/**
 * What happens to reserved leads after the payment form: sold when the lead order is paid,
 * released when the payment fails or the 15 minutes run out.
 */

export type SaleOutcome =
  | { outcome: 'sold'; soldLeadIds: string[]; undeliveredLeadIds: string[] }
  | { outcome: 'already-paid' }
  | { outcome: 'unknown-order' };

/**
 * The buyer's lead order was paid: sell its leads to them, in the consumer's transaction
 * (with processed_events, so a redelivered event sells nothing twice), and state
 * `leads.purchased`. When the payment came after the reservation had ended, the leads still
 * free are sold all the same; any lead bought by someone else meanwhile is recorded as
 * undelivered and its price as a refund due (leads.purchased says which).
 */
export async function sellPaidLeadOrder(
  db: PoolClient,
  deps: { log: Logger; clock: () => Date },
  paid: { orderId: string; buyerUserId: string | null; correlationId: string },
): Promise<SaleOutcome> {
  const reservation = await findReservation(db, paid.orderId, { forUpdate: true });
  if (!reservation) {
    deps.log.error({ orderId: paid.orderId }, 'a lead order was paid that the catalog never reserved');
    return { outcome: 'unknown-order' };
  }
  if (reservation.status === 'paid') return { outcome: 'already-paid' };
  if (paid.buyerUserId !== reservation.buyerUserId) {
    // The orders service records the buyer the catalog named; anything else is a bug to look at.
    throw new Error(`Lead order ${paid.orderId} was paid by ${paid.buyerUserId ?? 'nobody'}, reserved for ${reservation.buyerUserId}`);
  }
  const soldAt = deps.clock();
  const items = await reservedItems(db, paid.orderId);
  // A purchase its buyer cancelled (issue 22) sells nothing, even if the provider took the money
  // anyway (a Stripe card form still open): all of it is owed back.
  const cancelled = reservation.status === 'cancelled';
  let sold: string[] = [];
  if (!cancelled) {
    await lockLeads(db, items.map((i) => i.leadId));
    sold = await sellReservedLeads(db, { orderId: paid.orderId, buyerUserId: reservation.buyerUserId, soldAt });
  }
  await recordItemOutcomes(db, paid.orderId, sold);
  const soldSet = new Set(sold);
  const undelivered = items.filter((i) => !soldSet.has(i.leadId));
  await closeReservation(
    db,
    paid.orderId,
    'paid',
    cancelled
      ? 'paid after the buyer cancelled it; nothing delivered, all of it owed back'
      : undelivered.length
        ? `paid; ${undelivered.length} lead(s) had been sold to someone else and are owed back`
        : 'paid',
    soldAt,
  );
  await enqueue(db, {
    type: 'leads.purchased',
    data: {
      orderId: paid.orderId,
      buyerUserId: reservation.buyerUserId,
      leadIds: items.filter((i) => soldSet.has(i.leadId)).map((i) => i.leadId),
      leadCount: sold.length,
      amountCents: items.filter((i) => soldSet.has(i.leadId)).reduce((sum, i) => sum + i.priceCents, 0),
      purchasedAt: soldAt.toISOString(),
      undeliveredLeadIds: undelivered.map((i) => i.leadId),
      refundDueCents: undelivered.reduce((sum, i) => sum + i.priceCents, 0),
    },
    correlationId: paid.correlationId,
    source: SOURCE,
  });
  // Orders refunds what could not be delivered and sends the receipt naming the leads: those
  // sold to the buyer with the contact details they now own, the others masked (issue 22).
  const contacts = await leadContacts(db, items.map((i) => i.leadId));
  const delivered = items.flatMap((i) => {
    const contact = contacts.get(i.leadId);
    return soldSet.has(i.leadId) && contact ? [ownedLead(i, contact)] : [];
  });
  await enqueue(db, {
    type: 'lead_order.settle',
    data: {
      orderId: paid.orderId,
      buyerUserId: reservation.buyerUserId,
      delivered,
      undelivered: undelivered.map((i) => marketLead(i, contacts.get(i.leadId))),
      refundDueCents: undelivered.reduce((sum, i) => sum + i.priceCents, 0),
      settledAt: soldAt.toISOString(),
    },
    correlationId: paid.correlationId,
    source: SOURCE,
  });
  if (cancelled) {
    deps.log.warn({ orderId: paid.orderId }, 'a cancelled lead purchase was paid anyway; all of it is owed back');
  } else if (undelivered.length) {
    deps.log.warn({ orderId: paid.orderId, undelivered: undelivered.length }, 'lead order paid after its reservation ended; some leads are owed back');
  }
  deps.log.info({ orderId: paid.orderId, sold: sold.length }, 'leads sold');
  return { outcome: 'sold', soldLeadIds: sold, undeliveredLeadIds: undelivered.map((i) => i.leadId) };
}

/**
 * The payment was refused: the leads go back on the market now rather than in 15 minutes. If
 * the buyer pays after all (another card), sellPaidLeadOrder sells whatever is still free.
 */
export async function releaseUnpaidLeadOrder(
  db: PoolClient,
  deps: { clock: () => Date },
  orderId: string,
  reason: string,
): Promise<boolean> {
  const reservation = await findReservation(db, orderId, { forUpdate: true });
  if (!reservation || reservation.status !== 'held') return false;
  await releaseHolds(db, orderId);
  await closeReservation(db, orderId, 'released', reason, deps.clock());
  return true;
}

/**
 * The sweeper: reservations unpaid after 15 minutes end, and their leads go back on the
 * market. (They are already listed again from the moment the hold expires; this tidies up.)
 * One transaction per reservation, each locking its leads in id order like a purchase does, so
 * the sweeper never deadlocks with buyers. Returns how many reservations it ended.
 */
export async function expireUnpaidReservations(ctx: CatalogContext, batchSize = 100): Promise<number> {
  let ended = 0;
  for (;;) {
    const now = ctx.clock();
    const due = await expiredReservationIds(ctx.pool, now, batchSize);
    for (const orderId of due) {
      const expired = await withTransaction(ctx.pool, async (db) => {
        const reservation = await findReservation(db, orderId, { forUpdate: true });
        // Paid or released meanwhile: nothing to do.
        if (!reservation || reservation.status !== 'held' || reservation.expiresAt > now) return false;
        await releaseHolds(db, orderId);
        await closeReservation(db, orderId, 'expired', 'unpaid after the reservation time', now);
        return true;
      });
      if (expired) ended += 1;
    }
    if (due.length < batchSize) return ended;
  }
}
