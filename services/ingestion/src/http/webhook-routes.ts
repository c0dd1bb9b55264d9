import type { Router } from 'express';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  pastCallbackRefusal,
  WEBHOOK_KEY_REUSED_MESSAGE,
  WEBHOOK_UNAUTHORIZED_MESSAGE,
  webhookRefusal,
  type WebhookAccepted,
  type WebhookKeyConflict,
} from '@warmline/contracts';
import { IDENTITY_HEADER, verifyIdentity, type IdentityCheck } from '@warmline/platform/http/identity';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import { answerVendor, answerVendorFailure, fieldRefusal, readVendorObject } from '@warmline/platform/http/vendor-calls';
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

export function webhookRoutes(ctx: IngestionContext, identity: IdentityCheck): Router {
  // Before the kit's identity check: the vendor hears a missing signature in the webhook's shape.
  return manifestRoutes('ingestion', () => ANONYMOUS).on('POST /api/callbacks/brightcall', async ({ caller, route, req, res }) => {
    try {
      // Reached through the gateway only (its throttle, its body limit): it signs every call.
      if (!verifyIdentity(identity, req.header(IDENTITY_HEADER))) return answerVendor(res, 401, { success: false, message: WEBHOOK_UNAUTHORIZED_MESSAGE });
      const vendor = await vendorOfKey(ctx, ctx.pool, caller.presentedKey);
      if (!vendor) return answerVendor(res, 401, { success: false, message: WEBHOOK_UNAUTHORIZED_MESSAGE });

      const idempotencyKey = req.header('idempotency-key') ?? null;
      if (idempotencyKey !== null && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
        return answerVendor(res, 400, fieldRefusal([{ field: IDEMPOTENCY_KEY_HEADER, message: `${IDEMPOTENCY_KEY_HEADER} must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters` }]));
      }

      const input = await readVendorObject(req, res);
      if (input === 'answered') return;
      const parsed = route.body.safeParse(input);
      if (!parsed.success) return answerVendor(res, 400, webhookRefusal(parsed.error));

      const received = await receiveCall(ctx, vendor, parsed.data, idempotencyKey, req.id);
      switch (received.outcome) {
        case 'key reused':
          return answerVendor(res, 409, { success: false, message: WEBHOOK_KEY_REUSED_MESSAGE, idempotency_key: idempotencyKey ?? '', callback_id: received.callbackId } satisfies WebhookKeyConflict);
        case 'past callback time':
          return answerVendor(res, 400, pastCallbackRefusal(received.callbackTime));
        case 'received':
          // Stripe's header for an answer given before: the same key and call, replayed.
          if (received.repeated) res.setHeader('Idempotent-Replayed', 'true');
          return answerVendor(res, 200, { success: true, message: received.message, callback_id: received.callbackId } satisfies WebhookAccepted);
      }
    } catch (err) {
      // A dependency away: nothing was stored (no commit); the vendor retries, and a repeat that
      // did commit unseen is answered with its callback_id.
      answerVendorFailure(err, req, res, 'vendor webhook');
    }
  }).router;
}
