import type { Router } from 'express';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import { submitRecruitingRequest, type RecruitingContext } from '../domain/recruiting';
import { currentUser, sessionAsker } from '../edge/access';
import { originOf } from '../edge/request-origin';

/** `POST /api/recruiting-requests`: a logged-in agent contacts the recruiting team. */
export function recruitingRoutes(ctx: RecruitingContext): Router {
  return manifestRoutes('gateway', sessionAsker).on('POST /api/recruiting-requests', async ({ body, req, res }) => {
    // The request names the agent with their whole record (name, e-mail, phone), not only their id.
    res.status(201).json(await submitRecruitingRequest(ctx, currentUser(req), body, originOf(req)));
  }).router;
}
