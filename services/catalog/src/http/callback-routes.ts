import { Router, type Request } from 'express';
import { z } from 'zod';
import {
  assignCallbackBody,
  bulkCallbackOpportunitiesBody,
  callbackOpportunityInput,
  callbackOpportunityExportQuery,
  callbackOpportunityListQuery,
  callbackStateBody,
  myCallbackStatesBody,
  myCallbackStatusBody,
} from '@warmline/contracts';
import { callAttemptBody } from '@warmline/contracts/calling-hours';
import { logCallbackAttempt } from '../domain/call-attempts';
import { badRequest, notFound, unauthorized } from '@warmline/platform/errors';
import { requireAdminIdentity, requireUserIdentity } from '@warmline/platform/http/identity';
import { parseInput } from '@warmline/platform/validation';
import type { Admin } from '../domain/admin-actions';
import {
  addCallbackOpportunity,
  addCallbackOpportunityRows,
  assignCallbackByHand,
  callbackAgents,
  exportCallbackOpportunitiesCsv,
  giveCallbackState,
  listCallbackOpportunityPage,
  type CallbackContext,
} from '../domain/callbacks';
import { markMyCallbackContacted, myCallbacks, setMyCallbackStates, type Agent } from '../domain/my-callbacks';

const ADMIN_PATHS = ['/api/callback-opportunities', '/api/admin/callback-opportunities', '/api/admin/callback-agents'];
const ADD_PATHS = ['/api/callback-opportunities', '/api/admin/callback-opportunities'];
const opportunityId = z.uuid();

/**
 * Callback opportunities (admin) and My Call-backs (the agent), issue 15. The gateway lets only
 * admins reach the admin routes; the role is checked here again, as on every admin route.
 */
export function callbackRoutes(ctx: CallbackContext): Router {
  const router = Router();
  router.use(ADMIN_PATHS, requireAdminIdentity);
  router.use(['/api/my-callbacks', '/api/my-callbacks-states'], requireUserIdentity);

  router.get('/api/callback-opportunities', async (req, res) => {
    const query = parseInput(callbackOpportunityListQuery, req.query);
    const { opportunities, total } = await listCallbackOpportunityPage(ctx, query);
    res.setHeader('X-Total-Count', String(total));
    // Prospects' phones: never kept by a shared cache.
    res.setHeader('Cache-Control', 'private, no-store');
    res.json(opportunities);
  });

  // The manual form; the spec names the second path, the SPA the first: one operation.
  router.post(ADD_PATHS, async (req, res) => {
    const input = parseInput(callbackOpportunityInput, req.body);
    const created = await addCallbackOpportunity(ctx, adminOf(req), input, req.id);
    res.status(201).json(created);
  });

  router.get('/api/callback-opportunities/export.csv', async (req, res) => {
    const filter = parseInput(callbackOpportunityExportQuery, req.query);
    const { csv, total, rows } = await exportCallbackOpportunitiesCsv(ctx, filter);
    const day = ctx.clock().toISOString().slice(0, 10);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="warmline-callback-opportunities-${day}.csv"`);
    res.setHeader('X-Total-Count', String(total));
    if (rows < total) res.setHeader('X-Truncated', 'true');
    // Prospects' phones: never kept by a shared cache.
    res.setHeader('Cache-Control', 'private, no-store');
    res.send(csv);
  });

  router.get('/api/admin/callback-agents', async (req, res) => {
    res.setHeader('Cache-Control', 'private, no-store');
    res.json(await callbackAgents(ctx, adminOf(req), req.id));
  });

  router.post('/api/callback-opportunities/bulk', async (req, res) => {
    const { csvData } = parseInput(bulkCallbackOpportunitiesBody, req.body);
    res.json(await addCallbackOpportunityRows(ctx, adminOf(req), csvData, req.id));
  });

  router.patch('/api/callback-opportunities/:id', async (req, res) => {
    const id = idOf(req);
    const { state } = parseInput(callbackStateBody, req.body);
    res.json(await giveCallbackState(ctx, adminOf(req), id, state, req.id));
  });

  router.post('/api/callback-opportunities/:id/assign', async (req, res) => {
    const id = idOf(req);
    const { userId } = parseInput(assignCallbackBody, req.body);
    res.json(await assignCallbackByHand(ctx, adminOf(req), id, userId.toLowerCase(), req.id));
  });

  router.get('/api/my-callbacks', async (req, res) => {
    res.setHeader('Cache-Control', 'private, no-store');
    res.json(await myCallbacks(ctx, agentOf(req), req.id));
  });

  router.patch('/api/my-callbacks/:id', async (req, res) => {
    const id = opportunityId.safeParse(req.params.id);
    if (!id.success) throw notFound('Call-back not found');
    parseInput(myCallbackStatusBody, req.body);
    res.json(await markMyCallbackContacted(ctx, agentOf(req), id.data.toLowerCase()));
  });

  // Issue 24 §3: the agent logs a call; recorded even outside calling hours, and the answer says so.
  router.post('/api/my-callbacks/:id/attempts', async (req, res) => {
    const id = opportunityId.safeParse(req.params.id);
    if (!id.success) throw notFound('Call-back not found');
    const body = parseInput(callAttemptBody, req.body ?? {});
    res.status(201).json(await logCallbackAttempt(ctx, agentOf(req), id.data.toLowerCase(), body));
  });

  router.put('/api/my-callbacks-states', async (req, res) => {
    const { states } = parseInput(myCallbackStatesBody, req.body);
    res.json(await setMyCallbackStates(ctx, agentOf(req), states, req.id));
  });

  return router;
}

function idOf(req: Request): string {
  const id = opportunityId.safeParse(req.params.id);
  if (!id.success) throw badRequest('Callback opportunity id must be a UUID');
  return id.data.toLowerCase();
}

function adminOf(req: Request): Admin {
  const identity = req.identity;
  if (!identity?.userId) throw unauthorized();
  return { userId: identity.userId, username: identity.username ?? identity.userId };
}

function agentOf(req: Request): Agent {
  const identity = req.identity;
  if (!identity?.userId) throw unauthorized();
  return { userId: identity.userId, username: identity.username };
}
