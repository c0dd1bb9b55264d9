import type { Router } from 'express';
import { forwardedAsker } from '@warmline/platform/http/identity';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import type { CatalogContext } from '../../domain/context';
import { decideLeadReturn, listLeadReturns, returnLead } from '../domain/lead-returns';

/**
 * Lead returns (issue 24, ADR 0034): the buyer's return from My Leads and the admin's Returns
 * queue, mounted from the route manifest (the gateway lets only admins reach the admin routes;
 * the kit checks the role again). A lead id that is no UUID is no lead of theirs: 404, as for
 * another buyer's lead.
 */
export function leadReturnRoutes(ctx: CatalogContext): Router {
  return manifestRoutes('catalog', forwardedAsker)
    .on('POST /api/my-leads/{id}/return', async ({ caller, params, body, res, correlationId }) => {
      const created = await returnLead(ctx, caller, params.id, body, correlationId);
      res.status(201);
      return created;
    })
    .on('GET /api/admin/lead-returns', ({ query, res }) => {
      // Buyers' phone numbers: never kept by a shared cache.
      res.setHeader('Cache-Control', 'private, no-store');
      return listLeadReturns(ctx, query);
    })
    .on('POST /api/admin/lead-returns/{id}', ({ caller, params, body, correlationId }) => decideLeadReturn(ctx, caller, params.id, body, correlationId)).router;
}
