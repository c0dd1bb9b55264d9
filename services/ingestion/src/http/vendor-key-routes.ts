import { Router, type Request } from 'express';
import { z } from 'zod';
import { createVendorKeyBody } from '@warmline/contracts';
import { notFound, unauthorized } from '@warmline/platform/errors';
import { requireAdminIdentity } from '@warmline/platform/http/identity';
import { parseInput } from '@warmline/platform/validation';
import type { Admin } from '../domain/admin-actions';
import type { IngestionContext } from '../domain/context';
import { createVendorKey, listVendorKeys, revokeVendorKey, VENDOR_KEY_NOT_FOUND } from '../domain/vendor-keys';

/**
 * The admins' vendor keys (issue 15). The gateway lets only admins through; the role is checked
 * here again, as on every admin route.
 */
const keyId = z.uuid();

export function vendorKeyRoutes(ctx: IngestionContext): Router {
  const router = Router();
  router.use('/api/admin/vendor-keys', requireAdminIdentity);

  router.post('/api/admin/vendor-keys', async (req, res) => {
    const { name } = parseInput(createVendorKeyBody, req.body);
    const created = await createVendorKey(ctx, adminOf(req), name, req.id);
    // The only time the key is shown: never kept by any cache.
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json(created);
  });

  router.get('/api/admin/vendor-keys', async (_req, res) => {
    res.setHeader('Cache-Control', 'private, no-store');
    res.json(await listVendorKeys(ctx));
  });

  router.delete('/api/admin/vendor-keys/:id', async (req, res) => {
    const id = keyId.safeParse(req.params.id);
    // An id that is not a UUID names no key: 404, as an unknown one.
    if (!id.success) throw notFound(VENDOR_KEY_NOT_FOUND);
    await revokeVendorKey(ctx, adminOf(req), id.data, req.id);
    res.status(204).end();
  });

  return router;
}

function adminOf(req: Request): Admin {
  const identity = req.identity;
  if (!identity?.userId) throw unauthorized();
  return { userId: identity.userId, username: identity.username ?? identity.userId };
}
