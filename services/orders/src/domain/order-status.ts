import { AppError } from '@warmline/platform/errors';
import type { Identity } from '@warmline/platform/identity';
import { findOrder, type PackageOrder } from '../db/orders';
import { linkedByCheckoutToken } from '../db/my-orders';
import type { TransferOrderRecord } from '@warmline/contracts';
import { findTransferOrder } from '../db/transfer-orders';
import type { OrdersContext } from './context';

/**
 * The order a success page may read by its id (GET /api/orders/{id}/status; the answer holds no
 * personal data): one without a buyer (a public checkout), the viewer's own, any for admins, and
 * one the RingCloud checkout token linked — that buyer paid without a session, for the account
 * its survey had just created, and lands on /thank-you still logged out. Anything else: 404.
 */
export async function orderForStatus(ctx: OrdersContext, orderId: string, viewer: Identity): Promise<PackageOrder> {
  const order = await findOrder(ctx.pool, orderId);
  if (!order) throw new AppError('OrderNotFound', 'Order not found', 404);
  if (order.buyerUserId === null || order.buyerUserId === viewer.userId || viewer.isAdmin) return order;
  if (await linkedByCheckoutToken(ctx.pool, orderId)) return order;
  throw new AppError('OrderNotFound', 'Order not found', 404);
}

/** A transfer order's own details beside its order (only its agent and admins reach its status). */
export async function transferDetailsOf(ctx: OrdersContext, order: PackageOrder): Promise<TransferOrderRecord | null> {
  return order.kind === 'transfer' ? findTransferOrder(ctx.pool, order.id) : null;
}
