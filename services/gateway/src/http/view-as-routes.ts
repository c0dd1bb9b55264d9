import { Router } from 'express';
import { viewAsBody } from '@warmline/contracts';
import { badRequest, parseInput } from '@warmline/platform';
import { endViewing, startViewing, type ViewAsContext } from '../domain/view-as';
import { currentUser, requireAdmin } from '../edge/access';

const VIEW_AS_HEADER_REQUIRED = 'Send the X-View-As header of the viewing to end';

/** View-as (issue 12, docs/adr/0014-view-as.md): an admin's grant for one tab, and its end. */
export function viewAsRoutes(ctx: ViewAsContext): Router {
  const router = Router();

  // From the admin's own tab (no X-View-As: a viewing tab's writes were refused at the door).
  router.post('/api/admin/view-as', requireAdmin, async (req, res) => {
    const { userId } = parseInput(viewAsBody, req.body);
    const { id, username } = currentUser(req);
    const grant = await startViewing(ctx, { actor: { id, username }, sessionId: req.sessionID, userId: userId.toLowerCase() });
    res.setHeader('cache-control', 'no-store');
    res.status(201).json(grant);
  });

  // From the viewing tab: the gate has checked its grant belongs to this admin session.
  router.delete('/api/admin/view-as', requireAdmin, async (req, res) => {
    if (!req.viewAs) throw badRequest(VIEW_AS_HEADER_REQUIRED);
    await endViewing(ctx, req.viewAs.token);
    res.json({ message: 'Viewing ended' });
  });

  return router;
}
