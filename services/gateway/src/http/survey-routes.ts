import { Router, type Request } from 'express';
import { SURVEY_SUBMISSION_SCHEMAS } from '@warmline/contracts';
import { notFound, parseInput } from '@warmline/platform';
import {
  SALESPERSON_NOT_FOUND,
  openReferralSalesperson,
  publicSalesperson,
  responsesOfSalesperson,
  savedSurveyOf,
  submitSurvey,
  type SurveysContext,
} from '../domain/surveys';
import { currentUser, requireAdmin, requireUser } from '../edge/access';
import { originOf } from '../edge/request-origin';

/**
 * `/api/{slug}-survey` and `/api/{slug}-responses` (spec §7). Regular expressions rather than
 * ':slug-survey' patterns so a slug may itself contain '-' ('mary-ann'). The fixed routes
 * (/api/survey, /api/ringcloud-survey, /api/user-survey) are registered first and win.
 */
const REFERRAL_SURVEY_PATH = /^\/api\/([A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)-survey\/?$/;
const REFERRAL_RESPONSES_PATH = /^\/api\/([A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)-responses\/?$/;

function slugOf(req: Request): string {
  const slug = (req.params as Record<string, string | undefined>)[0];
  if (!slug) throw notFound(SALESPERSON_NOT_FOUND);
  return slug.toLowerCase();
}

/** The survey funnels, the saved survey, salespeople and their responses. */
export function surveyRoutes(ctx: SurveysContext): Router {
  const router = Router();

  router.post('/api/survey', async (req, res) => {
    const answers = parseInput(SURVEY_SUBMISSION_SCHEMAS.main, req.body);
    res.status(201).json(await submitSurvey(ctx, { funnel: 'main' }, answers, originOf(req)));
  });

  router.post('/api/ringcloud-survey', async (req, res) => {
    const answers = parseInput(SURVEY_SUBMISSION_SCHEMAS.ringcloud, req.body);
    res.status(201).json(await submitSurvey(ctx, { funnel: 'ringcloud' }, answers, originOf(req)));
  });

  // The user's latest survey, or null when they have none (an account made by an admin):
  // "no survey yet" is a normal state for the forms it pre-fills, not an error.
  router.get('/api/user-survey', requireUser, async (req, res) => {
    res.json(await savedSurveyOf(ctx, currentUser(req).id));
  });

  // Public: the SPA asks whether /{slug} is a referral survey before showing it.
  router.get('/api/salespeople/:slug', async (req, res) => {
    res.json(await publicSalesperson(ctx, String(req.params.slug)));
  });

  router.post(REFERRAL_SURVEY_PATH, async (req, res) => {
    // The salesperson first: an unknown slug is a 404 whatever the body says.
    const salesperson = await openReferralSalesperson(ctx, slugOf(req));
    const answers = parseInput(SURVEY_SUBMISSION_SCHEMAS.referral, req.body);
    res.status(201).json(await submitSurvey(ctx, { funnel: 'referral', salesperson }, answers, originOf(req)));
  });

  router.get(REFERRAL_RESPONSES_PATH, requireAdmin, async (req, res) => {
    res.json(await responsesOfSalesperson(ctx, slugOf(req)));
  });

  return router;
}
