import { Router } from 'express';
import type { DashboardConfigResponse } from '@warmline/contracts/catalog';
import type { GatewayConfig } from '../config';
import { requireUser } from '../edge/access';

/**
 * `GET /api/dashboard-config`: what the customer dashboard shows from configuration (the
 * training videos). For logged-in users only, unlike the public /api/site-config: the videos
 * are part of what customers get.
 */
export function dashboardConfigRoutes(config: GatewayConfig): Router {
  const answer: DashboardConfigResponse = { trainingVideos: config.TRAINING_VIDEOS };
  const router = Router();
  router.get('/api/dashboard-config', requireUser, (_req, res) => {
    res.setHeader('Cache-Control', 'private, max-age=300');
    res.json(answer);
  });
  return router;
}
