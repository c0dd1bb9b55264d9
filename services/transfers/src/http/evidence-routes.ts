import type { Response, Router } from 'express';
import { evidencePackDownload, type EvidenceFormat, type EvidencePack } from '@warmline/contracts';
import { sendDocumentDownload } from '@warmline/platform/documents/download';
import { forwardedAsker } from '@warmline/platform/http/identity';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import type { TransfersContext } from '../domain/context';
import { transferEvidencePack } from '../domain/evidence-pack';

/**
 * A transfer's consent evidence pack (issue 24 §4): the agent's own, and an admin's of any.
 * A malformed id is 404 (the route kit), as on this service's other transfer routes.
 */
export function transferEvidenceRoutes(ctx: TransfersContext): Router {
  return manifestRoutes('transfers', forwardedAsker)
    .on('GET /api/my-transfers/{id}/evidence', async ({ caller, params, query, req, res, correlationId }) => {
      await send(res, req.header('accept'), query.format, await transferEvidencePack(ctx, params.id, { holder: caller.userId, asking: caller }, correlationId));
    })
    .on('GET /api/admin/transfers/{id}/evidence', async ({ caller, params, query, req, res, correlationId }) => {
      await send(res, req.header('accept'), query.format, await transferEvidencePack(ctx, params.id, { holder: null, asking: { ...caller, isAdmin: true } }, correlationId));
    }).router;
}

async function send(res: Response, accept: string | undefined, format: EvidenceFormat | undefined, pack: EvidencePack): Promise<void> {
  await sendDocumentDownload(res, evidencePackDownload(pack, format, accept));
}
