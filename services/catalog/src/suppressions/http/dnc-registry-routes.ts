import { Router } from 'express';
import { dncRegistryChecksBody, type DncRegistryCheckAnswer } from '@warmline/contracts';
import { AppError, badRequest } from '@warmline/platform/errors';
import { acceptServiceCallers, forwardedAsker, requireUserIdentity } from '@warmline/platform/http/identity';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import { parseInput } from '@warmline/platform/validation';
import type { LeadImportContext } from '../../domain/context';
import { getRegistryUpload, listRegistryUploadsPage, newRegistryFile, startRegistryUpload } from '../domain/dnc-registry-uploads';
import { registryChecksOf } from '../db/read-models/registry-checks';
import { receiveFile } from '../../http/receive-file';

/**
 * The national DNC registry's routes (issue 24 item 2): the admin's uploads, mounted from the
 * route manifest, and the internal check the transfers service asks (it may not read the
 * catalog's tables), mounted by hand. The gateway's forwarding table has no /api/internal route:
 * only a service holding the identity secret reaches it.
 */

/** What a registry file may arrive as besides multipart/form-data (the admin's page sends that). */
const UPLOAD_TYPES = new Set(['text/plain', 'text/csv', 'application/octet-stream', 'multipart/form-data']);

export function dncRegistryRoutes(ctx: LeadImportContext): Router {
  const router = Router();
  router.use(
    manifestRoutes('catalog', forwardedAsker)
      // No body schema: the file streams from the request into the store.
      .on('POST /api/admin/dnc-registry', async ({ caller, query, req, res, correlationId }) => {
        const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        if (!type && !req.headers['content-length'] && !req.headers['transfer-encoding']) throw badRequest('No file was sent: send the registry file as the multipart field file');
        if (type && !UPLOAD_TYPES.has(type)) throw new AppError('UnsupportedMediaType', 'Send the registry file as multipart/form-data (field file) or as text/plain', 415);
        const file = newRegistryFile();
        const upload = await receiveFile(ctx, req, file);
        const started = await startRegistryUpload(ctx, caller, file, upload, query.fileName, correlationId);
        res.status(202);
        return started;
      })
      .on('GET /api/admin/dnc-registry', ({ query, res }) => {
        res.setHeader('cache-control', 'no-store');
        return listRegistryUploadsPage(ctx, query.page);
      })
      .on('GET /api/admin/dnc-registry/{id}', ({ params, res }) => {
        res.setHeader('cache-control', 'no-store');
        return getRegistryUpload(ctx, params.id);
      }).router,
  );

  router.post('/api/internal/dnc-registry/checks', acceptServiceCallers('transfers'), requireUserIdentity, async (req, res) => {
    const { phones } = parseInput(dncRegistryChecksBody, req.body);
    const checks = await registryChecksOf(ctx.pool, phones);
    const answer: DncRegistryCheckAnswer = { checks: Object.fromEntries(checks) };
    res.setHeader('cache-control', 'no-store');
    res.json(answer);
  });

  return router;
}
