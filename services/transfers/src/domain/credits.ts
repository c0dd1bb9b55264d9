import type { EventData } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform/db/index';
import type { Logger } from '@warmline/platform/log';
import { creditLot, ensureAgent, lockAgent, takeBackFromLot } from '../db/ledger';
import {
  findOrderLot,
  keepUnclaimedOrder,
  lockOrder,
  markAgentDeleted,
  recordRefundedTotal,
  refundedTotal,
  takeUnclaimedOrder,
  type OrderLot,
} from '../db/credits';

/**
 * Credits from paid orders (issue 23 §1, docs/adr/0032): a paid live-transfer order is one lot of
 * `count` transfers at the unit price paid; an anonymous one waits for its claim; a refund takes
 * back unused transfers only. Every step is keyed by the order, so repeated and reordered events
 * leave the same ledger.
 */

/** What crediting an order needs, as both payment.succeeded and order.claimed say it. */
export type OrderFacts = Pick<
  EventData<'payment.succeeded'>,
  'orderId' | 'kind' | 'tier' | 'leadType' | 'description' | 'count' | 'unitPriceCents' | 'amountCents' | 'buyerUserId'
>;

/** The package tiers that sell live transfers (the pricing pages' Standard/Special … High-volume). */
const TRANSFER_PACKAGE_TIERS: readonly string[] = ['special', 'premium', 'enterprise', 'ultimate', 'high-volume'];

/**
 * Whether the order buys live transfers: a transfer order, a transfer package, or the second
 * brand's RingCloud Live Transfers — never Call-Backs (WarmLine's or RingCloud's) nor Aged Leads.
 */
function isLiveTransferOrder(order: Pick<OrderFacts, 'kind' | 'tier' | 'leadType' | 'description'>): boolean {
  if (order.kind === 'transfer') return true;
  if (order.kind !== 'package' || order.tier === null) return false;
  if (TRANSFER_PACKAGE_TIERS.includes(order.tier)) return true;
  if (order.tier !== 'ringcloud') return false;
  // Events written before leadType travelled name the product in the description.
  return order.leadType !== undefined ? order.leadType === 'Live Transfers' : /^RingCloud Live Transfers/.test(order.description);
}

interface Deps {
  log: Logger;
}

/**
 * payment.succeeded / order.claimed: credits the buyer one lot, once per order. Without a buyer
 * the order is kept until its claim; a refund heard before the credit is applied right after it.
 */
export async function creditPaidOrder(db: Queryable, deps: Deps, order: OrderFacts, at: Date): Promise<void> {
  if (!isLiveTransferOrder(order)) return;
  const log = deps.log.child({ orderId: order.orderId });
  await lockOrder(db, order.orderId);
  if (await findOrderLot(db, order.orderId)) {
    log.info('the live-transfer order was credited before');
    return;
  }
  if (!order.buyerUserId) {
    await keepUnclaimedOrder(db, {
      orderId: order.orderId,
      description: order.description,
      count: order.count,
      unitCents: order.unitPriceCents,
      paidCents: order.amountCents,
      paidAt: at,
    });
    log.info({ count: order.count }, 'a live-transfer order was paid without an account: credited when its buyer claims it');
    return;
  }
  const waited = await takeUnclaimedOrder(db, order.orderId);
  const agentId = order.buyerUserId;
  await ensureAgent(db, agentId);
  await lockAgent(db, agentId);
  const credited = await creditLot(db, {
    agentId,
    source: 'order',
    orderId: order.orderId,
    description: order.description,
    unitCents: order.unitPriceCents,
    paidCents: order.amountCents,
    transfers: order.count,
    // A claimed order counts from when it was paid.
    at: waited?.paidAt ?? at,
    kind: 'order_credit',
    cause: `Paid order: ${order.description}`,
    causeId: order.orderId,
  });
  if (!credited) return;
  log.info({ agentId, transfers: order.count, unitCents: order.unitPriceCents }, 'live transfers credited');
  const refunded = await refundedTotal(db, order.orderId);
  if (refunded > 0) {
    const lot = await findOrderLot(db, order.orderId);
    if (lot) await takeBackRefunded(db, log, lot, refunded, at);
  }
}

/**
 * payment.refunded: takes back the unused transfers the refunded total pays for. Kept when the
 * order has not been credited (yet): its credit applies it.
 */
export async function takeBackRefundedOrder(db: Queryable, deps: Deps, refund: EventData<'payment.refunded'>): Promise<void> {
  await lockOrder(db, refund.orderId);
  const at = new Date(refund.refundedAt);
  const total = await recordRefundedTotal(db, refund.orderId, refund.refundedTotalCents, at);
  const lot = await findOrderLot(db, refund.orderId);
  if (!lot) return;
  await takeBackRefunded(db, deps.log.child({ orderId: refund.orderId }), lot, total, at);
}

/**
 * How many transfers a refunded total takes back in all: every unused one for a whole refund;
 * for a part, the transfers it pays for (rounded up: a refund of part of a transfer's price
 * means that transfer is not owed), never more than the lot bought.
 */
function transfersRefunded(lot: OrderLot, refundedTotalCents: number): number {
  if (refundedTotalCents >= lot.paidCents || lot.unitCents === 0) return lot.credited;
  return Math.min(lot.credited, Math.ceil(refundedTotalCents / lot.unitCents));
}

async function takeBackRefunded(db: Queryable, log: Logger, lot: OrderLot, refundedTotalCents: number, at: Date): Promise<void> {
  // The agent first, then the lot: the ledger's lock order.
  await lockAgent(db, lot.agentId);
  const fresh = (await findOrderLot(db, lot.orderId)) ?? lot;
  const due = Math.min(transfersRefunded(fresh, refundedTotalCents) - fresh.takenBack, fresh.remaining);
  if (due <= 0) {
    log.info({ refundedTotalCents }, 'the refund takes back no more transfers (the rest were delivered or taken back before)');
    return;
  }
  const taken = await takeBackFromLot(db, {
    lotId: fresh.id,
    transfers: due,
    kind: 'refund_takeback',
    cause: 'Order refunded: unused transfers taken back',
    causeId: `${fresh.orderId}:${refundedTotalCents}`,
    at,
  });
  log.info({ refundedTotalCents, taken, agentId: fresh.agentId }, 'refunded transfers taken back');
}

/** user.deleted: the account is never routed to again. */
export async function stopRoutingToDeleted(db: Queryable, userId: string, at: Date): Promise<void> {
  await markAgentDeleted(db, userId, at);
}
