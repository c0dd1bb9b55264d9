import { Router, type Request } from 'express';
import { parseInput } from '@warmline/platform/validation';
import { requireAdminIdentity } from '@warmline/platform/http/identity';
import { AppError } from '@warmline/platform/errors';
import { ADMIN_EXPORT_MAX_ROWS, ADMIN_PAGE_SIZE, adminRefundBody, allOrdersQuery, businessDate, businessDateTime, revenueQuery, transferStatusChangeBody, type AllOrdersAnswer, type RefundAnswer, type RevenueAnswer } from '@warmline/contracts';
import { toCsv } from '@warmline/platform/csv';
import { listAllOrders, revenuePerDay } from '../db/read-models/all-orders';
import type { OrdersContext } from '../domain/context';
import { refundOrder } from '../domain/refunds';
import { changeTransferOrderStatus } from '../domain/transfer-status';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function orderIdOf(req: Request, notFound: string): string {
  const id = String(req.params.id);
  if (!UUID.test(id)) throw new AppError('NotFound', notFound, 404);
  return id.toLowerCase();
}

/** The admin from the gateway's signed identity, as the audit log names them. */
function actorOf(req: Request): { id: string; username: string } {
  const identity = req.identity;
  if (!identity?.userId) throw new AppError('Unauthorized', 'Not authenticated', 401);
  return { id: identity.userId, username: identity.username ?? identity.userId };
}

/**
 * The back office's orders (issue 12): All Orders and revenue per day, `PATCH
 * /api/transfer-orders/{id}/status` and `POST /api/admin/orders/{id}/refund`. Admins only, through the gateway.
 */
export function adminOrderRoutes(ctx: OrdersContext & { timeZone: string }): Router {
  const router = Router();

  router.get('/api/admin/orders', requireAdminIdentity, async (req, res) => {
    const { page, ...filter } = parseInput(allOrdersQuery, req.query);
    const answer: AllOrdersAnswer = await listAllOrders(ctx.pool, { ...filter, timeZone: ctx.timeZone, limit: ADMIN_PAGE_SIZE, offset: (page - 1) * ADMIN_PAGE_SIZE });
    res.setHeader('cache-control', 'no-store');
    res.json(answer);
  });

  // All Orders under the same filters, as a file (issue 22): every matching order, not one page.
  router.get('/api/admin/orders.csv', requireAdminIdentity, async (req, res) => {
    const { page: _page, ...filter } = parseInput(allOrdersQuery, req.query);
    const { orders } = await listAllOrders(ctx.pool, { ...filter, timeZone: ctx.timeZone, limit: ADMIN_EXPORT_MAX_ROWS, offset: 0 });
    const zone = ctx.timeZone;
    const at = (iso: string | null) => (iso ? businessDateTime(new Date(iso), zone) : '');
    const dollars = (cents: number) => (cents / 100).toFixed(2);
    const csv = toCsv(
      ['Order ID', `Created (${zone})`, `Paid (${zone})`, 'Product', 'Buyer', 'Buyer e-mail', 'Description', 'Amount (USD)', 'Refunded (USD)', 'Status', 'Disputed'],
      orders.map((o) => [o.id, at(o.createdAt), at(o.paidAt), o.product, o.buyerName, o.buyerEmail, o.description, dollars(o.amountCents), dollars(o.refundedCents), o.status, o.disputed ? 'yes' : 'no']),
    );
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="warmline-orders-${businessDate(new Date(), zone)}.csv"`);
    res.setHeader('Cache-Control', 'private, no-store');
    res.send(csv);
  });

  router.get('/api/admin/revenue', requireAdminIdentity, async (req, res) => {
    const days = Number(parseInput(revenueQuery, req.query).days);
    const series = await revenuePerDay(ctx.pool, days, ctx.timeZone);
    const answer: RevenueAnswer = { from: series[0]?.date ?? '', to: series.at(-1)?.date ?? '', days: series };
    res.setHeader('cache-control', 'no-store');
    res.json(answer);
  });

  router.patch('/api/transfer-orders/:id/status', requireAdminIdentity, async (req, res) => {
    const orderId = orderIdOf(req, 'Transfer order not found');
    const change = parseInput(transferStatusChangeBody, req.body);
    res.json(await changeTransferOrderStatus(ctx, { orderId, change, actor: actorOf(req), correlationId: req.id }));
  });

  router.post('/api/admin/orders/:id/refund', requireAdminIdentity, async (req, res) => {
    const orderId = orderIdOf(req, 'Order not found');
    const { amountCents, reason } = parseInput(adminRefundBody, req.body);
    // One refund per request the browser makes: its Idempotency-Key header, else this request's id.
    const key = req.header('idempotency-key');
    const result = await refundOrder(ctx, {
      orderId,
      ...(amountCents !== undefined ? { amountCents } : {}),
      reason,
      initiatedBy: 'admin',
      actor: actorOf(req),
      idempotencyKey: key && /^[\w.:-]{8,100}$/.test(key) ? `admin:${key}` : `admin:${req.id}`,
      correlationId: req.id,
    });
    const answer: RefundAnswer = { orderId: result.orderId, refundedCents: result.refundedCents, refundedTotalCents: result.refundedTotalCents };
    res.status(result.replayed ? 200 : 201).json(answer);
  });

  return router;
}
