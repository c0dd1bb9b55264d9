import { withTransaction } from '@warmline/platform/db/index';
import { enqueue } from '@warmline/platform/bus/index';
import { recordAdminAction } from '@warmline/platform/bus/admin-audit';
import { AppError } from '@warmline/platform/errors';
import type { ActingAdmin } from '@warmline/platform/identity';
import type { EventData } from '@warmline/contracts';
import { findOrder, type PackageOrder } from '../db/orders';
import { findRefundByIdempotencyKey, insertRefund, lockRefundKey } from '../db/refunds';
import { SOURCE, type OrdersContext } from './context';

/**
 * Refunds (issue 12): money given back on a paid order, whole or in part, through the payment
 * provider, recorded once, announced with `payment.refunded` and reported to the audit log when
 * an admin asked. The order's row is locked while the provider refunds, so two refunds at once
 * can never give back more than was paid; the idempotency key makes a retried request refund once.
 */

export interface RefundRequest {
  orderId: string;
  /** Absent: all that is left. */
  amountCents?: number;
  reason: string;
  initiatedBy: 'admin' | 'system';
  /** The admin who asked (from the signed identity), when an admin did. */
  actor?: ActingAdmin;
  idempotencyKey: string;
  correlationId: string;
  /** E-mail the buyer about this refund (false when another e-mail already says it, e.g. a cancellation). */
  notifyBuyer?: boolean;
}

export interface RefundResult {
  orderId: string;
  refundedCents: number;
  refundedTotalCents: number;
  /** True when the same request had already been carried out. */
  replayed: boolean;
}

const dollars = (cents: number) => (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });

export async function refundOrder(ctx: OrdersContext, request: RefundRequest): Promise<RefundResult> {
  return withTransaction(ctx.pool, async (db) => {
    const replay = async () => {
      const done = await findRefundByIdempotencyKey(db, request.idempotencyKey);
      if (!done) return null;
      // A key names one refund of one order: replaying it for another order would answer that
      // other order's refund (and tell the caller which order the key belonged to).
      if (done.orderId !== request.orderId) throw new AppError('Conflict', 'This idempotency key was already used for another order', 409);
      const order = await findOrder(db, done.orderId);
      return { orderId: done.orderId, refundedCents: done.amountCents, refundedTotalCents: order?.refundedCents ?? done.amountCents, replayed: true };
    };
    await lockRefundKey(db, request.idempotencyKey);
    const before = await replay();
    if (before) return before;
    const order = await findOrder(db, request.orderId, { forUpdate: true });
    if (!order) throw new AppError('NotFound', 'Order not found', 404);
    // The same request sent twice at once: the second waited for the lock; the first has refunded.
    const meanwhile = await replay();
    if (meanwhile) return meanwhile;
    if (order.status !== 'paid' || !order.providerIntentId) throw new AppError('Conflict', 'Only a paid order can be refunded', 409);
    const left = order.amountCents - order.refundedCents;
    if (left <= 0) throw new AppError('Conflict', 'This order has already been refunded in full', 409);
    const amountCents = request.amountCents ?? left;
    if (amountCents > left) throw new AppError('Conflict', `At most ${dollars(left)} is left to refund on this order`, 409);

    // The provider first: if it refuses, nothing is recorded and the admin may try again.
    const refund = await ctx.provider.refund({
      intentId: order.providerIntentId,
      amountCents,
      idempotencyKey: `refund:${request.idempotencyKey}`,
      metadata: { orderId: order.id, reason: request.reason.slice(0, 400), initiatedBy: request.initiatedBy },
    });
    const { refundedTotalCents } = await insertRefund(db, {
      orderId: order.id,
      amountCents,
      reason: request.reason,
      initiatedBy: request.initiatedBy,
      actorId: request.actor?.userId ?? null,
      providerRefundId: refund.id,
      idempotencyKey: request.idempotencyKey,
    });
    await announceRefund(db, {
      order,
      amountCents,
      refundedTotalCents,
      initiatedBy: request.initiatedBy,
      correlationId: request.correlationId,
      refundKey: request.idempotencyKey,
    });
    if (request.notifyBuyer !== false && order.billingEmail) {
      await enqueue(db, {
        type: 'email.refund_issued',
        source: SOURCE,
        correlationId: request.correlationId,
        data: {
          to: order.billingEmail,
          name: order.billingName ?? '',
          orderId: order.id,
          description: order.description,
          amountCents,
          refundedTotalCents,
          orderAmountCents: order.amountCents,
          reason: request.reason,
          refundedAt: new Date().toISOString(),
        },
      });
    }
    if (request.actor) {
      await recordAdminAction(db, {
        source: SOURCE,
        actor: request.actor,
        action: 'order.refunded',
        subjectType: 'order',
        subjectId: order.id,
        subjectLabel: `${order.description} — ${order.billingName ?? order.billingEmail ?? 'buyer'}`,
        before: { refundedCents: order.refundedCents },
        after: { refundedCents: refundedTotalCents },
        reason: request.reason,
        at: new Date(),
        correlationId: request.correlationId,
      });
    }
    ctx.log.info({ orderId: order.id, amountCents, refundedTotalCents, initiatedBy: request.initiatedBy }, 'order refunded');
    return { orderId: order.id, refundedCents: amountCents, refundedTotalCents, replayed: false };
  });
}

/** `payment.refunded`, in the transaction that recorded the refund. */
export async function announceRefund(
  db: Parameters<typeof enqueue>[0],
  r: {
    order: PackageOrder;
    amountCents: number;
    refundedTotalCents: number;
    initiatedBy: 'admin' | 'system' | 'provider';
    correlationId: string;
    /** The key it was asked with, so the asker can recognise its refund (issue 24: a lead return's). */
    refundKey?: string;
  },
): Promise<void> {
  const data: EventData<'payment.refunded'> = {
    orderId: r.order.id,
    amountCents: r.amountCents,
    refundedTotalCents: r.refundedTotalCents,
    currency: r.order.currency,
    initiatedBy: r.initiatedBy,
    refundedAt: new Date().toISOString(),
    ...(r.refundKey && r.refundKey.length <= 200 ? { refundKey: r.refundKey } : {}),
  };
  await enqueue(db, { type: 'payment.refunded', data, correlationId: r.correlationId, source: SOURCE });
}
