import express, { Router, type Request, type Response } from 'express';
import type { z } from 'zod';
import {
  TRANSFER_ROUTE_PATH,
  transferOutcomeBody,
  transferRouteBody,
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
import { IDENTITY_HEADER, verifyIdentity, type IdentityCheck } from '@warmline/platform/http/identity';
import type { TransfersContext } from '../domain/context';
import { reportOutcome } from '../domain/outcome';
import { routeTransfer, StateUnknown } from '../domain/routing';
import { vendorKeyOf } from '../domain/vendor-keys';

/**
 * The vendor's two calls (issue 23 §3, §4): POST /api/transfers/route and POST
 * /api/transfers/{id}/outcome, with a vendor key. Mounted before the kit's JSON parser, as the
 * call-back webhook is: the vendor hears every answer in the webhook's shape (`{ success: false,
 * message }`, a 400 naming each field), the key is checked before the body is read. The gateway
 * forwards these untouched and answers 429 itself.
 */

type Refusal = WebhookRefusal | { success: false; message: string };

function answer(res: Response, status: number, body: TransferRouteAnswer | TransferOutcomeAnswer | Refusal): void {
  // An answer names a prospect's call: never kept by a cache.
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).json(body);
}

/** The key a caller presents: X-API-Key, else the token of Authorization: Bearer. */
function presentedKey(req: Request): string | undefined {
  const apiKey = req.header('x-api-key')?.trim();
  if (apiKey) return apiKey;
  return /^Bearer\s+(\S+)\s*$/i.exec(req.header('authorization') ?? '')?.[1] || undefined;
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

export function vendorRoutes(ctx: TransfersContext, identity: IdentityCheck): Router {
  const router = Router();

  /** The vendor's key checked (401 otherwise), the body read, then `work`; failures in the webhook's shape. */
  const vendorCall =
    (work: (req: Request, res: Response, vendorKeyId: string, body: Record<string, unknown>) => Promise<void>) =>
    async (req: Request, res: Response): Promise<void> => {
      try {
        // Reached through the gateway only (its throttle): it signs every call.
        if (!verifyIdentity(identity, req.header(IDENTITY_HEADER))) return answer(res, 401, { success: false, message: WEBHOOK_UNAUTHORIZED_MESSAGE });
        const vendorKeyId = await vendorKeyOf(ctx.pool, presentedKey(req));
        if (!vendorKeyId) return answer(res, 401, { success: false, message: WEBHOOK_UNAUTHORIZED_MESSAGE });
        const body = await readObject(req, res);
        if (body === 'answered') return;
        await work(req, res, vendorKeyId, body);
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

  router.post(
    TRANSFER_ROUTE_PATH,
    vendorCall(async (req, res, vendorKeyId, body) => {
      const parsed = transferRouteBody.safeParse(body);
      if (!parsed.success) return answer(res, 400, zodRefusal(parsed.error));
      try {
        answer(res, 200, await routeTransfer(ctx, vendorKeyId, parsed.data, req.id));
      } catch (err) {
        if (!(err instanceof StateUnknown)) throw err;
        answer(res, 400, refusalOf([{ field: 'state', message: "state is required when the phone's area code names no US state" }]));
      }
    }),
  );

  router.post(
    '/api/transfers/:transferId/outcome',
    vendorCall(async (req, res, vendorKeyId, body) => {
      const parsed = transferOutcomeBody.safeParse(body);
      if (!parsed.success) return answer(res, 400, zodRefusal(parsed.error));
      answer(res, 200, await reportOutcome(ctx, vendorKeyId, String(req.params.transferId), parsed.data, req.id));
    }),
  );

  return router;
}
