import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { EVIDENCE_NOT_FOUND_MESSAGE, evidencePackDownload, evidencePackQuery, type EvidencePack } from '@warmline/contracts';
import { sendDocumentDownload } from '@warmline/platform/documents/download';
import { notFound, unauthorized } from '@warmline/platform/errors';
import { requireAdminIdentity, requireUserIdentity } from '@warmline/platform/http/identity';
import { type Identity } from '@warmline/platform/identity';
import { parseInput } from '@warmline/platform/validation';
import type { TransfersContext } from '../domain/context';
import { transferEvidencePack } from '../domain/evidence-pack';

const transferId = z.uuid();

/**
 * A transfer's consent evidence pack (issue 24 §4): the agent's own, and an admin's of any.
 * A malformed id is 404, as on this service's other transfer routes.
 */
export function transferEvidenceRoutes(ctx: TransfersContext): Router {
  const router = Router();
  router.use('/api/my-transfers/:id/evidence', requireUserIdentity);
  router.use('/api/admin/transfers/:id/evidence', requireAdminIdentity);

  router.get('/api/my-transfers/:id/evidence', async (req, res) => {
    const caller = callerOf(req);
    await send(req, res, await transferEvidencePack(ctx, idOf(req), { holder: caller.userId, asking: caller }, req.id));
  });

  router.get('/api/admin/transfers/:id/evidence', async (req, res) => {
    await send(req, res, await transferEvidencePack(ctx, idOf(req), { holder: null, asking: callerOf(req) }, req.id));
  });

  return router;
}

async function send(req: Request, res: Response, pack: EvidencePack): Promise<void> {
  const { format } = parseInput(evidencePackQuery, req.query);
  await sendDocumentDownload(res, evidencePackDownload(pack, format, req.header('accept')));
}

function idOf(req: Request): string {
  const id = transferId.safeParse(req.params.id);
  if (!id.success) throw notFound(EVIDENCE_NOT_FOUND_MESSAGE.transfer);
  return id.data.toLowerCase();
}

function callerOf(req: Request): Identity & { userId: string } {
  const identity = req.identity;
  if (!identity?.userId) throw unauthorized();
  return { ...identity, userId: identity.userId };
}
