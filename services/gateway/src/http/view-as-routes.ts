import type { Router } from 'express';
import { badRequest } from '@warmline/platform';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import { endViewing, startViewing, type ViewAsContext } from '../domain/view-as';
import { sessionAsker } from '../edge/access';

const VIEW_AS_HEADER_REQUIRED = 'Send the X-View-As header of the viewing to end';

/** View-as (issue 12, docs/adr/0014-view-as.md): an admin's grant for one tab, and its end. */
export function viewAsRoutes(ctx: ViewAsContext): Router {
  return (
    manifestRoutes('gateway', sessionAsker)
      // From the admin's own tab (no X-View-As: a viewing tab's writes were refused at the door).
      .on('POST /api/admin/view-as', async ({ caller, body, req, res }) => {
        const grant = await startViewing(ctx, { actor: caller, sessionId: req.sessionID, userId: body.userId.toLowerCase() });
        res.setHeader('cache-control', 'no-store');
        res.status(201).json(grant);
      })
      // From the viewing tab: the gate has checked its grant belongs to this admin session.
      .on('DELETE /api/admin/view-as', async ({ req }) => {
        if (!req.viewAs) throw badRequest(VIEW_AS_HEADER_REQUIRED);
        await endViewing(ctx, req.viewAs.token);
        return { message: 'Viewing ended' };
      }).router
  );
}
