import { Router } from 'express';
import { recruitingRequestBody } from '@warmline/contracts';
import { parseInput } from '@warmline/platform';
import { submitRecruitingRequest, type RecruitingContext } from '../domain/recruiting';
import { currentUser, requireUser } from '../edge/access';
import { originOf } from '../edge/request-origin';

/** `POST /api/recruiting-requests`: a logged-in agent contacts the recruiting team. */
export function recruitingRoutes(ctx: RecruitingContext): Router {
  const router = Router();
  router.post('/api/recruiting-requests', requireUser, async (req, res) => {
    const request = parseInput(recruitingRequestBody, req.body);
    res.status(201).json(await submitRecruitingRequest(ctx, currentUser(req), request, originOf(req)));
  });
  return router;
}
