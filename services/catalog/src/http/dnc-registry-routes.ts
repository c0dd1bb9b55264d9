import { Router, type Request } from 'express';
import { z } from 'zod';
import { dncRegistryChecksBody, dncRegistryListQuery, dncRegistryUploadQuery, type DncRegistryCheckAnswer } from '@warmline/contracts';
import { AppError, badRequest, unauthorized } from '@warmline/platform/errors';
import { acceptServiceCallers, requireAdminIdentity, requireUserIdentity } from '@warmline/platform/http/identity';
import { parseInput } from '@warmline/platform/validation';
import type { LeadImportContext } from '../domain/context';
import type { Admin } from '../domain/admin-actions';
import { getRegistryUpload, listRegistryUploadsPage, newRegistryFile, startRegistryUpload } from '../domain/dnc-registry-uploads';
import { registryChecksOf } from '../db/read-models/registry-checks';
import { receiveFile } from './receive-file';

/**
 * The national DNC registry's routes (issue 24 item 2): the admin's uploads, and the internal
 * check the transfers service asks (it may not read the catalog's tables). The gateway's
 * forwarding table has no /api/internal route: only a service holding the identity secret reaches it.
 */
const uploadId = z.uuid({ error: 'Upload id must be a UUID' });

/** What a registry file may arrive as besides multipart/form-data (the admin's page sends that). */
const UPLOAD_TYPES = new Set(['text/plain', 'text/csv', 'application/octet-stream', 'multipart/form-data']);

export function dncRegistryRoutes(ctx: LeadImportContext): Router {
  const router = Router();
  router.use('/api/admin/dnc-registry', requireAdminIdentity);

  router.post('/api/admin/dnc-registry', async (req, res) => {
    const { fileName } = parseInput(dncRegistryUploadQuery, req.query);
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!type && !req.headers['content-length'] && !req.headers['transfer-encoding']) throw badRequest('No file was sent: send the registry file as the multipart field file');
    if (type && !UPLOAD_TYPES.has(type)) throw new AppError('UnsupportedMediaType', 'Send the registry file as multipart/form-data (field file) or as text/plain', 415);
    const file = newRegistryFile();
    const upload = await receiveFile(ctx, req, file);
    res.status(202).json(await startRegistryUpload(ctx, adminOf(req), file, upload, fileName, req.id));
  });

  router.get('/api/admin/dnc-registry', async (req, res) => {
    const { page } = parseInput(dncRegistryListQuery, req.query);
    res.setHeader('cache-control', 'no-store');
    res.json(await listRegistryUploadsPage(ctx, page));
  });

  router.get('/api/admin/dnc-registry/:id', async (req, res) => {
    const id = uploadId.safeParse(req.params.id);
    if (!id.success) throw badRequest('Upload id must be a UUID');
    res.setHeader('cache-control', 'no-store');
    res.json(await getRegistryUpload(ctx, id.data.toLowerCase()));
  });

  router.post('/api/internal/dnc-registry/checks', acceptServiceCallers('transfers'), requireUserIdentity, async (req, res) => {
    const { phones } = parseInput(dncRegistryChecksBody, req.body);
    const checks = await registryChecksOf(ctx.pool, phones);
    const answer: DncRegistryCheckAnswer = { checks: Object.fromEntries(checks) };
    res.setHeader('cache-control', 'no-store');
    res.json(answer);
  });

  return router;
}

function adminOf(req: Request): Admin {
  const identity = req.identity;
  if (!identity?.userId) throw unauthorized();
  return { userId: identity.userId, username: identity.username ?? identity.userId };
}
