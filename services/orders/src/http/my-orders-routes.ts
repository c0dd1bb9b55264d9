import type { Router } from 'express';
import { forwardedAsker } from '@warmline/platform/http/identity';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import type { OrdersContext } from '../domain/context';
import { ordersOfAgent } from '../domain/my-orders';

/** `GET /api/my-orders?page=` (issue 12): the logged-in agent's orders with their receipts, a page at a time. */
export function myOrdersRoutes(ctx: OrdersContext): Router {
  return manifestRoutes('orders', forwardedAsker).on('GET /api/my-orders', async ({ caller, query, res }) => {
    const answer = await ordersOfAgent(ctx, caller, query.page);
    res.setHeader('cache-control', 'no-store');
    res.setHeader('x-total-count', String(answer.total));
    return answer;
  }).router;
}
