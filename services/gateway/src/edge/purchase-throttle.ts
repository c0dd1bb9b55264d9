import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Throttle, ThrottleRule } from './throttle';

/**
 * Aged-lead purchases: each attempt reserves leads in the catalog, so one account hammering the
 * route could hold the inventory (issue 11, medium 5). Counted per buyer, before forwarding.
 */
const PURCHASE_ATTEMPTS_PER_USER: ThrottleRule = { name: 'lead-purchase-user', limit: 10, windowSeconds: 60 };

const PURCHASE_THROTTLED_MESSAGE = 'Too many purchase attempts; try again in a minute';

const PURCHASE_PATH = /^\/api\/bulk-purchase-leads\/?$/;

/**
 * 429 once a buyer has tried more than `perMinute` (10) purchases in the minute; mount after the route
 * manifest's access check (the purchase needs a logged-in user) and before forwarding.
 */
export function purchaseThrottle(throttle: Throttle, perMinute: number = PURCHASE_ATTEMPTS_PER_USER.limit): RequestHandler {
  const rule: ThrottleRule = { ...PURCHASE_ATTEMPTS_PER_USER, limit: perMinute };
  return async (req: Request, _res: Response, next: NextFunction) => {
    const path = req.originalUrl.split('?')[0] ?? '';
    if (req.method !== 'POST' || !PURCHASE_PATH.test(path) || !req.user) return next();
    await throttle.consume([[rule, req.user.id]], () => PURCHASE_THROTTLED_MESSAGE);
    next();
  };
}
