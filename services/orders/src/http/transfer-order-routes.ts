import { Router } from 'express';
import { parseInput } from '@warmline/platform/validation';
import { requireAdminIdentity, requireUserIdentity } from '@warmline/platform/http/identity';
import { callTransferOrderBody, centsToDecimal, type CallTransferOrderResponse } from '@warmline/contracts';
import { createTransferOrder, transferOrdersOverview, type TransferOrdersContext } from '../domain/transfer-orders';

/**
 * Live transfer orders (spec §7): `POST /api/call-transfer-order` for a logged-in agent and
 * `GET /api/transfer-orders` for admins. Both reach this service through the gateway.
 */
export function transferOrderRoutes(ctx: TransferOrdersContext): Router {
  const router = Router();

  router.post('/api/call-transfer-order', requireUserIdentity, async (req, res) => {
    const request = parseInput(callTransferOrderBody, req.body);
    const { order, intent, unitPriceCents } = await createTransferOrder(ctx, {
      request,
      buyer: req.identity!,
      correlationId: req.id,
    });
    const answer: CallTransferOrderResponse = {
      orderId: order.id,
      clientSecret: intent.clientSecret,
      totalPrice: centsToDecimal(order.amountCents),
      totalPriceCents: order.amountCents,
      unitPrice: centsToDecimal(unitPriceCents),
      totalTransfers: order.count,
      paymentProvider: intent.provider,
    };
    res.status(201).json(answer);
  });

  router.get('/api/transfer-orders', requireAdminIdentity, async (_req, res) => {
    res.json(await transferOrdersOverview(ctx));
  });

  return router;
}
