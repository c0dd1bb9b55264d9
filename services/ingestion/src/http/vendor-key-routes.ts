import type { Router } from 'express';
import { forwardedAsker } from '@warmline/platform/http/identity';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import type { IngestionContext } from '../domain/context';
import { createVendorKey, listVendorKeys, revokeVendorKey } from '../domain/vendor-keys';

/** The admins' vendor keys (issue 15), mounted from the route manifest: admins only, checked here again. */
export function vendorKeyRoutes(ctx: IngestionContext): Router {
  return manifestRoutes('ingestion', forwardedAsker)
    .on('POST /api/admin/vendor-keys', async ({ caller, body, res, correlationId }) => {
      const created = await createVendorKey(ctx, caller, body.name, correlationId);
      // The only time the key is shown: never kept by any cache.
      res.setHeader('Cache-Control', 'no-store');
      res.status(201);
      return created;
    })
    .on('GET /api/admin/vendor-keys', async ({ res }) => {
      res.setHeader('Cache-Control', 'private, no-store');
      return listVendorKeys(ctx);
    })
    .on('DELETE /api/admin/vendor-keys/{id}', async ({ caller, params, res, correlationId }) => {
      await revokeVendorKey(ctx, caller, params.id, correlationId);
      res.status(204).end();
    }).router;
}
