import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { z } from 'zod';
import {
  WEBHOOK_FAILED_MESSAGE,
  WEBHOOK_INVALID_JSON_MESSAGE,
  WEBHOOK_MISSING_FIELDS_MESSAGE,
  WEBHOOK_UNAUTHORIZED_MESSAGE,
  type TransferOutcomeAnswer,
  type TransferRouteAnswer,
  type WebhookRefusal,
} from '@warmline/contracts';
import { AppError } from '@warmline/platform/errors';
import { asUnavailable, RETRY_AFTER_SECONDS } from '@warmline/platform/faults';
import { BODY_TOO_LARGE_MESSAGE, bodyLimitFor } from '@warmline/platform/http/body-limits';
import { forwardedAsker, IDENTITY_HEADER, verifyIdentity, type IdentityCheck } from '@warmline/platform/http/identity';
import { manifestRoutes, type VendorCaller } from '@warmline/platform/http/manifest-routes';
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

type Refusal = WebhookRefusal | { success: false; message: string };

function answer(res: Response, status: number, body: TransferRouteAnswer | TransferOutcomeAnswer | Refusal): void {
  // An answer names a prospect's call: never kept by a cache.
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).json(body);
}

/** Text PostgreSQL cannot store. */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** 400 in the webhook's shape: every field named once, with what is wrong with it. */
function refusalOf(issues: ReadonlyArray<{ field: string; message: string }>): WebhookRefusal {
  const errors: Array<{ field: string; message: string }> = [];
  for (const issue of issues) if (!errors.some((e) => e.field === issue.field)) errors.push(issue);
  return { success: false, message: WEBHOOK_MISSING_FIELDS_MESSAGE, fields: errors.map((e) => e.field), errors };
}

function zodRefusal(error: z.ZodError): WebhookRefusal {
  return refusalOf(
    error.issues.map((issue) => {
      const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'body';
      const missing = issue.code === 'invalid_type' && issue.input === undefined;
      return { field, message: missing ? `${field} is required` : issue.message };
    }),
  );
}

/** The body as one JSON object, or the answer that says why not. */
function readObject(req: Request, res: Response): Promise<Record<string, unknown> | 'answered'> {
  const parse = express.raw({ type: () => true, limit: bodyLimitFor(req.method, req.path) });
  return new Promise((resolve) => {
    parse(req, res, (err?: unknown) => {
      if (err) {
        if ((err as { type?: string }).type === 'entity.too.large') answer(res, 413, { success: false, message: BODY_TOO_LARGE_MESSAGE });
        else answer(res, 400, { success: false, message: WEBHOOK_INVALID_JSON_MESSAGE });
        return resolve('answered');
      }
      let body: unknown;
      try {
        body = JSON.parse((Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)).toString('utf8'));
      } catch {
        body = undefined;
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        answer(res, 400, { success: false, message: WEBHOOK_INVALID_JSON_MESSAGE });
        return resolve('answered');
      }
      const unstorable = Object.entries(body).find(([, v]) => typeof v === 'string' && UNSTORABLE.test(v));
      if (unstorable) {
        answer(res, 400, refusalOf([{ field: unstorable[0], message: `${unstorable[0]} must be valid text without NUL characters` }]));
        return resolve('answered');
      }
      resolve(body as Record<string, unknown>);
    });
  });
}

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
        if (!verifyIdentity(identity, req.header(IDENTITY_HEADER))) return answer(res, 401, { success: false, message: WEBHOOK_UNAUTHORIZED_MESSAGE });
        const vendorKeyId = await vendorKeyOf(ctx.pool, call.caller.presentedKey);
        if (!vendorKeyId) return answer(res, 401, { success: false, message: WEBHOOK_UNAUTHORIZED_MESSAGE });
        const body = await readObject(req, res);
        if (body === 'answered') return;
        await work(call, vendorKeyId, body);
      } catch (err) {
        if (res.headersSent) {
          req.log.error({ err }, 'vendor transfer call failed after answering');
          return;
        }
        if (err instanceof AppError && err.status < 500) return answer(res, err.status, { success: false, message: err.message });
        if (asUnavailable(err)) {
          // Nothing was decided (the transaction did not commit): the vendor retries the same call_id.
          req.log.warn({ err }, 'vendor transfer call: a dependency is unavailable; answered 503');
          res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
          return answer(res, 503, { success: false, message: WEBHOOK_FAILED_MESSAGE });
        }
        req.log.error({ err }, 'vendor transfer call failed');
        answer(res, 500, { success: false, message: WEBHOOK_FAILED_MESSAGE });
      }
    };

  const calls = manifestRoutes('transfers', forwardedAsker)
    .on(
      'POST /api/transfers/route',
      vendorCall(async ({ route, res, correlationId }, vendorKeyId, body) => {
        const parsed = route.body.safeParse(body);
        if (!parsed.success) return answer(res, 400, zodRefusal(parsed.error));
        try {
          answer(res, 200, await routeTransfer(ctx, vendorKeyId, parsed.data, correlationId));
        } catch (err) {
          if (!(err instanceof StateUnknown)) throw err;
          answer(res, 400, refusalOf([{ field: 'state', message: "state is required when the phone's area code names no US state" }]));
        }
      }),
    )
    .on(
      'POST /api/transfers/{transferId}/outcome',
      vendorCall(async ({ route, params, res, correlationId }, vendorKeyId, body) => {
        const parsed = route.body.safeParse(body);
        if (!parsed.success) return answer(res, 400, zodRefusal(parsed.error));
        answer(res, 200, await reportOutcome(ctx, vendorKeyId, params.transferId, parsed.data, correlationId));
      }),
    );

  const router = Router();
  router.use(calls.router);
  // The kit refuses a transfer id that is no UUID before the handler runs: the vendor hears it in the webhook's shape too.
  router.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (err instanceof AppError && err.status < 500 && !res.headersSent) return answer(res, err.status, { success: false, message: err.message });
    next(err);
  });
  return router;
}
