import { Router } from 'express';
import { requireUserIdentity } from '@warmline/platform/http/identity';
import type { MyOrdersAnswer } from '@warmline/contracts';
import type { OrdersContext } from '../domain/context';
import { ordersOfAgent } from '../domain/my-orders';

/** `GET /api/my-orders` (issue 12): the logged-in agent's orders with their receipts. */
export function myOrdersRoutes(ctx: OrdersContext): Router {
  const router = Router();
  router.get('/api/my-orders', requireUserIdentity, async (req, res) => {
    const answer: MyOrdersAnswer = { orders: await ordersOfAgent(ctx, req.identity!) };
    res.setHeader('cache-control', 'no-store');
    res.json(answer);
  });
  return router;
}
