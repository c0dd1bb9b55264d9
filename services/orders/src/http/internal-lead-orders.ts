import { Router } from 'express';
import { z } from 'zod';
import { badRequest } from '@warmline/platform/errors';
import { parseInput } from '@warmline/platform/validation';
import { acceptServiceCallers, requireUserIdentity } from '@warmline/platform/http/identity';
import { createLeadOrderBody, type CancelLeadOrderResponse, type CreateLeadOrderResponse } from '@warmline/contracts/catalog';
import { PAID_CALL_BACKS_ORDERS_LIMIT, type PaidCallBacksOrdersAnswer } from '@warmline/contracts/callbacks';
import type { OrdersContext } from '../domain/context';
import type { UsersClient } from '../clients/users-client';
import { cancelLeadOrder, createLeadOrder } from '../domain/lead-orders';
import { latestTransferOrderDelivery, latestTransferOrderStates } from '../db/read-models/agent-orders';
import { paidCallBacksOrders } from '../db/read-models/agent-orders';

const INTERNAL_LEAD_ORDERS_PATH = '/api/internal/lead-orders';
/** The states of the signed agent's latest transfer order (the catalog's call-backs start there). */
const INTERNAL_TRANSFER_STATES_PATH = '/api/internal/my-transfer-states';
/** The delivery details of the signed agent's latest transfer order (the transfers service suggests settings from them). */
const INTERNAL_LATEST_TRANSFER_ORDER_PATH = '/api/internal/my-latest-transfer-order';
/** The signed buyer's paid Call-Backs orders (My Call-backs shows those not credited yet, issue 22). */
const INTERNAL_PAID_CALL_BACKS_ORDERS_PATH = '/api/internal/my-paid-call-backs-orders';

/**
 * `POST /api/internal/lead-orders`: called by the catalog service, never by a browser — the
 * gateway's forwarding table has no /api/internal route. Each route names the one service that
 * calls it, with its own key (docs/adr/0042); the call names the buyer it acts for.
 */
export function internalLeadOrderRoutes(ctx: OrdersContext & { users: UsersClient }): Router {
  const router = Router();
  router.post(INTERNAL_LEAD_ORDERS_PATH, acceptServiceCallers('catalog'), requireUserIdentity, async (req, res) => {
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
  // The buyer cancelled the purchase in My Orders (issue 22): it can no longer be paid.
  router.post(`${INTERNAL_LEAD_ORDERS_PATH}/:orderId/cancel`, acceptServiceCallers('catalog'), requireUserIdentity, async (req, res) => {
    const orderId = z.uuid().safeParse(req.params.orderId);
    if (!orderId.success) throw badRequest('Order id must be a UUID');
    const buyer = req.identity;
    if (!buyer) throw new Error('requireUserIdentity let a request without identity through');
    const order = await cancelLeadOrder(ctx, orderId.data.toLowerCase(), buyer);
    const answer: CancelLeadOrderResponse = { orderId: order.id, cancelledAt: (order.cancelledAt ?? new Date()).toISOString() };
    res.json(answer);
  });
  router.get(INTERNAL_TRANSFER_STATES_PATH, acceptServiceCallers('catalog'), requireUserIdentity, async (req, res) => {
    const agent = req.identity;
    if (!agent?.userId) throw new Error('requireUserIdentity let a request without identity through');
    res.setHeader('cache-control', 'no-store');
    res.json({ states: await latestTransferOrderStates(ctx.pool, agent.userId) });
  });
  router.get(INTERNAL_LATEST_TRANSFER_ORDER_PATH, acceptServiceCallers('transfers'), requireUserIdentity, async (req, res) => {
    const agent = req.identity;
    if (!agent?.userId) throw new Error('requireUserIdentity let a request without identity through');
    res.setHeader('cache-control', 'no-store');
    res.json({ order: await latestTransferOrderDelivery(ctx.pool, agent.userId) });
  });
  router.get(INTERNAL_PAID_CALL_BACKS_ORDERS_PATH, acceptServiceCallers('catalog'), requireUserIdentity, async (req, res) => {
    const buyer = req.identity;
    if (!buyer?.userId) throw new Error('requireUserIdentity let a request without identity through');
    const orders = await paidCallBacksOrders(ctx.pool, buyer.userId, PAID_CALL_BACKS_ORDERS_LIMIT);
    const answer: PaidCallBacksOrdersAnswer = { orders: orders.map((o) => ({ orderId: o.id, count: o.count, paidAt: o.paidAt.toISOString() })) };
    res.setHeader('cache-control', 'no-store');
    res.json(answer);
  });
  return router;
}
