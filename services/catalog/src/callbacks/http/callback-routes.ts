import type { Router } from 'express';
import { forwardedAsker } from '@warmline/platform/http/identity';
import { manifestRoutes, type RouteHandler } from '@warmline/platform/http/manifest-routes';
import { logCallbackAttempt } from '../domain/call-attempts';
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
import { markMyCallbackContacted, myCallbacks, setMyCallbackStates } from '../domain/my-callbacks';

/**
 * Callback opportunities (admin) and My Call-backs (the agent), issue 15, mounted from the route
 * manifest: the gateway lets only admins reach the admin routes; the kit checks the role again,
 * as on every admin route.
 */
export function callbackRoutes(ctx: CallbackContext): Router {
  // The manual form; the spec names the second path, the SPA the first: one operation.
  const addOpportunity: RouteHandler<'POST /api/callback-opportunities' | 'POST /api/admin/callback-opportunities'> = async ({ caller, body, res, correlationId }) => {
    const created = await addCallbackOpportunity(ctx, caller, body, correlationId);
    res.status(201);
    return created;
  };

  const manifest = manifestRoutes('catalog', forwardedAsker)
    .on('GET /api/callback-opportunities', async ({ query, res }) => {
      const { opportunities, total } = await listCallbackOpportunityPage(ctx, query);
      res.setHeader('X-Total-Count', String(total));
      // Prospects' phones: never kept by a shared cache.
      res.setHeader('Cache-Control', 'private, no-store');
      return opportunities;
    })
    .on('POST /api/callback-opportunities', addOpportunity)
    .on('POST /api/admin/callback-opportunities', addOpportunity)
    .on('GET /api/callback-opportunities/export.csv', async ({ query, res }) => {
      const { csv, total, rows } = await exportCallbackOpportunitiesCsv(ctx, query);
      const day = ctx.clock().toISOString().slice(0, 10);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="warmline-callback-opportunities-${day}.csv"`);
      res.setHeader('X-Total-Count', String(total));
      if (rows < total) res.setHeader('X-Truncated', 'true');
      // Prospects' phones: never kept by a shared cache.
      res.setHeader('Cache-Control', 'private, no-store');
      res.send(csv);
    })
    .on('GET /api/admin/callback-agents', ({ caller, res, correlationId }) => {
      res.setHeader('Cache-Control', 'private, no-store');
      return callbackAgents(ctx, caller, correlationId);
    })
    .on('POST /api/callback-opportunities/bulk', ({ caller, body, correlationId }) => addCallbackOpportunityRows(ctx, caller, body.csvData, correlationId))
    .on('PATCH /api/callback-opportunities/{id}', ({ caller, params, body, correlationId }) => giveCallbackState(ctx, caller, params.id, body.state, correlationId))
    .on('POST /api/callback-opportunities/{id}/assign', ({ caller, params, body, correlationId }) =>
      assignCallbackByHand(ctx, caller, params.id, body.userId.toLowerCase(), correlationId),
    )
    .on('GET /api/my-callbacks', ({ caller, res, correlationId }) => {
      res.setHeader('Cache-Control', 'private, no-store');
      return myCallbacks(ctx, caller, correlationId);
    })
    .on('PATCH /api/my-callbacks/{id}', ({ caller, params }) => markMyCallbackContacted(ctx, caller, params.id))
    // Issue 24 §3: the agent logs a call; recorded even outside calling hours, and the answer says so.
    .on('POST /api/my-callbacks/{id}/attempts', async ({ caller, params, body, res }) => {
      const logged = await logCallbackAttempt(ctx, caller, params.id, body);
      res.status(201);
      return logged;
    })
    .on('PUT /api/my-callbacks-states', ({ caller, body, correlationId }) => setMyCallbackStates(ctx, caller, body.states, correlationId));
  return manifest.router;
}
