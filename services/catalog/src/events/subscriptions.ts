import { subscribe, type Subscription } from '@warmline/platform/bus/index';
import type { GatewayClient } from '../clients/gateway-client';
import type { OrdersClient } from '../clients/orders-client';
import { creditCallBacksOrder, takeBackRefundedCallBacks } from '../domain/my-callbacks';
import { recordLeadReturnRefunded } from '../domain/lead-returns';
import { leadOrderFailedHandler, leadOrderPaidHandler } from './lead-payments';
import { leadPackagePaidHandler } from './lead-packages';

/** The queue of payment outcomes the catalog acts on; `<queue>.retry` and `<queue>.dlq` beside it. */
export const LEAD_PAYMENTS_QUEUE = 'catalog.lead-payments';

/** Everything the catalog consumes, and which handler runs for it. */
export function subscriptions(deps: { clock: () => Date; gateway: GatewayClient; orders: OrdersClient }): Subscription[] {
  const leadOrderPaid = leadOrderPaidHandler(deps);
  const leadPackagePaid = leadPackagePaidHandler(deps);
  return [
    // One handler per type and queue: each passes over the orders that are not its kind.
    subscribe('payment.succeeded', async (payment, handler) => {
      await leadOrderPaid(payment, handler);
      await leadPackagePaid(payment, handler);
      await creditCallBacksOrder(handler.db, { log: handler.log, clock: deps.clock, gateway: deps.gateway, orders: deps.orders }, payment, handler.envelope.correlationId);
    }),
    subscribe('payment.failed', leadOrderFailedHandler(deps)),
    // A Call-Backs order paid without an account is credited once its buyer claims it (ADR 0022).
    subscribe('order.claimed', async (claim, handler) => {
      await creditCallBacksOrder(handler.db, { log: handler.log, clock: deps.clock, gateway: deps.gateway, orders: deps.orders }, claim, handler.envelope.correlationId);
    }),
    // A Call-Backs order's refund changes its buyer's balance; a lead return's refund is noted on the return.
    subscribe('payment.refunded', async (refund, { db, log }) => {
      await takeBackRefundedCallBacks(db, { log, clock: deps.clock }, refund);
      await recordLeadReturnRefunded(db, { log }, refund);
    }),
  ];
}
