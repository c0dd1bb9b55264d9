import type { PoolClient } from '@warmline/platform/db/index';
import type { Logger } from '@warmline/platform/log';
import type { CommandData } from '@warmline/contracts';
import type { UsersClient } from '../clients/users-client';
import { findOrder } from '../db/orders';
import type { OrdersContext } from './context';
import { accountContact, writeLeadsReceipt } from './lead-receipts';
import { refundOrder } from './refunds';

/**
 * The catalog settled a paid lead order (issue 12): the leads sold to someone else before a late
 * payment are refunded through the payment provider (initiated by the system, one refund per
 * order whatever the redeliveries: the idempotency key is the order's), and the buyer gets the
 * receipt that lists the leads bought, which were not delivered, and what went back.
 *
 * The refund is its own transaction (it calls the provider while holding the order); the
 * receipt is written in the consumer's transaction. A crash between them redelivers the
 * command, the refund answers as already made, and the receipt is written then.
 */
export async function settleLeadOrder(
  ctx: OrdersContext,
  deps: { users: UsersClient },
  settle: CommandData<'lead_order.settle'>,
  handler: { db: PoolClient; log: Logger; correlationId: string },
): Promise<void> {
  const order = await findOrder(handler.db, settle.orderId);
  if (!order || order.kind !== 'lead' || order.buyerUserId !== settle.buyerUserId) {
    handler.log.error({ orderId: settle.orderId, kind: order?.kind }, 'the catalog settled a lead order this service does not know');
    return;
  }
  let refundedCents = 0;
  if (settle.refundDueCents > 0) {
    // Never more than is left (an admin may have refunded by hand first); a replay answers what it refunded.
    const amountCents = Math.min(settle.refundDueCents, order.amountCents - order.refundedCents);
    if (amountCents > 0) {
      const count = settle.undelivered.length;
      const refund = await refundOrder(ctx, {
        orderId: order.id,
        amountCents,
        reason: order.cancelledAt
          ? 'The purchase was cancelled before the payment arrived, so no lead was delivered'
          : `${count} aged ${count === 1 ? 'lead was' : 'leads were'} sold to another buyer before the payment arrived`,
        initiatedBy: 'system',
        idempotencyKey: `undelivered-leads:${order.id}`,
        correlationId: handler.correlationId,
        // The receipt below says it, with the leads.
        notifyBuyer: false,
      });
      refundedCents = refund.refundedCents;
    }
  }

  // The account that bought them, greeted by first name: a lead order's billing details are a copy of
  // the account's (issue 22, for All Orders), and the account's e-mail is the one it uses now.
  const buyer = await accountContact(deps.users, settle.buyerUserId, handler);
  if (!buyer) return;
  await writeLeadsReceipt(handler, buyer, order, { delivered: settle.delivered, undelivered: settle.undelivered, refundedCents });
}
