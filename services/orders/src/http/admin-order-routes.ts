import type { Router } from 'express';
import { forwardedAsker } from '@warmline/platform/http/identity';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import { ADMIN_EXPORT_MAX_ROWS, ADMIN_PAGE_SIZE, businessDate, businessDateTime, type AllOrdersAnswer, type RefundAnswer, type RevenueAnswer } from '@warmline/contracts';
import { toCsv } from '@warmline/platform/csv';
import { listAllOrders, revenuePerDay } from '../db/read-models/all-orders';
import type { OrdersContext } from '../domain/context';
import { refundOrder } from '../domain/refunds';
import { changeTransferOrderStatus } from '../domain/transfer-status';

/**
 * The back office's orders (issue 12): All Orders and revenue per day, `PATCH
 * /api/transfer-orders/{id}/status` and `POST /api/admin/orders/{id}/refund`. Admins only, through
 * the gateway; the route manifest says so and the kit checks it here again.
 */
export function adminOrderRoutes(ctx: OrdersContext & { timeZone: string }): Router {
  return (
    manifestRoutes('orders', forwardedAsker)
      .on('GET /api/admin/orders', async ({ query, res }) => {
        const { page, ...filter } = query;
        const answer: AllOrdersAnswer = await listAllOrders(ctx.pool, { ...filter, timeZone: ctx.timeZone, limit: ADMIN_PAGE_SIZE, offset: (page - 1) * ADMIN_PAGE_SIZE });
        res.setHeader('cache-control', 'no-store');
        return answer;
      })
      // All Orders under the same filters, as a file (issue 22): every matching order, not one page.
      .on('GET /api/admin/orders.csv', async ({ query, res }) => {
        const { page: _page, ...filter } = query;
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
      })
      .on('GET /api/admin/revenue', async ({ query, res }) => {
        const series = await revenuePerDay(ctx.pool, Number(query.days), ctx.timeZone);
        const answer: RevenueAnswer = { from: series[0]?.date ?? '', to: series.at(-1)?.date ?? '', days: series };
        res.setHeader('cache-control', 'no-store');
        return answer;
      })
      .on('PATCH /api/transfer-orders/{id}/status', ({ caller, params, body, correlationId }) =>
        changeTransferOrderStatus(ctx, { orderId: params.id, change: body, actor: caller, correlationId }),
      )
      .on('POST /api/admin/orders/{id}/refund', async ({ caller, params, body, req, res, correlationId }) => {
        const { amountCents, reason } = body;
        // One refund per request the browser makes: its Idempotency-Key header, else this request's id.
        const key = req.header('idempotency-key');
        const result = await refundOrder(ctx, {
          orderId: params.id,
          ...(amountCents !== undefined ? { amountCents } : {}),
          reason,
          initiatedBy: 'admin',
          actor: caller,
          idempotencyKey: key && /^[\w.:-]{8,100}$/.test(key) ? `admin:${key}` : `admin:${correlationId}`,
          correlationId,
        });
        const answer: RefundAnswer = { orderId: result.orderId, refundedCents: result.refundedCents, refundedTotalCents: result.refundedTotalCents };
        res.status(result.replayed ? 200 : 201);
        return answer;
      }).router
  );
}
