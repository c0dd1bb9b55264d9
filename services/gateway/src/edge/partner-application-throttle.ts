import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { PARTNER_APPLICATIONS_PER_HOUR, PARTNER_RATE_LIMIT_MESSAGE } from '@warmline/contracts';
import { AppError, type Logger } from '@warmline/platform';
import { originOf } from './request-origin';
import type { Throttle, ThrottleRule } from './throttle';

/**
 * Partner applications (issue 14): every one stored e-mails an address the caller chose and the
 * partnerships inbox, so one address may apply at most 5 times an hour, as it may sign up at
 * most 5 times (SIGN_UPS_PER_IP). Counted in the gateway's Redis before the multipart body is
 * forwarded, so a burst cannot all pass: INCR answers each new count atomically.
 *
 * The form is checked by the partners service, after the gateway has counted it; an application
 * it refuses (a 4xx: a missing answer, a document of the wrong type, a body too large) or never
 * received (503) is given back, as a survey refused for a taken name is not a sign-up. Those
 * still count as attempts: at most 20 an hour, so refused 50 MB bodies cannot be sent without end.
 */
const PARTNER_APPLICATIONS_PER_IP: ThrottleRule = { name: 'partner-application-ip', limit: PARTNER_APPLICATIONS_PER_HOUR, windowSeconds: 60 * 60 };
const PARTNER_APPLICATION_ATTEMPTS_PER_IP: ThrottleRule = { name: 'partner-application-attempt-ip', limit: 20, windowSeconds: 60 * 60 };

const APPLICATION_PATH = /^\/api\/affnetwork-signup\/?$/;

/** An answer that says no application was stored. */
const notStored = (status: number) => (status >= 400 && status < 500) || status === 503;

/**
 * 429 with PARTNER_RATE_LIMIT_MESSAGE (and Retry-After) once an address has applied 5 times in
 * the hour; mount after the route manifest's gate and before forwarding.
 */
export function partnerApplicationThrottle(throttle: Throttle, log: Logger): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const path = req.originalUrl.split('?')[0] ?? '';
    if (req.method !== 'POST' || !APPLICATION_PATH.test(path)) return next();
    const { ip } = originOf(req);
    const giveBack = () =>
      throttle.refund(PARTNER_APPLICATIONS_PER_IP, ip).catch((err: unknown) => log.warn({ err }, 'a refused partner application could not be given back'));
    try {
      await throttle.consume(
        [
          [PARTNER_APPLICATIONS_PER_IP, ip],
          [PARTNER_APPLICATION_ATTEMPTS_PER_IP, ip],
        ],
        () => PARTNER_RATE_LIMIT_MESSAGE,
      );
    } catch (err) {
      // Refused here: counted by INCR, but no application was made.
      if (err instanceof AppError && err.status === 429) await giveBack();
      throw err;
    }
    res.on('finish', () => {
      if (notStored(res.statusCode)) void giveBack();
    });
    next();
  };
}
