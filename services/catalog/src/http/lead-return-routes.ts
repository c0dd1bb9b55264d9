import { Router, type Request } from 'express';
import { z } from 'zod';
import { leadReturnBody, leadReturnDecisionBody, leadReturnListQuery, LEAD_RETURN_MESSAGES } from '@warmline/contracts';
import { notFound, unauthorized } from '@warmline/platform/errors';
import { requireAdminIdentity, requireUserIdentity } from '@warmline/platform/http/identity';
import { parseInput } from '@warmline/platform/validation';
import type { CatalogContext } from '../domain/context';
import { decideLeadReturn, listLeadReturns, returnLead } from '../domain/lead-returns';

/**
 * Lead returns (issue 24, ADR 0034): the buyer's return from My Leads and the admin's Returns
 * queue. The gateway lets only admins reach the admin routes; the role is checked here again.
 */
const uuid = z.uuid();

export function leadReturnRoutes(ctx: CatalogContext): Router {
  const router = Router();
  router.use('/api/admin/lead-returns', requireAdminIdentity);

  router.post('/api/my-leads/:id/return', requireUserIdentity, async (req, res) => {
    // A lead id that is no UUID is no lead of theirs: 404, as for another buyer's lead.
    const leadId = idOf(req, LEAD_RETURN_MESSAGES.notFound);
    const body = parseInput(leadReturnBody, req.body);
    const who = userOf(req);
    const created = await returnLead(ctx, who, leadId, body, req.id);
    res.status(201).json(created);
  });

  router.get('/api/admin/lead-returns', async (req, res) => {
    const query = parseInput(leadReturnListQuery, req.query);
    // Buyers' phone numbers: never kept by a shared cache.
    res.setHeader('Cache-Control', 'private, no-store');
    res.json(await listLeadReturns(ctx, query));
  });

  router.post('/api/admin/lead-returns/:id', async (req, res) => {
    const returnId = idOf(req, LEAD_RETURN_MESSAGES.returnNotFound);
    const body = parseInput(leadReturnDecisionBody, req.body);
    res.json(await decideLeadReturn(ctx, userOf(req), returnId, body, req.id));
  });

  return router;
}

function idOf(req: Request, message: string): string {
  const id = uuid.safeParse(req.params.id);
  if (!id.success) throw notFound(message);
  return id.data.toLowerCase();
}

function userOf(req: Request): { userId: string; username: string } {
  const identity = req.identity;
  if (!identity?.userId) throw unauthorized();
  return { userId: identity.userId, username: identity.username ?? identity.userId };
}
