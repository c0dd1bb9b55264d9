import { subscribe, type Subscription } from '@warmline/platform/bus/index';
import type { TransfersContext } from '../domain/context';
import { agentDeletedHandler, transferOrderClaimedHandler, transferOrderPaidHandler, transferOrderRefundedHandler } from './payments';
import { mirrorSuppression, mirrorVendorKey } from './mirrors';

/** The queue of payment outcomes that credit and take back transfers; `<queue>.retry` and `<queue>.dlq` beside it. */
export const TRANSFER_PAYMENTS_QUEUE = 'transfers.payments';
/** The queue of the vendor keys' and the suppression list's copies. */
export const TRANSFER_MIRRORS_QUEUE = 'transfers.mirrors';

/** What the transfers service consumes from orders and the gateway, and which handler runs for it. */
export function paymentSubscriptions(ctx: Omit<TransfersContext, 'pool'>): Subscription[] {
  return [
    subscribe('payment.succeeded', transferOrderPaidHandler()),
    // A live-transfer order paid without an account is credited once its buyer claims it.
    subscribe('order.claimed', transferOrderClaimedHandler()),
    subscribe('payment.refunded', transferOrderRefundedHandler()),
    subscribe('user.deleted', agentDeletedHandler({ clock: ctx.clock })),
  ];
}

/** The vendor keys (from ingestion) and the suppression list (from the catalog), mirrored here for routing. */
export function mirrorSubscriptions(_ctx: Omit<TransfersContext, 'pool'>): Subscription[] {
  return [
    subscribe('vendor_key.mirror', async (key, { db }) => mirrorVendorKey(db, key)),
    subscribe('suppression.mirror', async (change, { db }) => mirrorSuppression(db, change)),
  ];
}
