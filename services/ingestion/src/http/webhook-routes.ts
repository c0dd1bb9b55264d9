import express, { type Request, type Response, type Router } from 'express';
import {
  CALLBACK_WEBHOOK_PATH,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  pastCallbackRefusal,
  WEBHOOK_FAILED_MESSAGE,
  WEBHOOK_INVALID_JSON_MESSAGE,
  WEBHOOK_KEY_REUSED_MESSAGE,
  WEBHOOK_MISSING_FIELDS_MESSAGE,
  WEBHOOK_UNAUTHORIZED_MESSAGE,
  webhookRefusal,
  type WebhookAccepted,
  type WebhookKeyConflict,
  type WebhookRefusal,
} from '@warmline/contracts';
import { asUnavailable, RETRY_AFTER_SECONDS } from '@warmline/platform/faults';
import { BODY_TOO_LARGE_MESSAGE, bodyLimitFor } from '@warmline/platform/http/body-limits';
import { IDENTITY_HEADER, verifyIdentity, type IdentityCheck } from '@warmline/platform/http/identity';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import { ANONYMOUS } from '@warmline/platform/identity';
import type { IngestionContext } from '../domain/context';
import { receiveCall } from '../domain/vendor-calls';
import { vendorOfKey } from '../domain/vendor-keys';

/**
 * POST /api/callbacks/brightcall (issue 15, spec §8 Webhook; docs/adr/0030). Mounted before the
 * kit's JSON parser: a vendor hears every answer in the webhook's own shape — a body that is not
 * one JSON object is a 400 'Invalid JSON body', not the kit's `{ error }` — and the key is
 * checked before the body is read.
 */

/** An Idempotency-Key is visible ASCII, at most 200 characters. */
const IDEMPOTENCY_KEY = new RegExp(`^[\\x21-\\x7e]{1,${IDEMPOTENCY_KEY_MAX_LENGTH}}$`);
/** Text PostgreSQL cannot store (the kit refuses it on every other route). */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type Answer = WebhookAccepted | WebhookRefusal | WebhookKeyConflict | { success: false; message: string };

function answer(res: Response, status: number, body: Answer): void {
  // A call's answer names a prospect's call id: never kept by a cache.
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).json(body);
}

function refusal(field: string, message: string): WebhookRefusal {
  return { success: false, message: WEBHOOK_MISSING_FIELDS_MESSAGE, fields: [field], errors: [{ field, message }] };
}

/** The body's bytes, whatever the Content-Type claims (a vendor may send JSON as text/plain). */
function readBody(req: Request, res: Response): Promise<Buffer | 'too large' | 'unreadable'> {
  const parse = express.raw({ type: () => true, limit: bodyLimitFor(req.method, CALLBACK_WEBHOOK_PATH) });
  return new Promise((resolve) => {
    parse(req, res, (err?: unknown) => {
      if (err) return resolve((err as { type?: string }).type === 'entity.too.large' ? 'too large' : 'unreadable');
      resolve(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
    });
  });
}

export function webhookRoutes(ctx: IngestionContext, identity: IdentityCheck): Router {
  // Before the kit's identity check: the vendor hears a missing signature in the webhook's shape.
  return manifestRoutes('ingestion', () => ANONYMOUS).on('POST /api/callbacks/brightcall', async ({ caller, route, req, res }) => {
    try {
      // Reached through the gateway only (its throttle, its body limit): it signs every call.
      if (!verifyIdentity(identity, req.header(IDENTITY_HEADER))) return answer(res, 401, { success: false, message: WEBHOOK_UNAUTHORIZED_MESSAGE });
      const vendor = await vendorOfKey(ctx, ctx.pool, caller.presentedKey);
      if (!vendor) return answer(res, 401, { success: false, message: WEBHOOK_UNAUTHORIZED_MESSAGE });

      const idempotencyKey = req.header('idempotency-key') ?? null;
      if (idempotencyKey !== null && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
        return answer(res, 400, refusal(IDEMPOTENCY_KEY_HEADER, `${IDEMPOTENCY_KEY_HEADER} must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters`));
      }

      const bytes = await readBody(req, res);
      if (bytes === 'too large') return answer(res, 413, { success: false, message: BODY_TOO_LARGE_MESSAGE });
      let body: unknown;
      try {
        body = bytes === 'unreadable' ? undefined : JSON.parse(bytes.toString('utf8'));
      } catch {
        body = undefined;
      }
      // Not one JSON object (malformed, form-encoded, empty, a list, a string): said as such,
      // not as every field missing.
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return answer(res, 400, { success: false, message: WEBHOOK_INVALID_JSON_MESSAGE });
      const input = body as Record<string, unknown>;
      const unstorable = Object.entries(input).find(([, v]) => typeof v === 'string' && UNSTORABLE.test(v));
      if (unstorable) return answer(res, 400, refusal(unstorable[0], `${unstorable[0]} must be valid text without NUL characters`));
      const parsed = route.body.safeParse(input);
      if (!parsed.success) return answer(res, 400, webhookRefusal(parsed.error));

      const received = await receiveCall(ctx, vendor, parsed.data, idempotencyKey, req.id);
      switch (received.outcome) {
        case 'key reused':
          return answer(res, 409, { success: false, message: WEBHOOK_KEY_REUSED_MESSAGE, idempotency_key: idempotencyKey ?? '', callback_id: received.callbackId });
        case 'past callback time':
          return answer(res, 400, pastCallbackRefusal(received.callbackTime));
        case 'received':
          // Stripe's header for an answer given before: the same key and call, replayed.
          if (received.repeated) res.setHeader('Idempotent-Replayed', 'true');
          return answer(res, 200, { success: true, message: received.message, callback_id: received.callbackId });
      }
    } catch (err) {
      if (res.headersSent) {
        req.log.error({ err }, 'vendor webhook failed after answering');
        return;
      }
      if (asUnavailable(err)) {
        // Nothing was stored (the transaction did not commit): the vendor retries, and a repeat
        // that did commit unseen is answered with its callback_id.
        req.log.warn({ err }, 'vendor webhook: a dependency is unavailable; answered 503');
        res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
        return answer(res, 503, { success: false, message: WEBHOOK_FAILED_MESSAGE });
      }
      req.log.error({ err }, 'vendor webhook failed');
      answer(res, 500, { success: false, message: WEBHOOK_FAILED_MESSAGE });
    }
  }).router;
}
