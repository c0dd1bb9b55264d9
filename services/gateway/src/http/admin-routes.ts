import { Router } from 'express';
import { auditLogQuery, businessDate } from '@warmline/contracts';
import { notFound, parseInput, privateKeyOf } from '@warmline/platform';
import { findSurveyResponse } from '../db/read-models/survey-responses';
import { fetchOrderStats } from '../clients/order-stats-client';
import type { GatewayConfig } from '../config';
import { adminStats } from '../domain/admin-stats';
import { auditLogCsv, auditLogPage } from '../domain/audit-log';
import type { AccountsContext } from '../domain/context';
import { currentUser, requireAdmin } from '../edge/access';

/** The back office's own reads (issue 12): the admin cards and the audit log (the customer search: customer-search-routes.ts). Admins only. */
export function adminRoutes(ctx: AccountsContext, config: GatewayConfig): Router {
  const router = Router();
  const identityKey = privateKeyOf(config.IDENTITY_PRIVATE_KEY);
  router.use('/api/admin', requireAdmin);

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
            { ordersUrl: config.ORDERS_URL, identityKey, timeoutMs: config.ADMIN_STATS_TIMEOUT_MS },
            { userId: admin.id, username: admin.username, isAdmin: true },
            req.id,
          ),
      }),
    );
  });

  router.get('/api/admin/audit-log', async (req, res) => {
    const { page, ...filter } = parseInput(auditLogQuery, req.query);
    res.setHeader('cache-control', 'no-store');
    res.json(await auditLogPage(ctx.pool, page, filter, config.BUSINESS_TIMEZONE));
  });

  // The filtered log as a file (issue 22); the page number is ignored.
  router.get('/api/admin/audit-log.csv', async (req, res) => {
    const { page: _page, ...filter } = parseInput(auditLogQuery, req.query);
    const csv = await auditLogCsv(ctx.pool, filter, config.BUSINESS_TIMEZONE);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="warmline-audit-log-${businessDate(new Date(), config.BUSINESS_TIMEZONE)}.csv"`);
    res.setHeader('Cache-Control', 'private, no-store');
    res.send(csv);
  });

  // A survey response with every answer of both steps (issue 22: the customer search's popup).
  router.get('/api/admin/survey-responses/:id', async (req, res) => {
    const id = String(req.params.id);
    const response = UUID.test(id) ? await findSurveyResponse(ctx.pool, id.toLowerCase()) : null;
    if (!response) throw notFound(SURVEY_RESPONSE_NOT_FOUND);
    res.setHeader('cache-control', 'no-store');
    res.json(response);
  });

  return router;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SURVEY_RESPONSE_NOT_FOUND = 'Survey response not found';
