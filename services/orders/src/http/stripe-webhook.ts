import express, { Router } from 'express';
import Stripe from 'stripe';
import { z } from 'zod';
import { AppError, badRequest } from '@warmline/platform/errors';
import { forwardedAsker, requireForwardedIdentity, type IdentityCheck } from '@warmline/platform/http/identity';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import type { OrdersContext } from '../domain/context';
import { handleStripeEvent } from '../domain/payments';

const STRIPE_WEBHOOK_PATH = '/api/webhooks/stripe';

const NOT_AN_EVENT = 'Not a Stripe event: it needs an id, a type and a data.object';
/**
 * The envelope every Stripe event has. constructEvent proves who signed the bytes, not that
 * they are an event: a signed hand-made test event without data.object was a 500 (issue 26).
 */
const stripeEventEnvelope = z.looseObject({
  id: z.string().min(1),
  type: z.string().min(1),
  data: z.looseObject({ object: z.looseObject({}) }),
});

/**
 * `POST /api/webhooks/stripe`, mounted before the JSON parser: Stripe signs the exact bytes
 * it sent, so the body is read raw and verified before anything parses it. It comes through
 * the gateway (anonymous identity, body streamed untouched). Each event id is handled once;
 * a repeat answers 200 and changes nothing, so Stripe stops retrying it.
 */
export function stripeWebhookRoutes(ctx: OrdersContext, options: { identity: IdentityCheck; webhookSecret: string | undefined }): Router {
  const router = Router();
  // The app checks the gateway's identity only after the body parsers, and Stripe's bytes must stay raw: both here, first.
  router.use(STRIPE_WEBHOOK_PATH, requireForwardedIdentity(options.identity), express.raw({ type: () => true, limit: '1mb' }));
  const webhook = manifestRoutes('orders', forwardedAsker).on(`POST ${STRIPE_WEBHOOK_PATH}`, async ({ caller, req, res, correlationId }) => {
    if (!options.webhookSecret) {
      // A 5xx makes Stripe retry, so events sent before the secret is configured are not lost.
      throw new AppError('WebhookNotConfigured', 'Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET)', 503);
    }
    const { signature } = caller;
    if (!signature) throw badRequest('Missing Stripe-Signature header');
    const payload: unknown = req.body;
    if (!Buffer.isBuffer(payload) || payload.length === 0) throw badRequest('Empty webhook body');

    let event: Stripe.Event;
    try {
      event = Stripe.webhooks.constructEvent(payload, signature, options.webhookSecret);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      req.log.warn({ reason }, 'stripe webhook refused');
      // Stripe's first sentence says what was wrong; the rest is advice for developers.
      throw badRequest(`Invalid Stripe signature: ${reason.trim().split(/(?<=\.)\s/)[0] ?? 'verification failed'}`);
    }

    if (!stripeEventEnvelope.safeParse(event).success) throw badRequest(NOT_AN_EVENT);

    const result = await handleStripeEvent(ctx, event, correlationId);
    req.log.info({ eventId: event.id, type: event.type, outcome: result.outcome }, 'stripe webhook handled');
    return { received: true, outcome: result.outcome };
  });
  router.use(webhook.router);
  return router;
}
