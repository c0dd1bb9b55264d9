import type { Handler } from '@warmline/platform/bus/index';
import { creditPaidOrder, stopRoutingToDeleted, takeBackRefundedOrder } from '../domain/credits';

/**
 * The payment outcomes that move an agent's transfer ledger (issue 23 §1): each handler passes
 * over the orders that do not buy live transfers.
 */

/** payment.succeeded → the buyer's lot (an anonymous order waits for its claim). */
export function transferOrderPaidHandler(): Handler<'payment.succeeded'> {
  return async (payment, { db, log }) => {
    await creditPaidOrder(db, { log }, payment, new Date(payment.paidAt));
  };
}

/** order.claimed → the claimed order's lot, dated when it was paid when that is known. */
export function transferOrderClaimedHandler(): Handler<'order.claimed'> {
  return async (claim, { db, log }) => {
    await creditPaidOrder(db, { log }, claim, new Date(claim.claimedAt));
  };
}

/** payment.refunded → its unused transfers taken back (kept until the credit if it came first). */
export function transferOrderRefundedHandler(): Handler<'payment.refunded'> {
  return async (refund, { db, log }) => {
    await takeBackRefundedOrder(db, { log }, refund);
  };
}

/** user.deleted → never routed to again. */
export function agentDeletedHandler(deps: { clock: () => Date }): Handler<'user.deleted'> {
  return async (deleted, { db }) => {
    await stopRoutingToDeleted(db, deleted.userId, deps.clock());
  };
}
