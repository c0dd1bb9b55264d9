import { randomUUID } from 'node:crypto';
import { withTransaction, type Queryable } from '@warmline/platform/db/index';
import { enqueue } from '@warmline/platform/bus/index';
import { AppError, badRequest } from '@warmline/platform/errors';
import type { Identity } from '@warmline/platform/identity';
import type { Logger } from '@warmline/platform/log';
import {
  centsToDecimal,
  formatUsd,
  priceTextToCents,
  quoteTransfers,
  type CallTransferOrderRequest,
  type EventData,
  type TransferOrdersResponse,
} from '@warmline/contracts';
import type { PackageOrder, PaymentIntentRow } from '../db/orders';
import { insertTransferOrder, listTransferOrders, markTransferOrderPaid, transferOrderStats } from '../db/transfer-orders';
import type { UsersClient } from '../clients/users-client';
import { SOURCE, type OrdersContext } from './context';
import { announceOrderCreated, ensureIntent } from './package-orders';

export interface TransferOrdersContext extends OrdersContext {
  users: UsersClient;
}

export interface CreateTransferOrderInput {
  request: CallTransferOrderRequest;
  buyer: Identity;
  correlationId: string;
}

export interface TransferOrderWithIntent {
  order: PackageOrder;
  intent: PaymentIntentRow;
  unitPriceCents: number;
}

/**
 * An agent orders live transfers from the dashboard: price them at the agent's own
 * per-transfer price (asked of the gateway, which owns it), refuse a browser price that
 * differs, record the pending transfer order with its payment row and `order.created` in one
 * transaction, then open the payment at the provider like every checkout.
 */
export async function createTransferOrder(ctx: TransferOrdersContext, input: CreateTransferOrderInput): Promise<TransferOrderWithIntent> {
  const { request, buyer } = input;
  if (!buyer.userId) throw new AppError('Unauthorized', 'Not authenticated', 401);
  const profile = await ctx.users.buyerProfile(buyer, input.correlationId);
  const unitPriceCents = priceTextToCents(profile.liveTransferPrice);
  if (unitPriceCents === null) throw new Error(`The gateway gave a per-transfer price that is not a price: ${profile.liveTransferPrice}`);

  const quote = quoteTransfers(request.totalTransfers, unitPriceCents);
  if (!quote.ok) throw badRequest(quote.message);
  if (request.price !== undefined && request.price !== quote.totalCents) {
    throw badRequest(
      `Price does not match your per-transfer price: expected ${formatUsd(quote.totalCents)} ` +
        `(${request.totalTransfers} × ${formatUsd(unitPriceCents)})`,
      { expectedPrice: centsToDecimal(quote.totalCents), unitPrice: centsToDecimal(unitPriceCents) },
    );
  }

  const id = randomUUID();
  const order = await withTransaction(ctx.pool, async (db) => {
    const inserted = await insertTransferOrder(db, {
      id,
      userId: buyer.userId!,
      firstName: profile.firstName,
      lastName: profile.lastName,
      phone: profile.phone,
      email: profile.email,
      transferNumber: request.transferPhone,
      totalTransfers: request.totalTransfers,
      transfersPerDay: request.callsPerDay,
      transferHours: request.transferHours,
      selectedStates: request.workingStates,
      unitPriceCents,
      totalCents: quote.totalCents,
      description: `Live transfers: ${request.totalTransfers} ${request.totalTransfers === 1 ? 'transfer' : 'transfers'} × ${formatUsd(unitPriceCents)} (${request.workingStates.join(', ')})`,
      provider: ctx.provider.name,
    });
    await announceOrderCreated(db, inserted, input.correlationId);
    return inserted;
  });
  ctx.log.info({ orderId: order.id, buyer: buyer.userId, amountCents: order.amountCents }, 'transfer order created');
  const intent = await ensureIntent(ctx, order);
  return { order, intent, unitPriceCents };
}

/**
 * Called by recordPaymentSucceeded, inside its transaction, when a transfer order's payment
 * went through: the transfer order becomes paid, `transfer_order.paid` tells what was bought,
 * and `email.transfer_order_paid` asks for the agent's confirmation and the operations notice
 * with the agent's contact and transfer phone. A transfer order that is no longer pending
 * changes nothing.
 */
export async function recordTransferOrderPaid(db: Queryable, payment: PackageOrder, correlationId: string, log: Logger): Promise<void> {
  const order = await markTransferOrderPaid(db, payment.id, payment.paidAt ?? new Date());
  if (!order) {
    log.warn({ orderId: payment.id }, 'payment of a transfer order that is not pending; left as it is');
    return;
  }
  const paid: EventData<'transfer_order.paid'> = {
    orderId: order.id,
    buyerUserId: order.userId,
    totalTransfers: order.totalTransfers,
    transfersPerDay: order.transfersPerDay,
    selectedStates: order.selectedStates,
    unitPriceCents: payment.unitPriceCents,
    amountCents: payment.amountCents,
    currency: payment.currency,
    paidAt: order.paidAt ?? new Date().toISOString(),
  };
  await enqueue(db, { type: 'transfer_order.paid', data: paid, correlationId, source: SOURCE });
  await enqueue(db, {
    type: 'email.transfer_order_paid',
    data: {
      ...paid,
      transferHours: order.transferHours,
      agent: { firstName: order.firstName, lastName: order.lastName, email: order.email, phone: order.phone },
      transferNumber: order.transferNumber,
    },
    correlationId,
    source: SOURCE,
  });
}

/** Every transfer order and the admin page's figures; the caller checked the admin flag. */
export async function transferOrdersOverview(ctx: OrdersContext): Promise<TransferOrdersResponse> {
  const [orders, stats] = await Promise.all([listTransferOrders(ctx.pool), transferOrderStats(ctx.pool)]);
  return { orders, stats };
}
