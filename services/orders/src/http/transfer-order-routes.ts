import type { Router } from 'express';
import { forwardedAsker } from '@warmline/platform/http/identity';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import { centsToDecimal, type CallTransferOrderResponse } from '@warmline/contracts';
import { createTransferOrder, transferOrdersOverview, type TransferOrdersContext } from '../domain/transfer-orders';

/**
 * Live transfer orders (spec §7): `POST /api/call-transfer-order` for a logged-in agent and
 * `GET /api/transfer-orders` for admins. Both reach this service through the gateway.
 */
export function transferOrderRoutes(ctx: TransferOrdersContext): Router {
  return manifestRoutes('orders', forwardedAsker)
    .on('POST /api/call-transfer-order', async ({ caller, body, res, correlationId }) => {
      const { order, intent, unitPriceCents } = await createTransferOrder(ctx, { request: body, buyer: caller, correlationId });
      const answer: CallTransferOrderResponse = {
        orderId: order.id,
        clientSecret: intent.clientSecret,
        totalPrice: centsToDecimal(order.amountCents),
        totalPriceCents: order.amountCents,
        unitPrice: centsToDecimal(unitPriceCents),
        totalTransfers: order.count,
        paymentProvider: intent.provider,
      };
      res.status(201);
      return answer;
    })
    .on('GET /api/transfer-orders', () => transferOrdersOverview(ctx)).router;
}
