import type { Request, Response, Router } from 'express';
import { evidencePackDownload, type EvidenceFormat, type EvidencePack } from '@warmline/contracts';
import { sendDocumentDownload } from '@warmline/platform/documents/download';
import { forwardedAsker } from '@warmline/platform/http/identity';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import type { CallbackContext } from '../../callbacks/domain/callbacks';
import { callbackEvidencePack, leadEvidencePack } from '../domain/evidence-pack';

/**
 * The consent evidence pack (issue 24 §4) of a lead or call-back: the agent's own, and an
 * admin's of any sale, mounted from the route manifest. An id that names nothing — malformed,
 * unknown, or another agent's — is 404 with the resource's words.
 */
export function evidenceRoutes(ctx: CallbackContext): Router {
  return manifestRoutes('catalog', forwardedAsker)
    .on('GET /api/my-leads/{id}/evidence', async ({ caller, params, query, req, res, correlationId }) => {
      await sendPack(req, res, query.format, await leadEvidencePack(ctx, params.id, caller.userId, correlationId));
    })
    .on('GET /api/my-callbacks/{id}/evidence', async ({ caller, params, query, req, res, correlationId }) => {
      await sendPack(req, res, query.format, await callbackEvidencePack(ctx, params.id, caller.userId, correlationId));
    })
    .on('GET /api/admin/leads/{id}/evidence', async ({ params, query, req, res, correlationId }) => {
      await sendPack(req, res, query.format, await leadEvidencePack(ctx, params.id, null, correlationId));
    })
    .on('GET /api/admin/callback-opportunities/{id}/evidence', async ({ params, query, req, res, correlationId }) => {
      await sendPack(req, res, query.format, await callbackEvidencePack(ctx, params.id, null, correlationId));
    }).router;
}

async function sendPack(req: Request, res: Response, format: EvidenceFormat | undefined, pack: EvidencePack): Promise<void> {
  await sendDocumentDownload(res, evidencePackDownload(pack, format, req.header('accept')));
}
