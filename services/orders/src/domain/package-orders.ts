import { randomUUID } from 'node:crypto';
import { withTransaction, type Queryable } from '@warmline/platform/db/index';
import { enqueue } from '@warmline/platform/bus/index';
import { AppError, badRequest, conflict, unauthorized } from '@warmline/platform/errors';
import type { Identity } from '@warmline/platform/identity';
import type { CheckoutTokenClaims } from '@warmline/platform/checkout-token';
import {
  AGED_LEAD_AGE_RANGES,
  parseWorkingStates,
  type AgedLeadAgeRange,
  type CreatePaymentIntentRequest,
  type EventData,
  type PackageQuote,
} from '@warmline/contracts';
import {
  attachIntent,
  findIntentOfOrder,
  findOrder,
  findOrderByIdempotencyKey,
  insertPackageOrder,
  insertPaymentIntent,
  recordOrderCorrelation,
  type PackageOrder,
  type PaymentIntentRow,
} from '../db/orders';
import { linkOrderByCheckoutToken } from '../db/my-orders';
import { SOURCE, type OrdersContext } from './context';

export interface CreatePackageOrderInput {
  /** The parsed body: it already carries the server's quote (the browser's amount matched it). */
  request: CreatePaymentIntentRequest;
  /** From the body or the Idempotency-Key header; the same key gives back the same order. */
  idempotencyKey: string | undefined;
  buyer: Identity;
  /**
   * The second brand's one-time checkout token, already verified (signature, purpose, expiry):
   * an anonymous visitor's RingCloud order is linked to the account it names, once per token.
   */
  checkoutToken?: CheckoutTokenClaims | null;
  correlationId: string;
}

export interface PackageOrderWithIntent {
  order: PackageOrder;
  intent: PaymentIntentRow;
  /** True when this answered a retry of an earlier request. */
  replayed: boolean;
}

/**
 * A checkout asks to pay: record the pending order and `order.created` in one transaction,
 * then give it a payment intent at the provider. A retry with the same idempotency key
 * returns the same order and client secret, also when the first attempt died half-way
 * (order recorded, intent not yet created).
 */
export async function createPackageOrder(ctx: OrdersContext, input: CreatePackageOrderInput): Promise<PackageOrderWithIntent> {
  const { quote, billing } = input.request;
  const key = input.idempotencyKey;
  // WarmLine's Call-Backs are a dashboard product: they are credited to the agent who buys them.
  if (quote.tier === 'callbacks' && input.buyer.userId === null) throw unauthorized('Please log in to buy call-backs');
  const states = packageStates(quote, input.request.states);

  // A session wins over a token; a token links only the checkout it was signed for.
  const token = input.buyer.userId === null && quote.tier === 'ringcloud' ? (input.checkoutToken ?? null) : null;
  let order = key ? await findOrderByIdempotencyKey(ctx.pool, key) : null;
  let replayed = order !== null;
  if (!order) {
    order = await withTransaction(ctx.pool, async (db) => {
      let inserted = await insertPackageOrder(db, {
        id: randomUUID(),
        quote,
        states,
        buyerUserId: input.buyer.userId,
        billing,
        idempotencyKey: key,
        provider: ctx.provider.name,
      });
      if (inserted && token) {
        // A token used before links nothing: the visitor still pays, as an anonymous buyer.
        const linked = await linkOrderByCheckoutToken(db, { orderId: inserted.id, tokenId: token.tokenId, userId: token.userId });
        if (linked) inserted = linked;
        else ctx.log.warn({ orderId: inserted.id, tokenId: token.tokenId }, 'a checkout token was used again; the order is not linked');
      }
      if (inserted) {
        await announceOrderCreated(db, inserted, input.correlationId);
      }
      return inserted;
    });
    if (!order && key) {
      // A concurrent request with the same key committed first.
      order = await findOrderByIdempotencyKey(ctx.pool, key);
      replayed = true;
    }
    if (!order) throw new Error('The order was neither inserted nor found');
  }
  if (replayed) assertSameOrder(order, quote, states, input.buyer, token?.userId ?? null);

  const intent = await ensureIntent(ctx, order);
  return { order, intent, replayed };
}

