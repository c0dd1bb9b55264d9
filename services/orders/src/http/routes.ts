import type { KeyObject } from 'node:crypto';
import type { Request, Router } from 'express';
import { z } from 'zod';
import { badRequest } from '@warmline/platform/errors';
import { forwardedAsker } from '@warmline/platform/http/identity';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import { verifyCheckoutToken } from '@warmline/platform/checkout-token';
import {
  IDEMPOTENCY_KEY_HEADER,
  type ClaimOrderResponse,
  type CreatePaymentIntentResponse,
  orderBrandOf,
  type OrderStatusResponse,
  type PaymentConfigResponse,
} from '@warmline/contracts';
import type { OrdersContext } from '../domain/context';
import { createPackageOrder } from '../domain/package-orders';
import { orderForStatus, transferDetailsOf } from '../domain/order-status';
import { confirmSandboxPayment } from '../domain/payments';
import { claimOrder, signOrderClaim } from '../domain/order-claim';

const uuid = z.uuid();

/**
 * The orders API, mounted from the route manifest (who may call, path ids and bodies are
 * checked there). Every route is reached through the gateway with its signed identity; the
 * checkouts are public pages, so an anonymous visitor (userId null) may buy.
 */
export function ordersRoutes(ctx: OrdersContext & { gatewayKey: KeyObject; claimSecret: string }): Router {
  const paymentConfig = (): PaymentConfigResponse => ctx.provider.publicConfig();
  return (
    manifestRoutes('orders', forwardedAsker)
      .on('GET /api/config', paymentConfig)
      // Also under /api/payments/config, in case the gateway answers /api/config itself (site settings).
      .on('GET /api/payments/config', paymentConfig)
      .on('POST /api/create-payment-intent', async ({ caller, body: request, req, res, correlationId }) => {
        const idempotencyKey = idempotencyKeyOf(req, request.idempotencyKey);
        const { order, intent, replayed } = await createPackageOrder(ctx, {
          request,
          idempotencyKey,
          buyer: caller,
          // Forged, expired or for another purpose: null, and the order is simply not linked.
          checkoutToken: verifyCheckoutToken(ctx.gatewayKey, request.checkoutToken, 'ringcloud-checkout'),
          correlationId,
        });
        const answer: CreatePaymentIntentResponse = {
          clientSecret: intent.clientSecret,
          orderId: order.id,
          amount: order.amountCents / 100,
          amountCents: order.amountCents,
          currency: order.currency,
          paymentProvider: intent.provider,
          // Only an order without a buyer can be claimed, and only by the browser that opened it.
          ...(order.kind === 'package' && order.buyerUserId === null ? { claimToken: signOrderClaim(ctx.claimSecret, order) } : {}),
        };
        if (replayed) res.setHeader('Idempotent-Replayed', 'true');
        res.status(replayed ? 200 : 201);
        return answer;
      })
      .on('POST /api/payments/sandbox/confirm', ({ body, correlationId }) => confirmSandboxPayment(ctx, body, correlationId))
      .on('GET /api/orders/{id}/status', async ({ caller, params }) => {
        const order = await orderForStatus(ctx, params.id, caller);
        // A transfer order always has its agent as buyer, so only they (and admins) get this far.
        const transfer = await transferDetailsOf(ctx, order);
        const answer: OrderStatusResponse = {
          orderId: order.id,
          brand: orderBrandOf(order.tier),
          kind: order.kind,
          status: order.status,
          tier: order.tier,
          count: order.count,
          unitPriceCents: order.unitPriceCents,
          amountCents: order.amountCents,
          currency: order.currency,
          description: order.description,
          createdAt: order.createdAt.toISOString(),
          paidAt: order.paidAt?.toISOString() ?? null,
          failureMessage: order.failureMessage,
          transfer: transfer
            ? {
                totalTransfers: transfer.totalTransfers,
                transfersPerDay: transfer.transfersPerDay,
                states: transfer.selectedStates,
                transferHours: transfer.transferHours,
                transferPhone: transfer.transferNumber,
              }
            : null,
          leadPackage:
            order.kind === 'package' && order.tier === 'ringcloud' && order.leadType === 'Aged Leads'
              ? { ordered: order.count, delivered: order.leadsDelivered, states: order.states }
              : null,
        };
        return answer;
      })
      .on('POST /api/orders/{id}/claim', async ({ caller, params, body, correlationId }) => {
        const order = await claimOrder(ctx.pool, ctx.claimSecret, {
          orderId: params.id,
          claimToken: body.claimToken,
          buyer: caller,
          correlationId,
        });
        const answer: ClaimOrderResponse = { orderId: order.id, claimed: true };
        return answer;
      }).router
  );
}

/** The key from the body or the Idempotency-Key header (they must agree when both are sent). */
function idempotencyKeyOf(req: Request, fromBody: string | undefined): string | undefined {
  const header = req.header(IDEMPOTENCY_KEY_HEADER)?.trim();
  if (!header) return fromBody;
  if (!uuid.safeParse(header).success) throw badRequest('Idempotency key must be a UUID');
  const key = header.toLowerCase();
  if (fromBody && fromBody.toLowerCase() !== key) {
    throw badRequest('The Idempotency-Key header and the idempotencyKey in the body differ');
  }
  return key;
}
