import { randomUUID } from 'node:crypto';
import { withTransaction } from '@warmline/platform/db/index';
import { enqueue } from '@warmline/platform/bus/index';
import { recordAdminAction } from '@warmline/platform/bus/admin-audit';
import { AppError } from '@warmline/platform/errors';
import type { ActingAdmin } from '@warmline/platform/identity';
import { REASON_REQUIRED_TO_CANCEL_PAID, type TransferOrderRecord, type TransferStatusChange } from '@warmline/contracts';
import { refundedCentsOf } from '../db/refunds';
import { cancelUnpaidTransferOrders, findTransferOrder, moveTransferOrder } from '../db/transfer-orders';
import { SOURCE, type OrdersContext } from './context';
import { refundOrder } from './refunds';

/**
 * Moving a transfer order (issue 12): pending → cancelled; paid → completed; paid → cancelled,
 * whose payment is refunded first (the refund is idempotent per order, so a retried cancel never
 * refunds twice). The agent is e-mailed and the audit log told, in the transaction of the move.
 */

/** Unpaid transfer orders are cancelled this long after they were placed. */
const UNPAID_TRANSFER_ORDER_HOURS = 24;

const REFUSED: Record<string, string> = {
  'pending>completed': 'An unpaid order cannot be completed',
  'completed>completed': 'This order is already completed',
  'completed>cancelled': 'A completed order cannot be cancelled',
  'cancelled>completed': 'A cancelled order cannot be completed',
  'cancelled>cancelled': 'This order is already cancelled',
};

export async function changeTransferOrderStatus(
  ctx: OrdersContext,
  input: { orderId: string; change: TransferStatusChange; actor: ActingAdmin; correlationId: string },
): Promise<TransferOrderRecord> {
  const { status: to, reason, note } = input.change;
  const current = await findTransferOrder(ctx.pool, input.orderId);
  if (!current) throw new AppError('NotFound', 'Transfer order not found', 404);
  const refused = REFUSED[`${current.status}>${to}`];
  if (refused) throw new AppError('Conflict', refused, 409);

  let refundedCents: number | undefined;
  if (current.status === 'paid' && to === 'cancelled') {
    if (!reason) throw new AppError('BadRequest', REASON_REQUIRED_TO_CANCEL_PAID, 400);
    await refundOrder(ctx, {
      orderId: current.id,
      reason: `Transfer order cancelled: ${reason}`.slice(0, 500),
      initiatedBy: 'admin',
      actor: input.actor,
      idempotencyKey: `transfer-cancel:${current.id}`,
      correlationId: input.correlationId,
      notifyBuyer: false,
    }).catch((err: unknown) => {
      // Refunded already (a cancel retried, or two at once): the move below still happens once.
      if (err instanceof AppError && err.status === 409 && /refunded in full/.test(err.message)) return null;
      throw err;
    });
    // What went back, however many requests raced to cancel: the e-mail says it.
    refundedCents = (await refundedCentsOf(ctx.pool, current.id)) || undefined;
  }

  return withTransaction(ctx.pool, async (db) => {
    const locked = await findTransferOrder(db, current.id, { forUpdate: true });
    const moved = locked && (await moveTransferOrder(db, current.id, locked.status, to));
    if (!locked || !moved || locked.status !== current.status) {
      throw new AppError('Conflict', 'The order changed meanwhile; reload and try again', 409);
    }
    await enqueue(db, {
      type: 'email.transfer_order_status',
      source: SOURCE,
      correlationId: input.correlationId,
      data: {
        to: moved.email,
        firstName: moved.firstName,
        orderId: moved.id,
        status: to,
        totalTransfers: moved.totalTransfers,
        ...(reason ? { reason } : {}),
        ...(note ? { note } : {}),
        ...(refundedCents ? { refundedCents } : {}),
        changedAt: new Date().toISOString(),
      },
    });
    await recordAdminAction(db, {
      source: SOURCE,
      actor: input.actor,
      action: 'transfer_order.status_changed',
      subjectType: 'transfer_order',
      subjectId: moved.id,
      subjectLabel: `${moved.totalTransfers} transfers for ${moved.firstName} ${moved.lastName} (${moved.email})`,
      before: { status: current.status },
      after: { status: to, ...(refundedCents ? { refundedCents } : {}) },
      // The admin's note to the agent is the entry's reason (with the cancel reason when both).
      ...(reason || note ? { reason: [reason, note && `Note to the agent: ${note}`].filter(Boolean).join(' — ') } : {}),
      at: new Date(),
      correlationId: input.correlationId,
    });
    ctx.log.info({ orderId: moved.id, from: current.status, to, refundedCents }, 'transfer order moved');
    return moved;
  });
}

/** Why the sweeper cancelled an order, as the agent's e-mail says it. */
const UNPAID_CANCEL_REASON = `Not paid within ${UNPAID_TRANSFER_ORDER_HOURS} hours of ordering`;

/**
 * Cancels transfer orders left unpaid for 24 hours, each agent told in the same transaction
 * (a second sweeper at once finds them no longer pending, so each is told once); the sweeper
 * calls it. A payment that still arrives for one is refunded at once (below).
 */
export async function cancelStaleTransferOrders(ctx: OrdersContext, now: Date = new Date()): Promise<string[]> {
  const cancelled = await withTransaction(ctx.pool, async (db) => {
    const orders = await cancelUnpaidTransferOrders(db, new Date(now.getTime() - UNPAID_TRANSFER_ORDER_HOURS * 3_600_000));
    for (const order of orders) {
      await enqueue(db, {
        type: 'email.transfer_order_status',
        source: SOURCE,
        correlationId: randomUUID(),
        data: {
          to: order.email,
          firstName: order.firstName,
          orderId: order.id,
          status: 'cancelled',
          totalTransfers: order.totalTransfers,
          reason: UNPAID_CANCEL_REASON,
          changedAt: now.toISOString(),
        },
      });
    }
    return orders.map((o) => o.id);
  });
  if (cancelled.length) ctx.log.info({ cancelled }, 'unpaid transfer orders cancelled after 24 hours');
  return cancelled;
}

/**
 * A payment that arrives for a transfer order already cancelled (left unpaid for 24 hours, or
 * cancelled by the team while the buyer was paying) is given back at once: nothing will be
 * delivered for it. Called right after the payment is recorded; idempotent per order.
 */
export async function refundPaymentOfCancelledTransfer(ctx: OrdersContext, orderId: string, correlationId: string): Promise<void> {
  const transfer = await findTransferOrder(ctx.pool, orderId);
  if (transfer?.status !== 'cancelled') return;
  try {
    await refundOrder(ctx, {
      orderId,
      reason: 'Paid after the transfer order was cancelled',
      initiatedBy: 'system',
      idempotencyKey: `late-payment:${orderId}`,
      correlationId,
    });
  } catch (err) {
    // The money stays taken until someone refunds it from All Orders: say so loudly.
    ctx.log.error({ err, orderId, alert: 'refund-of-cancelled-transfer-failed' }, 'a payment of a cancelled transfer order could not be refunded; refund it by hand');
  }
}
