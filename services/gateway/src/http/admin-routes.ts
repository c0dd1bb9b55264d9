import { Router } from 'express';
import { auditLogQuery, customerSearchQuery } from '@warmline/contracts';
import { parseInput } from '@warmline/platform';
import { fetchOrderStats } from '../clients/order-stats-client';
import { internalSearchSource } from '../clients/search-client';
import { accountsSource, searchCustomers } from '../domain/customer-search';
import type { GatewayConfig } from '../config';
import { adminStats } from '../domain/admin-stats';
import { auditLogPage } from '../domain/audit-log';
import type { AccountsContext } from '../domain/context';
import { currentUser, requireAdmin } from '../edge/access';

/** The back office's own reads (issue 12): the customer search, the admin cards and the audit log. Admins only. */
export function adminRoutes(ctx: AccountsContext, config: GatewayConfig): Router {
  const router = Router();
  router.use('/api/admin', requireAdmin);
  router.use('/api/search-customers', requireAdmin);

  router.get('/api/search-customers', async (req, res) => {
    const { q } = parseInput(customerSearchQuery, req.query);
    const admin = currentUser(req);
    const identity = { userId: admin.id, username: admin.username, isAdmin: true };
    const { results, partial } = await searchCustomers(
      {
        sources: [
          accountsSource(ctx.pool),
          internalSearchSource({ name: 'orders', baseUrl: config.ORDERS_URL, identitySecret: config.IDENTITY_SECRET, admin: identity, correlationId: req.id }),
        ],
        timeoutMs: config.SEARCH_SOURCE_TIMEOUT_MS,
        log: ctx.log,
      },
      q,
    );
    // Still the spec's array; which sources are missing from it, for the screen to say so.
    if (partial.length) res.setHeader('x-search-partial', partial.join(', '));
    res.setHeader('cache-control', 'no-store');
    res.json(results);
  });

  router.get('/api/admin/stats', async (req, res) => {
    const admin = currentUser(req);
    res.setHeader('cache-control', 'no-store');
    res.json(
      await adminStats({
        pool: ctx.pool,
        log: ctx.log,
        timeZone: config.BUSINESS_TIMEZONE,
        orderStats: () =>
          fetchOrderStats(
            { ordersUrl: config.ORDERS_URL, identitySecret: config.IDENTITY_SECRET, timeoutMs: config.ADMIN_STATS_TIMEOUT_MS },
            { userId: admin.id, username: admin.username, isAdmin: true },
            req.id,
          ),
      }),
    );
  });

  router.get('/api/admin/audit-log', async (req, res) => {
    const { page } = parseInput(auditLogQuery, req.query);
    res.setHeader('cache-control', 'no-store');
    res.json(await auditLogPage(ctx.pool, page));
  });

  return router;
}
