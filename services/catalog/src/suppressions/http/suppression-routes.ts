import type { Router } from 'express';
import { forwardedAsker } from '@warmline/platform/http/identity';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import type { CatalogContext } from '../../domain/context';
import { importSuppressions, listSuppressionPage, removeSuppression, suppressPhone } from '../domain/suppressions';

/**
 * The suppression list's admin routes (issue 13), mounted from the route manifest: the gateway
 * lets only admins through, and the kit checks the role again, as on every admin route.
 */
export function suppressionRoutes(ctx: CatalogContext): Router {
  return manifestRoutes('catalog', forwardedAsker)
    .on('GET /api/admin/suppressions', ({ query, res }) => {
      // Phone numbers: never kept by a shared cache.
      res.setHeader('Cache-Control', 'private, no-store');
      return listSuppressionPage(ctx, query);
    })
    .on('POST /api/admin/suppressions', async ({ caller, body, res, correlationId }) => {
      const created = await suppressPhone(ctx, caller, body, correlationId);
      res.status(201);
      return created;
    })
    .on('POST /api/admin/suppressions/import', ({ caller, body, correlationId }) => importSuppressions(ctx, caller, body, correlationId))
    .on('DELETE /api/admin/suppressions/{phone}', async ({ caller, params, res, correlationId }) => {
      await removeSuppression(ctx, caller, params.phone, correlationId);
      res.status(204).end();
    }).router;
}
