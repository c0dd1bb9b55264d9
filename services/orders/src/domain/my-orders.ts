import type { Identity } from '@warmline/platform/identity';
import { AppError } from '@warmline/platform/errors';
import { MY_ORDERS_PAGE_SIZE, type MyOrder, type MyOrderReceiptLine, type MyOrdersAnswer } from '@warmline/contracts';
import { listOrdersOfBuyer, type MyOrderRow } from '../db/my-orders';
import type { OrdersContext } from './context';

/**
 * My Orders (issue 12): the logged-in agent's own orders — never another's, and never one
 * matched by e-mail: an order is the agent's when it was bought in their session, placed from
 * their dashboard, or linked by the one-time token of the survey that created their account.
 */
export async function ordersOfAgent(ctx: OrdersContext, viewer: Identity, page: number): Promise<MyOrdersAnswer> {
  if (!viewer.userId) throw new AppError('Unauthorized', 'Not authenticated', 401);
  const { rows, total } = await listOrdersOfBuyer(ctx.pool, viewer.userId, { limit: MY_ORDERS_PAGE_SIZE, offset: (page - 1) * MY_ORDERS_PAGE_SIZE });
  return { orders: rows.map(toMyOrder), total, page, pageSize: MY_ORDERS_PAGE_SIZE };
}

function toMyOrder(r: MyOrderRow): MyOrder {
  return {
    id: r.id,
    product: r.product,
    description: r.description,
    amountCents: r.amountCents,
    refundedCents: r.refundedCents,
    status: r.status,
    disputed: r.disputed,
    createdAt: r.createdAt.toISOString(),
    paidAt: r.paidAt?.toISOString() ?? null,
    transfer: r.transfer,
    receipt: r.paidAt
      ? { lines: receiptLines(r), paidAt: r.paidAt.toISOString(), amountCents: r.amountCents, refundedCents: r.refundedCents, cardLast4: r.cardLast4 }
      : null,
  };
}

/** What was bought, line by line: a lead purchase by age range, anything else as one line. */
function receiptLines(r: MyOrderRow): MyOrderReceiptLine[] {
  if (r.product === 'aged-leads' && r.leadLines.length > 0) {
    return r.leadLines.map((l) => ({
      item: `Aged leads (${l.ageRange} days)`,
      quantity: l.count,
      unitPriceCents: l.unitPriceCents,
      amountCents: l.count * l.unitPriceCents,
    }));
  }
  // Descriptions read 'Premium Volume Package: 60 transfers × $37.00'; the part before ':' names the product.
  const item = r.product === 'transfer' ? 'Live transfers' : (r.description.split(':')[0] ?? r.description).trim();
  return [{ item, quantity: r.count, unitPriceCents: r.unitPriceCents, amountCents: r.amountCents }];
}
