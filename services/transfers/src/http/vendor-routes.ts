import { Router, type NextFunction, type Request, type Response } from 'express';
import { WEBHOOK_UNAUTHORIZED_MESSAGE } from '@warmline/contracts';
import { AppError } from '@warmline/platform/errors';
import { forwardedAsker, IDENTITY_HEADER, verifyIdentity, type IdentityCheck } from '@warmline/platform/http/identity';
import { manifestRoutes, type VendorCaller } from '@warmline/platform/http/manifest-routes';
import { answerVendor, answerVendorFailure, fieldRefusal, readVendorObject, schemaRefusal } from '@warmline/platform/http/vendor-calls';
import type { TransfersContext } from '../domain/context';
import { reportOutcome } from '../domain/outcome';
import { routeTransfer, StateUnknown } from '../domain/routing';
import { vendorKeyOf } from '../domain/vendor-keys';

/**
 * The vendor's two calls (issue 23 §3, §4): POST /api/transfers/route and POST
 * /api/transfers/{id}/outcome, with a vendor key, mounted from the route manifest (a transfer id
 * that is no UUID is 404 there) before the kit's JSON parser, as the call-back webhook is: the
 * vendor hears every answer in the webhook's shape (`{ success: false, message }`, a 400 naming
 * each field), the key is checked before the body is read. The gateway forwards these untouched
 * and answers 429 itself.
 */

/** What a vendor call's handler needs of the kit's call. */
interface VendorCall {
  caller: VendorCaller;
  req: Request;
  res: Response;
}

export function vendorRoutes(ctx: TransfersContext, identity: IdentityCheck): Router {
  /** The vendor's key checked (401 otherwise), the body read, then `work`; failures in the webhook's shape. */
  const vendorCall =
    <C extends VendorCall>(work: (call: C, vendorKeyId: string, body: Record<string, unknown>) => Promise<void>) =>
    async (call: C): Promise<void> => {
      const { req, res } = call;
      try {
        // Reached through the gateway only (its throttle): it signs every call.
        if (!verifyIdentity(identity, req.header(IDENTITY_HEADER))) return answerVendor(res, 401, { success: false, message: WEBHOOK_UNAUTHORIZED_MESSAGE });
        const vendorKeyId = await vendorKeyOf(ctx, call.caller.presentedKey);
        if (!vendorKeyId) return answerVendor(res, 401, { success: false, message: WEBHOOK_UNAUTHORIZED_MESSAGE });
        const body = await readVendorObject(req, res);
        if (body === 'answered') return;
        await work(call, vendorKeyId, body);
      } catch (err) {
        // A dependency away: nothing was decided (no commit), and the vendor retries the same call_id.
        answerVendorFailure(err, req, res, 'vendor transfer call');
      }
    };

  const calls = manifestRoutes('transfers', forwardedAsker)
    .on(
      'POST /api/transfers/route',
      vendorCall(async ({ route, res, correlationId }, vendorKeyId, body) => {
        const parsed = route.body.safeParse(body);
        if (!parsed.success) return answerVendor(res, 400, schemaRefusal(parsed.error));
        try {
          answerVendor(res, 200, await routeTransfer(ctx, vendorKeyId, parsed.data, correlationId));
        } catch (err) {
          if (!(err instanceof StateUnknown)) throw err;
          answerVendor(res, 400, fieldRefusal([{ field: 'state', message: "state is required when the phone's area code names no US state" }]));
        }
      }),
    )
    .on(
      'POST /api/transfers/{transferId}/outcome',
      vendorCall(async ({ route, params, res, correlationId }, vendorKeyId, body) => {
        const parsed = route.body.safeParse(body);
        if (!parsed.success) return answerVendor(res, 400, schemaRefusal(parsed.error));
        answerVendor(res, 200, await reportOutcome(ctx, vendorKeyId, params.transferId, parsed.data, correlationId));
      }),
    );

  const router = Router();
  router.use(calls.router);
  // The kit refuses a transfer id that is no UUID before the handler runs: the vendor hears it in the webhook's shape too.
  router.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (err instanceof AppError && err.status < 500 && !res.headersSent) return answerVendor(res, err.status, { success: false, message: err.message });
    next(err);
  });
  return router;
}
