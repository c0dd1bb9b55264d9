import { Router } from 'express';
import { requireUserIdentity } from '@warmline/platform/http/identity';
import { parseInput } from '@warmline/platform/validation';
import { myOrdersQuery } from '@warmline/contracts';
import type { OrdersContext } from '../domain/context';
import { ordersOfAgent } from '../domain/my-orders';

/** `GET /api/my-orders?page=` (issue 12): the logged-in agent's orders with their receipts, a page at a time. */
export function myOrdersRoutes(ctx: OrdersContext): Router {
  const router = Router();
  router.get('/api/my-orders', requireUserIdentity, async (req, res) => {
    const { page } = parseInput(myOrdersQuery, req.query);
    const answer = await ordersOfAgent(ctx, req.identity!, page);
    res.setHeader('cache-control', 'no-store');
    res.setHeader('x-total-count', String(answer.total));
    res.json(answer);
  });
  return router;
}
