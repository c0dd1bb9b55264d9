import type { Router } from 'express';
import { businessDate } from '@warmline/contracts';
import { notFound, privateKeyOf } from '@warmline/platform';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import { findSurveyResponse } from '../db/read-models/survey-responses';
import { fetchOrderStats } from '../clients/order-stats-client';
import type { GatewayConfig } from '../config';
import { adminStats } from '../domain/admin-stats';
import { auditLogCsv, auditLogPage } from '../domain/audit-log';
import type { AccountsContext } from '../domain/context';
import { sessionAsker } from '../edge/access';

/** The route manifest's notFound of GET /api/admin/survey-responses/{id} says the same. */
const SURVEY_RESPONSE_NOT_FOUND = 'Survey response not found';

/** The back office's own reads (issue 12): the admin cards and the audit log (the customer search: customer-search-routes.ts). Admins only. */
export function adminRoutes(ctx: AccountsContext, config: GatewayConfig): Router {
  const identityKey = privateKeyOf(config.IDENTITY_PRIVATE_KEY);
  return (
    manifestRoutes('gateway', sessionAsker)
      .on('GET /api/admin/stats', async ({ caller, res, correlationId }) => {
        res.setHeader('cache-control', 'no-store');
        return adminStats({
          pool: ctx.pool,
          log: ctx.log,
          timeZone: config.BUSINESS_TIMEZONE,
          orderStats: () =>
            fetchOrderStats(
              { ordersUrl: config.ORDERS_URL, identityKey, timeoutMs: config.ADMIN_STATS_TIMEOUT_MS },
              { userId: caller.userId, username: caller.username, isAdmin: true },
              correlationId,
            ),
        });
      })
      .on('GET /api/admin/audit-log', async ({ query, res }) => {
        const { page, ...filter } = query;
        res.setHeader('cache-control', 'no-store');
        return auditLogPage(ctx.pool, page, filter, config.BUSINESS_TIMEZONE);
      })
      // The filtered log as a file (issue 22); the page number is ignored.
      .on('GET /api/admin/audit-log.csv', async ({ query, res }) => {
        const { page: _page, ...filter } = query;
        const csv = await auditLogCsv(ctx.pool, filter, config.BUSINESS_TIMEZONE);
        res.setHeader('Content-Type', 'text/csv; charset=utf-8');
        res.setHeader('Content-Disposition', `attachment; filename="warmline-audit-log-${businessDate(new Date(), config.BUSINESS_TIMEZONE)}.csv"`);
        res.setHeader('Cache-Control', 'private, no-store');
        res.send(csv);
      })
      // A survey response with every answer of both steps (issue 22: the customer search's popup).
      .on('GET /api/admin/survey-responses/{id}', async ({ params, res }) => {
        const response = await findSurveyResponse(ctx.pool, params.id);
        if (!response) throw notFound(SURVEY_RESPONSE_NOT_FOUND);
        res.setHeader('cache-control', 'no-store');
        return response;
      }).router
  );
}
