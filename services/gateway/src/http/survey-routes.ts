import type { Router } from 'express';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import {
  openReferralSalesperson,
  publicSalesperson,
  responsesOfSalesperson,
  savedSurveyOf,
  submitSurvey,
  type SurveysContext,
} from '../domain/surveys';
import { sessionAsker } from '../edge/access';
import { originOf } from '../edge/request-origin';

/**
 * The survey funnels, the saved survey, salespeople and their responses (spec §7). The fixed
 * paths (/api/survey, /api/ringcloud-survey, /api/user-survey) win over `/api/{salesperson}-survey`:
 * the route kit mounts literal paths first, so they stay in this one set of routes.
 */
export function surveyRoutes(ctx: SurveysContext): Router {
  const routes = manifestRoutes('gateway', sessionAsker)
    .on('POST /api/survey', async ({ body, req, res }) => {
      res.status(201).json(await submitSurvey(ctx, { funnel: 'main' }, body, originOf(req)));
    })
    .on('POST /api/ringcloud-survey', async ({ body, req, res }) => {
      res.status(201).json(await submitSurvey(ctx, { funnel: 'ringcloud' }, body, originOf(req)));
    })
    // The user's latest survey, or null when they have none (an account made by an admin):
    // "no survey yet" is a normal state for the forms it pre-fills, not an error.
    .on('GET /api/user-survey', ({ caller }) => savedSurveyOf(ctx, caller.userId))
    // Public: the SPA asks whether /{slug} is a referral survey before showing it.
    .on('GET /api/salespeople/{slug}', ({ params }) => publicSalesperson(ctx, params.slug))
    // An unknown or inactive salesperson's survey is 404 whatever its body says: looked up before the body is read.
    .onFound(
      'POST /api/{salesperson}-survey',
      ({ params }) => openReferralSalesperson(ctx, params.salesperson.toLowerCase()),
      async ({ found: salesperson, body, req, res }) => {
        res.status(201).json(await submitSurvey(ctx, { funnel: 'referral', salesperson }, body, originOf(req)));
      },
    )
    .on('GET /api/{salesperson}-responses', ({ params }) => responsesOfSalesperson(ctx, params.salesperson.toLowerCase()));
  return routes.router;
}
