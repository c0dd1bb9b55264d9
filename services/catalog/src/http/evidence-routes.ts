import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import {
  EVIDENCE_NOT_FOUND_MESSAGE,
  evidencePackDownload,
  evidencePackQuery,
  type EvidencePack,
} from '@warmline/contracts';
import { badRequest, notFound, unauthorized } from '@warmline/platform/errors';
import { sendDocumentDownload } from '@warmline/platform/documents/download';
import { requireAdminIdentity, requireUserIdentity } from '@warmline/platform/http/identity';
import { parseInput } from '@warmline/platform/validation';
import type { CallbackContext } from '../domain/callbacks';
import { callbackEvidencePack, leadEvidencePack } from '../domain/evidence-pack';

const uuid = z.uuid();

/**
 * The consent evidence pack (issue 24 §4) of a lead or call-back: the agent's own (anything
 * else is 404, a malformed id included, as on My Call-backs' other routes), and an admin's of
 * any sale (a malformed id is 400, as on the admin's other catalog routes).
 */
export function evidenceRoutes(ctx: CallbackContext): Router {
  const router = Router();
  router.use(['/api/my-leads/:id/evidence', '/api/my-callbacks/:id/evidence'], requireUserIdentity);
  router.use(['/api/admin/leads/:id/evidence', '/api/admin/callback-opportunities/:id/evidence'], requireAdminIdentity);

  router.get('/api/my-leads/:id/evidence', async (req, res) => {
    const id = ownIdOf(req, EVIDENCE_NOT_FOUND_MESSAGE.lead);
    await sendPack(req, res, await leadEvidencePack(ctx, id, callerOf(req), req.id));
  });

  router.get('/api/my-callbacks/:id/evidence', async (req, res) => {
    const id = ownIdOf(req, EVIDENCE_NOT_FOUND_MESSAGE.callback);
    await sendPack(req, res, await callbackEvidencePack(ctx, id, callerOf(req), req.id));
  });

  router.get('/api/admin/leads/:id/evidence', async (req, res) => {
    callerOf(req);
    await sendPack(req, res, await leadEvidencePack(ctx, adminIdOf(req, 'Lead id must be a UUID'), null, req.id));
  });

  router.get('/api/admin/callback-opportunities/:id/evidence', async (req, res) => {
    callerOf(req);
    await sendPack(req, res, await callbackEvidencePack(ctx, adminIdOf(req, 'Callback opportunity id must be a UUID'), null, req.id));
  });

  return router;
}

async function sendPack(req: Request, res: Response, pack: EvidencePack): Promise<void> {
  const { format } = parseInput(evidencePackQuery, req.query);
  await sendDocumentDownload(res, evidencePackDownload(pack, format, req.header('accept')));
}

function ownIdOf(req: Request, message: string): string {
  const id = uuid.safeParse(req.params.id);
  if (!id.success) throw notFound(message);
  return id.data.toLowerCase();
}

function adminIdOf(req: Request, message: string): string {
  const id = uuid.safeParse(req.params.id);
  if (!id.success) throw badRequest(message);
  return id.data.toLowerCase();
}

function callerOf(req: Request): string {
  const identity = req.identity;
  if (!identity?.userId) throw unauthorized();
  return identity.userId;
}