/** The same key must mean the same purchase by the same buyer; anything else is a client bug or a guess. */
function assertSameOrder(order: PackageOrder, quote: PackageQuote, states: string[] | null, buyer: Identity, tokenBuyerId: string | null): void {
  const same =
    (order.states ?? []).join(',') === (states ?? []).join(',') &&
    order.tier === quote.tier &&
    order.count === quote.count &&
    order.amountCents === quote.amountCents &&
    order.leadType === (quote.leadType ?? null) &&
    order.ageRange === (quote.ageRange ?? null) &&
    // A retry of a checkout its token linked is the same buyer's.
    (order.buyerUserId === buyer.userId || (tokenBuyerId !== null && order.buyerUserId === tokenBuyerId));
  if (!same) throw conflict('This idempotency key was already used for a different order');
}

/**
 * The states a RingCloud Aged Leads package is filled from (issue 22): the buyer's choice, as
 * 2-letter codes; anything that is no US state is refused with a message naming it. None given:
 * null, every state (a checkout that asks for none). Other orders keep no states.
 */
function packageStates(quote: PackageQuote, given: CreatePaymentIntentRequest['states']): string[] | null {
  if (quote.tier !== 'ringcloud' || quote.leadType !== 'Aged Leads' || given === undefined) return null;
  if (typeof given === 'string' && given.trim() === '') return null;
  if (Array.isArray(given) && given.length === 0) return null;
  const parsed = parseWorkingStates(given, 'Please choose the states your leads should come from');
  if (!parsed.ok) throw badRequest(parsed.message, { field: 'states' });
  return parsed.states;
}

/** One intent per order, created under the order's row lock so concurrent retries cannot make two. */
export async function ensureIntent(ctx: OrdersContext, order: PackageOrder): Promise<PaymentIntentRow> {
  return withTransaction(ctx.pool, async (db) => {
    await findOrder(db, order.id, { forUpdate: true });
    const existing = await findIntentOfOrder(db, order.id);
    if (existing) return existing;
    let created;
    try {
      created = await ctx.provider.createIntent({
        orderId: order.id,
        amountCents: order.amountCents,
        currency: order.currency,
        description: order.description,
        // Per order, so a retry after a lost answer finds the intent Stripe already made.
        idempotencyKey: `warmline-order-${order.id}`,
        metadata: intentMetadata(order),
        ...(order.billingEmail ? { receiptEmail: order.billingEmail } : {}),
      });
    } catch (err) {
      ctx.log.error({ err: err instanceof AppError && err.cause ? err.cause : err, orderId: order.id, provider: ctx.provider.name }, 'creating the payment intent failed');
      throw err;
    }
    const intent = await insertPaymentIntent(db, {
      id: created.id,
      provider: ctx.provider.name,
      orderId: order.id,
      clientSecret: created.clientSecret,
      amountCents: order.amountCents,
    });
    await attachIntent(db, order.id, created.id);
    return intent;
  });
}

function intentMetadata(order: PackageOrder): Record<string, string> {
  return {
    orderId: order.id,
    tier: order.tier,
    count: String(order.count),
    ...(order.leadType ? { leadType: order.leadType } : {}),
    ...(order.ageRange ? { ageRange: order.ageRange } : {}),
  };
}

/** What every order event says about an order: facts, not the buyer's contact (it stays here). */
/**
 * order.created, with the purchase's correlation id kept on the order: the order's payment
 * events carry the same id, so an analyst follows one purchase by one id (docs/adr/0030).
 */
export async function announceOrderCreated(db: Queryable, order: PackageOrder, correlationId: string): Promise<void> {
  await recordOrderCorrelation(db, order.id, correlationId);
  await enqueue(db, { type: 'order.created', data: orderFacts(order), correlationId, source: SOURCE });
}

export function orderFacts(order: PackageOrder): EventData<'order.created'> {
  return {
    orderId: order.id,
    kind: order.kind,
    tier: order.tier,
    count: order.count,
    unitPriceCents: order.unitPriceCents,
    amountCents: order.amountCents,
    currency: order.currency,
    description: order.description,
    buyerUserId: order.buyerUserId,
    hasBillingEmail: order.billingEmail !== null,
    // The catalog fills a paid Aged Leads package from the range named here.
    ...(order.leadType ? { leadType: order.leadType } : {}),
    ...(isAgeRange(order.ageRange) ? { ageRange: order.ageRange } : {}),
    // ... and only from these states (issue 22); absent: every state.
    ...(order.states && order.states.length > 0 ? { states: order.states } : {}),
  };
}

function isAgeRange(range: string | null): range is AgedLeadAgeRange {
  return (AGED_LEAD_AGE_RANGES as readonly (string | null)[]).includes(range);
}
