import type { Router } from 'express';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import { campaignResponsesCsv, campaigns, createCampaign, setCampaignActive } from '../domain/campaigns';
import type { AccountsContext } from '../domain/context';
import { sessionAsker } from '../edge/access';

/**
 * Test Campaigns (issue 12): admins create salespeople's referral pages, switch them on and off
 * and export their responses. The responses as JSON stay at GET /api/{slug}-responses (spec §7).
 * Mounted from the route manifest: an id that is no uuid names no campaign (404) there.
 */
export function campaignRoutes(ctx: AccountsContext): Router {
  return manifestRoutes('gateway', sessionAsker)
    .on('GET /api/admin/campaigns', async ({ res }) => {
      res.setHeader('cache-control', 'no-store');
      return campaigns(ctx);
    })
    .on('POST /api/admin/campaigns', async ({ caller, body, res }) => {
      res.status(201).json(await createCampaign(ctx, { actor: caller, ...body }));
    })
    .on('PATCH /api/admin/campaigns/{id}', ({ caller, params, body }) =>
      setCampaignActive(ctx, { actor: caller, campaignId: params.id, active: body.active }),
    )
    .on('GET /api/admin/campaigns/{id}/responses.csv', async ({ params, res }) => {
      const { fileName, csv } = await campaignResponsesCsv(ctx, params.id);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="${fileName}"`);
      // Contact details: never kept by a shared cache.
      res.setHeader('Cache-Control', 'private, no-store');
      res.send(csv);
    }).router;
}
