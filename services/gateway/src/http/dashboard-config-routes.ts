import type { Router } from 'express';
import type { DashboardConfigResponse } from '@warmline/contracts/catalog';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import type { GatewayConfig } from '../config';
import { sessionAsker } from '../edge/access';

/**
 * `GET /api/dashboard-config`: what the customer dashboard shows from configuration (the
 * training videos). For logged-in users only, unlike the public /api/site-config: the videos
 * are part of what customers get.
 */
export function dashboardConfigRoutes(config: GatewayConfig): Router {
  const answer: DashboardConfigResponse = { trainingVideos: config.TRAINING_VIDEOS };
  return manifestRoutes('gateway', sessionAsker).on('GET /api/dashboard-config', ({ res }) => {
    res.setHeader('Cache-Control', 'private, max-age=300');
    return answer;
  }).router;
}
