import { Router, type Request } from 'express';
import { recognisedStates, SURVEY_TIMEZONES, type BuyerProfile } from '@warmline/contracts';
import { acceptServiceCallers, AppError, requireForwardedIdentity, type IdentityCheck, type Pool } from '@warmline/platform';
import { findAccount } from '../domain/users';
import { findLatestSurveyDeliveryAnswers } from '../db/read-models/survey-responses';

const INTERNAL_USERS_PATH = '/internal/users/:id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `GET /internal/users/:id`: what the internal services may read about a user they act for
 * (the orders service prices a transfer order at the agent's own price; the catalog reads the
 * working states of the agent's latest survey). Outside /api, so the
 * session, CSRF and forwarding of the public routes never see it, and it answers only the
 * services that write to or price for users, each calling with its own key (docs/adr/0042).
 * Read from the database on every call, so an admin's price change counts at once.
 */
export function internalUserRoutes(options: { pool: Pool; identity: IdentityCheck }): Router {
  const router = Router();
  router.get(INTERNAL_USERS_PATH, requireForwardedIdentity(options.identity), acceptServiceCallers('catalog', 'orders', 'transfers'), async (req: Request, res) => {
    const id = String(req.params.id);
    if (!UUID.test(id)) throw new AppError('NotFound', 'User not found', 404);
    const user = await findAccount(options.pool, id.toLowerCase());
    if (!user) throw new AppError('NotFound', 'User not found', 404);
    // The catalog delivers call-backs in these states until the agent chooses their own; the
    // transfers service suggests delivery settings from the survey's zone and daily count.
    const survey = await findLatestSurveyDeliveryAnswers(options.pool, user.id);
    const zone = SURVEY_TIMEZONES.find((z) => z === survey?.timezone?.trim().toUpperCase());
    // Transfers per day when the survey asked it, else calls per day; 0 says nothing.
    const perDay = survey?.transfersPerDay || survey?.callsPerDay || null;
    const answer: BuyerProfile = {
      id: user.id,
      username: user.username,
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      phone: user.phone,
      liveTransferPrice: Number(user.liveTransferPrice).toFixed(2),
      workingStates: recognisedStates(survey?.workingStates),
      ...(zone ? { surveyTimeZone: zone } : {}),
      ...(perDay ? { callsPerDay: perDay } : {}),
    };
    res.setHeader('cache-control', 'no-store');
    res.json(answer);
  });
  return router;
}
