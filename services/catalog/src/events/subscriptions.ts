import { subscribe, type Subscription } from '@warmline/platform/bus/index';
import { leadOrderFailedHandler, leadOrderPaidHandler } from './lead-payments';

/** The queue of payment outcomes the catalog acts on; `<queue>.retry` and `<queue>.dlq` beside it. */
export const LEAD_PAYMENTS_QUEUE = 'catalog.lead-payments';

/** Everything the catalog consumes, and which handler runs for it. */
export function subscriptions(deps: { clock: () => Date }): Subscription[] {
  return [subscribe('payment.succeeded', leadOrderPaidHandler(deps)), subscribe('payment.failed', leadOrderFailedHandler(deps))];
}
