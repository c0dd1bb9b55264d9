import { Router } from 'express';
import { parseInput } from '@warmline/platform/http/validation';
import { requireUserIdentity } from '@warmline/platform/http/identity';
import { createLeadOrderBody, type CreateLeadOrderResponse } from '@warmline/contracts/catalog';
import type { OrdersContext } from '../domain/context';
import type { UsersClient } from '../clients/users-client';
import { createLeadOrder } from '../domain/lead-orders';
import { latestTransferOrderStates } from '../db/transfer-orders';

const INTERNAL_LEAD_ORDERS_PATH = '/api/internal/lead-orders';
/** The states of the signed agent's latest transfer order (the catalog's call-backs start there). */
const INTERNAL_TRANSFER_STATES_PATH = '/api/internal/my-transfer-states';

/**
 * `POST /api/internal/lead-orders`: called by the catalog service, never by a browser — the
 * gateway's forwarding table has no /api/internal route, so only a service holding the
 * identity secret reaches it. The signed identity names the buyer.
 */
export function internalLeadOrderRoutes(ctx: OrdersContext & { users: UsersClient }): Router {
  const router = Router();
  router.post(INTERNAL_LEAD_ORDERS_PATH, requireUserIdentity, async (req, res) => {
    const request = parseInput(createLeadOrderBody, req.body);
    const buyer = req.identity;
    if (!buyer) throw new Error('requireUserIdentity let a request without identity through');
    const { order, intent, replayed } = await createLeadOrder(ctx, { request, buyer, correlationId: req.id });
    const answer: CreateLeadOrderResponse = {
      orderId: order.id,
      clientSecret: intent.clientSecret,
      amountCents: order.amountCents,
      leadCount: order.count,
      paymentProvider: intent.provider,
    };
    res.status(replayed ? 200 : 201).json(answer);
  });
  router.get(INTERNAL_TRANSFER_STATES_PATH, requireUserIdentity, async (req, res) => {
    const agent = req.identity;
    if (!agent?.userId) throw new Error('requireUserIdentity let a request without identity through');
    res.setHeader('cache-control', 'no-store');
    res.json({ states: await latestTransferOrderStates(ctx.pool, agent.userId) });
  });
  return router;
}
