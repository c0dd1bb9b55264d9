import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Router, type Request } from 'express';
import { z } from 'zod';
import { partnerApplicationListQuery, partnerStatusBody } from '@warmline/contracts';
import { notFound, unauthorized } from '@warmline/platform/errors';
import { requireAdminIdentity } from '@warmline/platform/http/identity';
import { parseInput } from '@warmline/platform/validation';
import {
  changeApplicationStatus,
  deleteApplication,
  listApplicationPage,
  openDocument,
  submitApplication,
  APPLICATION_NOT_FOUND,
  DOCUMENT_NOT_FOUND,
  type Admin,
} from '../domain/applications';
import type { PartnersContext } from '../domain/context';
import { attachmentDisposition } from '../domain/documents';
import { receiveApplication } from './receive-application';

/**
 * The partner network's routes (issue 14): the public application form (anonymous, forwarded
 * by the gateway with a signed identity) and the admins' routes. The gateway lets only admins
 * through to those; the role is checked here again, as on every admin route.
 */
const applicationId = z.uuid();
/** What a stored name looks like ('doc-1.pdf'); anything else is not a document of ours. */
const storedName = /^doc-[1-5]\.[a-z]{3,4}$/;

export function partnersRoutes(ctx: PartnersContext): Router {
  const router = Router();

  router.post('/api/affnetwork-signup', async (req, res) => {
    const id = randomUUID();
    const received = await receiveApplication(req, ctx, id);
    const created = await submitApplication(ctx, { id, ...received, applicantIp: req.identity?.clientIp ?? null }, req.id);
    res.status(201).json(created);
  });

  router.use('/api/affnetwork-signups', requireAdminIdentity);

  router.get('/api/affnetwork-signups', async (req, res) => {
    const query = parseInput(partnerApplicationListQuery, req.query);
    const { applications, total } = await listApplicationPage(ctx, query);
    // Applicants' contact details: never kept by a shared cache.
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('X-Total-Count', String(total));
    res.json(applications);
  });

  router.patch('/api/affnetwork-signups/:id/status', async (req, res) => {
    const id = idOf(req, APPLICATION_NOT_FOUND);
    const { status, note } = parseInput(partnerStatusBody, req.body);
    res.setHeader('Cache-Control', 'private, no-store');
    res.json(await changeApplicationStatus(ctx, adminOf(req), id, status, req.id, note));
  });

  router.delete('/api/affnetwork-signups/:id', async (req, res) => {
    await deleteApplication(ctx, adminOf(req), idOf(req, APPLICATION_NOT_FOUND), req.id);
    res.status(204).end();
  });

  router.get('/api/affnetwork-signups/:id/documents/:filename', async (req, res) => {
    const id = idOf(req, DOCUMENT_NOT_FOUND);
    const filename = String(req.params.filename);
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
  });

  return router;
}

/** An id that is not a UUID names no application: 404, as an unknown one. */
function idOf(req: Request, message: string): string {
  const parsed = applicationId.safeParse(req.params.id);
  if (!parsed.success) throw notFound(message);
  return parsed.data;
}

function adminOf(req: Request): Admin {
  const identity = req.identity;
  if (!identity?.userId) throw unauthorized();
  return { userId: identity.userId, username: identity.username ?? identity.userId };
}
