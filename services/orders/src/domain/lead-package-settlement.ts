import { enqueue } from '@warmline/platform/bus/index';
import type { PoolClient } from '@warmline/platform/db/index';
import type { Logger } from '@warmline/platform/log';
import type { CommandData } from '@warmline/contracts';
import { orderBrandOf } from '@warmline/contracts/orders';
import type { UsersClient } from '../clients/users-client';
import { findOrder, recordLeadsDelivered, type PackageOrder } from '../db/orders';
import { SOURCE, type OrdersContext } from './context';
import { accountContact, writeLeadsReceipt } from './lead-receipts';
import { refundOrder } from './refunds';

/**
 * The catalog filled a paid RingCloud Aged Leads package (issue 13): what it could not deliver
 * is refunded through the payment provider, exactly the `refundDueCents` it names (never more
 * than is left), initiated by the system and once per order whatever the redeliveries (the
 * idempotency key is the order's). The buyer gets the receipt listing the leads, and an e-mail
 * saying what was refunded and why.
 *
 * The refund is its own transaction (it calls the provider while holding the order); the
 * e-mails are written in the consumer's transaction. A crash between them redelivers the
 * command, the refund answers as already made, and the e-mails are written then.
 */
export async function settleLeadPackage(
  ctx: OrdersContext,
  deps: { users: UsersClient },
  settle: CommandData<'lead_package.settle'>,
  handler: { db: PoolClient; log: Logger; correlationId: string },
): Promise<void> {
  const order = await findOrder(handler.db, settle.orderId);
  if (!order || order.kind !== 'package' || order.tier !== 'ringcloud' || order.leadType !== 'Aged Leads' || order.buyerUserId !== settle.buyerUserId) {
    handler.log.error({ orderId: settle.orderId, kind: order?.kind, tier: order?.tier }, 'the catalog settled an Aged Leads package this service does not know');
    return;
  }
  const reason = refundReason(order, settle.delivered.length);
  let refund: { refundedCents: number; refundedTotalCents: number } | null = null;
  // Never more than is left (an admin may have refunded by hand first); a replay answers what it refunded.
  const amountCents = Math.min(settle.refundDueCents, order.amountCents - order.refundedCents);
  if (amountCents > 0) {
    refund = await refundOrder(ctx, {
      orderId: order.id,
      amountCents,
      reason,
      initiatedBy: 'system',
      idempotencyKey: `lead-package:${order.id}`,
      correlationId: handler.correlationId,
      // Written below, to the same address as the receipt.
      notifyBuyer: false,
    });
  }

  // The thank-you page says how many were delivered (issue 22). After the refund: that takes
  // the order's row lock in its own transaction, which this one must not be holding yet.
  await recordLeadsDelivered(handler.db, order.id, settle.delivered.length);

  const buyer = await buyerContact(order, deps.users, handler);
  if (!buyer) return;
  if (settle.buyerUserId !== null) {
    // The leads are in My Leads; the receipt lists them. Its refund lines are for listed leads
    // sold elsewhere, which a package has none of: the refund e-mail below says why money went back.
    await writeLeadsReceipt(handler, buyer, order, {
      delivered: settle.delivered,
      undelivered: [],
      refundedCents: 0,
      // RingCloud's packs of aged leads: the receipt is RingCloud's (issue 17 item 7).
      brand: orderBrandOf(order.tier),
      // How many of how many, from which states, and what the rest gives back (issue 22).
      leadPackage: { ordered: order.count, states: order.states, refundDueCents: Math.min(settle.refundDueCents, order.amountCents) },
    });
  }
  if (refund) {
    await enqueue(handler.db, {
      type: 'email.refund_issued',
      source: SOURCE,
      correlationId: handler.correlationId,
      data: {
        to: buyer.email,
        name: buyer.name,
        orderId: order.id,
        description: order.description,
        amountCents: refund.refundedCents,
        refundedTotalCents: refund.refundedTotalCents,
        orderAmountCents: order.amountCents,
        reason,
        refundedAt: new Date().toISOString(),
      },
    });
  }
}

/** What the buyer and All Orders read as the refund's reason. */
function refundReason(order: PackageOrder, delivered: number): string {
  if (order.buyerUserId === null) {
    return 'This order is not linked to an account, so its aged leads could not be delivered to My Leads. Please log in and order again.';
  }
  const missing = order.count - delivered;
  const where = order.states && order.states.length > 0 ? ` in ${order.states.join(', ')}` : '';
  return `${missing} of the ${order.count} aged leads ordered ${missing === 1 ? 'was' : 'were'} not in stock${where}`;
}

/**
 * Where the e-mails go: the billing address given at the checkout, else the account's. An
 * anonymous order without one, or an account deleted since, has nowhere to write to; the
 * gateway being away is retried.
 */
async function buyerContact(order: PackageOrder, users: UsersClient, handler: { log: Logger; correlationId: string }): Promise<{ email: string; name: string } | null> {
  if (order.billingEmail) return { email: order.billingEmail, name: order.billingName ?? '' };
  if (!order.buyerUserId) {
    handler.log.warn({ orderId: order.id }, 'an anonymous Aged Leads package left no address; its refund is not e-mailed');
    return null;
  }
  return accountContact(users, order.buyerUserId, handler);
}
