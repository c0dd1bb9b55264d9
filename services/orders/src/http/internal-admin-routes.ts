import { Router } from 'express';
import type { OrderStats } from '@warmline/contracts';
import { requireAdminIdentity, requireForwardedIdentity, type IdentityCheck } from '@warmline/platform/http/identity';
import { orderStats } from '../db/read-models/order-stats';
import type { OrdersContext } from '../domain/context';

/**
 * `GET /internal/admin-stats`: the gateway's admin cards ask for revenue this month and open
 * transfer orders, signed with the admin's identity. Not public (no /api route forwards here).
 */
export function internalAdminRoutes(ctx: OrdersContext & { timeZone: string; identity: IdentityCheck }): Router {
  const router = Router();
  router.get('/internal/admin-stats', requireForwardedIdentity(ctx.identity), requireAdminIdentity, async (_req, res) => {
    const answer: OrderStats = await orderStats(ctx.pool, ctx.timeZone);
    res.setHeader('cache-control', 'no-store');
    res.json(answer);
  });
  return router;
}
