import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Router } from 'express';
import { notFound } from '@warmline/platform/errors';
import { forwardedAsker } from '@warmline/platform/http/identity';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import {
  changeApplicationStatus,
  deleteApplication,
  listApplicationPage,
  openDocument,
  submitApplication,
  DOCUMENT_NOT_FOUND,
} from '../domain/applications';
import type { PartnersContext } from '../domain/context';
import { attachmentDisposition } from '../domain/documents';
import { receiveApplication } from './receive-application';

/**
 * The partner network's routes (issue 14): the public application form (anonymous, forwarded
 * by the gateway with a signed identity) and the admins' routes, mounted from the route manifest
 * (who may call, ids, bodies and queries are checked there, on every admin route again).
 */
/** What a stored name looks like ('doc-1.pdf'); anything else is not a document of ours. */
const storedName = /^doc-[1-5]\.[a-z]{3,4}$/;

export function partnersRoutes(ctx: PartnersContext): Router {
  return manifestRoutes('partners', forwardedAsker)
    .on('POST /api/affnetwork-signup', async ({ caller, req, res, correlationId }) => {
      const id = randomUUID();
      const received = await receiveApplication(req, ctx, id);
      res.status(201);
      return submitApplication(ctx, { id, ...received, applicantIp: caller.clientIp ?? null }, correlationId);
    })
    .on('GET /api/affnetwork-signups', async ({ query, res }) => {
      const { applications, total } = await listApplicationPage(ctx, query);
      // Applicants' contact details: never kept by a shared cache.
      res.setHeader('Cache-Control', 'private, no-store');
      res.setHeader('X-Total-Count', String(total));
      return applications;
    })
    .on('PATCH /api/affnetwork-signups/{id}/status', async ({ caller, params, body, res, correlationId }) => {
      res.setHeader('Cache-Control', 'private, no-store');
      return changeApplicationStatus(ctx, caller, params.id, body.status, correlationId, body.note);
    })
    .on('DELETE /api/affnetwork-signups/{id}', async ({ caller, params, res, correlationId }) => {
      await deleteApplication(ctx, caller, params.id, correlationId);
      res.status(204).end();
    })
    .on('GET /api/affnetwork-signups/{id}/documents/{filename}', async ({ params, req, res }) => {
      const { id, filename } = params;
      if (!storedName.test(filename)) throw notFound(DOCUMENT_NOT_FOUND);
      const { document, body } = await openDocument(ctx, id, filename);
      // Always a download, in the type its bytes were detected as: never rendered in our origin.
      res.setHeader('Content-Type', document.contentType);
      res.setHeader('Content-Length', String(document.size));
      res.setHeader('Content-Disposition', attachmentDisposition(document.originalName));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Cache-Control', 'private, no-store');
      res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
      try {
        await pipeline(body, res);
      } catch (err) {
        // The admin went away mid-download, or the store failed after the headers went out.
        req.log.warn({ err, applicationId: id, filename }, 'a partner document download ended early');
      }
    }).router;
}
