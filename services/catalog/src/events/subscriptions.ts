import { subscribe, type Subscription } from '@warmline/platform/bus/index';
import { leadOrderFailedHandler, leadOrderPaidHandler } from './lead-payments';
import { leadPackagePaidHandler } from './lead-packages';

/** The queue of payment outcomes the catalog acts on; `<queue>.retry` and `<queue>.dlq` beside it. */
export const LEAD_PAYMENTS_QUEUE = 'catalog.lead-payments';

/** Everything the catalog consumes, and which handler runs for it. */
export function subscriptions(deps: { clock: () => Date }): Subscription[] {
  const leadOrderPaid = leadOrderPaidHandler(deps);
  const leadPackagePaid = leadPackagePaidHandler(deps);
  return [
    // One handler per type and queue: each of the two passes over the orders that are not its kind.
    subscribe('payment.succeeded', async (payment, handler) => {
      await leadOrderPaid(payment, handler);
      await leadPackagePaid(payment, handler);
    }),
    subscribe('payment.failed', leadOrderFailedHandler(deps)),
  ];
}
