import { Router, type Request } from 'express';
import { CAMPAIGN_NOT_FOUND, campaignActiveBody, createCampaignBody } from '@warmline/contracts';
import { notFound, parseInput } from '@warmline/platform';
import type { AdminActor } from '../domain/audit-log';
import { campaignResponsesCsv, campaigns, createCampaign, setCampaignActive } from '../domain/campaigns';
import type { AccountsContext } from '../domain/context';
import { currentUser, requireAdmin } from '../edge/access';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id that is not a uuid names no campaign: 404, like an unknown one. */
function campaignIdOf(req: Request): string {
  const id = req.params.id;
  if (typeof id !== 'string' || !UUID.test(id)) throw notFound(CAMPAIGN_NOT_FOUND);
  return id.toLowerCase();
}

function actorOf(req: Request): AdminActor {
  const { id, username } = currentUser(req);
  return { id, username };
}

/**
 * Test Campaigns (issue 12): admins create salespeople's referral pages, switch them on and off
 * and export their responses. The responses as JSON stay at GET /api/{slug}-responses (spec §7).
 */
export function campaignRoutes(ctx: AccountsContext): Router {
  const router = Router();
  router.use('/api/admin/campaigns', requireAdmin);

  router.get('/api/admin/campaigns', async (_req, res) => {
    res.setHeader('cache-control', 'no-store');
    res.json(await campaigns(ctx));
  });

  router.post('/api/admin/campaigns', async (req, res) => {
    const input = parseInput(createCampaignBody, req.body);
    res.status(201).json(await createCampaign(ctx, { actor: actorOf(req), ...input }));
  });

  router.patch('/api/admin/campaigns/:id', async (req, res) => {
    const campaignId = campaignIdOf(req);
    const { active } = parseInput(campaignActiveBody, req.body);
    res.json(await setCampaignActive(ctx, { actor: actorOf(req), campaignId, active }));
  });

  router.get('/api/admin/campaigns/:id/responses.csv', async (req, res) => {
    const { fileName, csv } = await campaignResponsesCsv(ctx, campaignIdOf(req));
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${fileName}"`);
    // Contact details: never kept by a shared cache.
    res.setHeader('Cache-Control', 'private, no-store');
    res.send(csv);
  });

  return router;
}
