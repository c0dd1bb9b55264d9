import type { Handler } from '@warmline/platform/bus/index';
import { releaseUnpaidLeadOrder, sellPaidLeadOrder } from '../domain/lead-sales';

/** payment.succeeded of a lead order → its reserved leads are sold to the buyer. Other kinds are not ours. */
export function leadOrderPaidHandler(deps: { clock: () => Date }): Handler<'payment.succeeded'> {
  return async (payment, { envelope, db, log }) => {
    if (payment.kind !== 'lead') return;
    await sellPaidLeadOrder(db, { log, clock: deps.clock }, {
      orderId: payment.orderId,
      buyerUserId: payment.buyerUserId,
      correlationId: envelope.correlationId,
    });
  };
}

/** payment.failed of a lead order → its leads go back on the market at once. */
export function leadOrderFailedHandler(deps: { clock: () => Date }): Handler<'payment.failed'> {
  return async (payment, { db, log }) => {
    if (payment.kind !== 'lead') return;
    const released = await releaseUnpaidLeadOrder(db, deps, payment.orderId, `payment failed: ${payment.failureMessage}`);
    if (released) log.info({ orderId: payment.orderId }, 'lead payment failed; reservation released');
  };
}
