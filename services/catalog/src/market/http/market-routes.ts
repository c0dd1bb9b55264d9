import type { Router } from 'express';
import { forwardedAsker } from '@warmline/platform/http/identity';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import type { CatalogContext } from '../../domain/context';
import { availableLeads, listMarketLeads, matchingLeads } from '../domain/market';
import { exportMyLeadsCsv, listMyLeads } from '../domain/my-leads';
import { cancelPurchase, purchaseLeads, purchaseStatus, resumePurchase, unpaidPurchases } from '../domain/purchase';

/**
 * The aged-lead market's API, reached through the gateway with a signed identity and mounted
 * from the route manifest (who may call, ids, bodies and queries are checked there). Every route
 * is for logged-in users only; My Leads answers only the caller's own leads.
 */
export function catalogRoutes(ctx: CatalogContext): Router {
  return manifestRoutes('catalog', forwardedAsker)
    .on('GET /api/aged-leads', ({ caller, query }) => listMarketLeads(ctx, caller.userId, query))
    // The cart's questions (issue 17): both read only, so a view-as tab may ask them too.
    .on('GET /api/aged-leads/matching', ({ caller, query }) => matchingLeads(ctx, caller.userId, query.filter, query.hideDncMatches))
    .on('GET /api/aged-leads/available', ({ caller, query }) => availableLeads(ctx, caller.userId, query.ids))
    .on('POST /api/bulk-purchase-leads', async ({ caller, body, res, correlationId }) => {
      const purchase = await purchaseLeads(ctx, caller, body.leadIds, correlationId);
      // The same leads again resume the unpaid purchase (issue 22): 200, nothing new was made.
      res.status(purchase.resumed ? 200 : 201);
      return purchase;
    })
    // My Orders' unpaid purchases, with Pay (resume) and Cancel (issue 22).
    .on('GET /api/bulk-purchase-leads', ({ caller, res }) => {
      res.setHeader('Cache-Control', 'private, no-store');
      return unpaidPurchases(ctx, caller.userId);
    })
    .on('GET /api/bulk-purchase-leads/{orderId}', ({ caller, params }) => purchaseStatus(ctx, caller.userId, params.orderId))
    .on('POST /api/bulk-purchase-leads/{orderId}/resume', ({ caller, params, correlationId }) => resumePurchase(ctx, caller, params.orderId, correlationId))
    .on('POST /api/bulk-purchase-leads/{orderId}/cancel', ({ caller, params, correlationId }) => cancelPurchase(ctx, caller, params.orderId, correlationId))
    .on('GET /api/my-leads', ({ caller, query }) => listMyLeads(ctx, caller.userId, query))
    .on('GET /api/my-leads/export.csv', async ({ caller, query, res }) => {
      const csv = await exportMyLeadsCsv(ctx, caller.userId, query.filter);
      const day = ctx.clock().toISOString().slice(0, 10);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="warmline-my-leads-${day}.csv"`);
      // Contact details: never kept by a shared cache.
      res.setHeader('Cache-Control', 'private, no-store');
      res.send(csv);
    }).router;
}
