import type { PoolClient } from '@warmline/platform/db/index';
import type { Logger } from '@warmline/platform/log';
import { leadReturnRefundKey, type CommandData } from '@warmline/contracts';
import { findOrder } from '../db/orders';
import { findRefundByIdempotencyKey } from '../db/refunds';
import type { OrdersContext } from './context';
import { refundOrder } from './refunds';

/**
 * The catalog accepted a lead return (issue 24, ADR 0034): exactly the lead's price goes back to
 * the card of the order that bought it, initiated by the system, through refundOrder — one refund
 * per lead whatever the redeliveries or repeated accepts (the key is the lead's), never more than
 * the order has left (an admin may have refunded by hand first). payment.refunded carries the key
 * back, and the catalog shows the return as refunded. The buyer gets the refund e-mail.
 */
export async function refundReturnedLead(
  ctx: OrdersContext,
  command: CommandData<'lead_return.refund'>,
  handler: { db: PoolClient; log: Logger; correlationId: string },
): Promise<void> {
  const idempotencyKey = leadReturnRefundKey(command.leadId);
  if (await findRefundByIdempotencyKey(handler.db, idempotencyKey)) return;
  const order = await findOrder(handler.db, command.orderId);
  if (!order || order.buyerUserId !== command.buyerUserId || order.kind === 'transfer') {
    handler.log.error({ orderId: command.orderId, leadId: command.leadId }, 'a lead return names an order this service does not know for its buyer');
    return;
  }
  const amountCents = Math.min(command.amountCents, order.amountCents - order.refundedCents);
  if (amountCents <= 0) {
    handler.log.warn({ orderId: order.id, leadId: command.leadId }, 'a returned lead’s order has nothing left to refund');
    return;
  }
  await refundOrder(ctx, {
    orderId: order.id,
    amountCents,
    reason: `Aged lead returned: ${command.reasonLabel}`,
    initiatedBy: 'system',
    idempotencyKey,
    correlationId: handler.correlationId,
  });
}
