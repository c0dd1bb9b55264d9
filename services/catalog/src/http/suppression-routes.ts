import { Router, type Request } from 'express';
import { suppressionBody, suppressionImportBody, suppressionListQuery } from '@warmline/contracts';
import { unauthorized } from '@warmline/platform/errors';
import { requireAdminIdentity } from '@warmline/platform/http/identity';
import { parseInput } from '@warmline/platform/validation';
import type { CatalogContext } from '../domain/context';
import { importSuppressions, listSuppressionPage, removeSuppression, suppressPhone, type Admin } from '../domain/suppressions';

/**
 * The suppression list's admin routes (issue 13). The gateway lets only admins through; the
 * role is checked here again, as on every admin route.
 */
export function suppressionRoutes(ctx: CatalogContext): Router {
  const router = Router();
  router.use('/api/admin/suppressions', requireAdminIdentity);

  router.get('/api/admin/suppressions', async (req, res) => {
    const query = parseInput(suppressionListQuery, req.query);
    // Phone numbers: never kept by a shared cache.
    res.setHeader('Cache-Control', 'private, no-store');
    res.json(await listSuppressionPage(ctx, query));
  });

  router.post('/api/admin/suppressions', async (req, res) => {
    const body = parseInput(suppressionBody, req.body);
    res.status(201).json(await suppressPhone(ctx, adminOf(req), body, req.id));
  });

  router.post('/api/admin/suppressions/import', async (req, res) => {
    const body = parseInput(suppressionImportBody, req.body);
    res.json(await importSuppressions(ctx, adminOf(req), body, req.id));
  });

  router.delete('/api/admin/suppressions/:phone', async (req, res) => {
    await removeSuppression(ctx, adminOf(req), String(req.params.phone), req.id);
    res.status(204).end();
  });

  return router;
}

function adminOf(req: Request): Admin {
  const identity = req.identity;
  if (!identity?.userId) throw unauthorized();
  return { userId: identity.userId, username: identity.username ?? identity.userId };
}
