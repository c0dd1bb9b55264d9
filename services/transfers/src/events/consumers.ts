import { queueOf } from '@warmline/contracts/bus/broker-manifest';
import { subscribe, type ServiceConsumer, type Subscription } from '@warmline/platform/bus/index';
import type { TransfersContext } from '../domain/context';
import { agentDeletedHandler, transferOrderClaimedHandler, transferOrderPaidHandler, transferOrderRefundedHandler } from './payments';
import { changeSuppressionCopy, noticeAgentOfOptOut } from '../domain/opt-outs';
import { mirrorVendorKey } from './mirrors';

/** The queue of payment outcomes that credit and take back transfers; `<queue>.retry` and `<queue>.dlq` beside it. */
export const TRANSFER_PAYMENTS_QUEUE = queueOf('transfers', 'transfers.payments');
/** The queue of the vendor keys' and the suppression list's copies. */
export const TRANSFER_MIRRORS_QUEUE = queueOf('transfers', 'transfers.mirrors');

/** Everything the transfers service consumes: one queue per purpose, and which handler runs for each message type on it. */
export function consumers(ctx: Omit<TransfersContext, 'pool'>): ServiceConsumer[] {
  return [
    { queue: TRANSFER_PAYMENTS_QUEUE, subscriptions: paymentSubscriptions(ctx) },
    { queue: TRANSFER_MIRRORS_QUEUE, subscriptions: mirrorSubscriptions(ctx) },
  ];
}

/** What the transfers service consumes from orders and the gateway, and which handler runs for it. */
function paymentSubscriptions(ctx: Omit<TransfersContext, 'pool'>): Subscription[] {
  return [
    subscribe('payment.succeeded', transferOrderPaidHandler()),
    // A live-transfer order paid without an account is credited once its buyer claims it.
    subscribe('order.claimed', transferOrderClaimedHandler()),
    subscribe('payment.refunded', transferOrderRefundedHandler()),
    subscribe('user.deleted', agentDeletedHandler({ clock: ctx.clock })),
  ];
}

/** The vendor keys (from ingestion) and the suppression list (from the catalog), mirrored here for routing. */
function mirrorSubscriptions(ctx: Omit<TransfersContext, 'pool'>): Subscription[] {
  return [
    subscribe('vendor_key.mirror', async (key, { db }) => mirrorVendorKey(db, key)),
    subscribe('suppression.mirror', async (change, { db, envelope }) => changeSuppressionCopy(db, change, envelope.correlationId)),
    // Issue 24: the agents who received a transfer of a phone that opted out, told once each.
    subscribe('transfer_opt_out.notify_agent', async (notice, { db, envelope, log }) =>
      noticeAgentOfOptOut(db, { gateway: ctx.gateway, log, clock: ctx.clock }, notice, envelope.correlationId),
    ),
  ];
}
