import { withTransaction } from '@warmline/platform/db/index';
import { AppError, badRequest, conflict } from '@warmline/platform/errors';
import type { Identity } from '@warmline/platform/identity';
import { AGED_LEAD_AGE_RANGES, AGED_LEAD_PRICES_CENTS, formatUsd } from '@warmline/contracts';
import {
  LEAD_PURCHASE_ALREADY_PAID_MESSAGE,
  LEAD_PURCHASE_CANCELLED_MESSAGE,
  type CreateLeadOrderRequest,
  type LeadOrderLine,
} from '@warmline/contracts/catalog';
import { findOrder, markLeadOrderCancelled, type PackageOrder, type PaymentIntentRow } from '../db/orders';
import { findLeadOrderLines, insertLeadOrder } from '../db/lead-orders';
import type { OrdersContext } from './context';
import { announceOrderCreated, ensureIntent } from './package-orders';
import { recordBuyerDetails } from './order-buyers';
import type { UsersClient } from '../clients/users-client';

export interface CreateLeadOrderInput {
  request: CreateLeadOrderRequest;
  /** The buyer, as the catalog vouches for them with a signed identity. */
  buyer: Identity;
  correlationId: string;
}

/**
 * The catalog has reserved aged leads for a buyer and asks for the payment: record a pending
 * lead order (kind 'lead') and `order.created` in one transaction, then give it a payment
 * intent through the same provider as every checkout. The amount is recomputed here from the
 * pricing table; a line priced otherwise is refused. The order id is the catalog's reservation
 * id, so asking again (a retry after a lost answer) returns the same order and client secret.
 */
export async function createLeadOrder(
  ctx: OrdersContext & { users: UsersClient },
  input: CreateLeadOrderInput,
): Promise<{ order: PackageOrder; intent: PaymentIntentRow; replayed: boolean }> {
  const buyerUserId = input.buyer.userId;
  if (!buyerUserId) throw badRequest('A lead order needs a buyer');
  const priced = priceLeadOrder(input.request);

  let replayed = false;
  let order = await withTransaction(ctx.pool, async (db) => {
    const inserted = await insertLeadOrder(db, {
      id: input.request.orderId,
      buyerUserId,
      leadCount: priced.leadCount,
      unitPriceCents: priced.unitPriceCents,
      amountCents: priced.amountCents,
      description: priced.description,
      lines: priced.lines,
      provider: ctx.provider.name,
    });
    if (inserted) {
      await announceOrderCreated(db, inserted, input.correlationId);
    }
    return inserted;
  });
  if (order) {
    // The order names its buyer: the account's details, kept as its billing details (issue 22).
    await recordBuyerDetails(ctx.pool, ctx.users, { id: order.id, buyerUserId }, { log: ctx.log, correlationId: input.correlationId });
  } else {
    order = await findOrder(ctx.pool, input.request.orderId);
    if (!order) throw new Error('The lead order was neither inserted nor found');
    replayed = true;
    const sameLines = JSON.stringify(await findLeadOrderLines(ctx.pool, order.id)) === JSON.stringify(priced.lines);
    if (order.kind !== 'lead' || order.buyerUserId !== buyerUserId || order.amountCents !== priced.amountCents || !sameLines) {
      throw conflict('This order id was already used for a different order');
    }
  }
  if (order.cancelledAt) throw conflict(LEAD_PURCHASE_CANCELLED_MESSAGE);
  const intent = await ensureIntent(ctx, order);
  return { order, intent, replayed };
}

/**
 * The buyer cancelled an unpaid aged-lead purchase in My Orders (issue 22); the catalog asks
 * before it releases the leads. Under the order's row lock, so a payment being recorded at the
 * same moment either came first (409: it is paid, nothing is released) or finds it cancelled
 * (the sandbox refuses it; a payment Stripe took anyway is refunded in full by the catalog's
 * settlement). Cancelling again answers the same.
 */
export async function cancelLeadOrder(ctx: OrdersContext, orderId: string, buyer: Identity): Promise<PackageOrder> {
  return withTransaction(ctx.pool, async (db) => {
    const order = await findOrder(db, orderId, { forUpdate: true });
    if (!order || order.kind !== 'lead' || order.buyerUserId !== buyer.userId) throw new AppError('OrderNotFound', 'Purchase not found', 404);
    if (order.status === 'paid') throw conflict(LEAD_PURCHASE_ALREADY_PAID_MESSAGE);
    if (!order.cancelledAt) {
      await markLeadOrderCancelled(db, orderId);
      ctx.log.info({ orderId }, 'unpaid lead purchase cancelled by its buyer');
    }
    return (await findOrder(db, orderId)) ?? order;
  });
}

interface PricedLeadOrder {
  lines: LeadOrderLine[];
  leadCount: number;
  amountCents: number;
  unitPriceCents: number;
  description: string;
}

/** Prices the lines from the contracts table; the catalog's prices and total must agree. */
function priceLeadOrder(request: CreateLeadOrderRequest): PricedLeadOrder {
  const lines: LeadOrderLine[] = [];
  for (const range of AGED_LEAD_AGE_RANGES) {
    const line = request.lines.find((l) => l.ageRange === range);
    if (!line) continue;
    if (request.lines.filter((l) => l.ageRange === range).length > 1) throw badRequest(`Age range ${range} is listed twice`);
    const price = AGED_LEAD_PRICES_CENTS[range];
    if (line.unitPriceCents !== price) {
      throw badRequest(`Leads aged ${range} days cost ${formatUsd(price)} each, not ${formatUsd(line.unitPriceCents)}`);
    }
    lines.push({ ageRange: range, count: line.count, unitPriceCents: price });
  }
  const leadCount = lines.reduce((n, l) => n + l.count, 0);
  const amountCents = lines.reduce((sum, l) => sum + l.count * l.unitPriceCents, 0);
  if (amountCents !== request.amountCents) {
    throw badRequest(`Amount does not match the price: expected ${formatUsd(amountCents)}`);
  }
  const unitPriceCents = lines.length === 1 ? (lines[0]?.unitPriceCents ?? 0) : 0;
  const parts = lines.map((l) => `${l.count} × ${formatUsd(l.unitPriceCents)} (${l.ageRange} days)`).join(', ');
  return {
    lines,
    leadCount,
    amountCents,
    unitPriceCents,
    description: `Aged leads: ${leadCount} ${leadCount === 1 ? 'lead' : 'leads'} — ${parts}`,
  };
}
