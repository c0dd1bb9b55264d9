import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError, badRequest, conflict } from '@warmline/platform/errors';
import type { EventData } from '@warmline/contracts';
import type { Identity } from '@warmline/platform/identity';
import { enqueue } from '@warmline/platform/bus/index';
import { withTransaction, type Pool } from '@warmline/platform/db/index';
import { claimPaidPackageOrder, findOrder, type PackageOrder } from '../db/orders';
import { SOURCE } from './context';
import { orderFacts } from './package-orders';

/**
 * The claim token of an order paid without a session (issue 17, ADR 0022): the reverse of the
 * RingCloud checkout token. Only the browser that opened the payment receives it (in the
 * payment intent's answer); once that buyer has an account and is logged in, it attaches the
 * paid order to that account. Never by matching e-mail.
 *
 * `oc1.<orderId>.<expiresAt>.<mac>`: an HMAC keyed with this service's own key (ORDERS_SERVICE_KEY),
 * over its own purpose prefix, so it can pass neither for a forwarded identity nor for a
 * checkout token. It claims its one order once: the order is attached only while it has no
 * buyer, so a second use (or a second account) finds it taken.
 */

const ORDER_CLAIM_TTL_SECONDS = 7 * 24 * 60 * 60;
const PREFIX = 'oc1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function mac(secret: string, orderId: string, expiresAt: number): string {
  return createHmac('sha256', secret).update(`${PREFIX}:order-claim:${orderId}:${expiresAt}`).digest('base64url');
}

/** Valid for a week from the order's creation, so a retried payment intent answers the same token. */
export function signOrderClaim(secret: string, order: { id: string; createdAt: Date }): string {
  const orderId = order.id;
  const expiresAt = Math.floor(order.createdAt.getTime() / 1000) + ORDER_CLAIM_TTL_SECONDS;
  return `${PREFIX}.${orderId}.${expiresAt}.${mac(secret, orderId, expiresAt)}`;
}

/** True when `token` was signed for `orderId` and has not expired. */
function verifyOrderClaim(secret: string, token: string, orderId: string, now = Date.now()): boolean {
  const [prefix, id, expires, signature, extra] = token.split('.');
  if (prefix !== PREFIX || !id || !expires || !signature || extra !== undefined) return false;
  if (!UUID.test(id) || id !== orderId || !/^\d{1,12}$/.test(expires)) return false;
  const expiresAt = Number(expires);
  const expected = Buffer.from(mac(secret, id, expiresAt));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
  return expiresAt * 1000 >= now;
}

const CLAIM_MESSAGES = {
  invalid: 'This order cannot be added to an account from here: the claim link is not valid or has expired',
  notPaid: 'Only a paid order can be added to your account',
  taken: 'This order already belongs to another account',
} as const;

/**
 * Attaches a paid anonymous order to the logged-in `buyer`. Claiming an order that is already
 * theirs answers the same (a repeated click); someone else's, or a forged token, is refused.
 * The claim that attaches it also writes `order.claimed` in its transaction (outbox), so the
 * catalog credits a Call-Backs order to its new buyer exactly when, and only once, it is theirs.
 */
export async function claimOrder(
  pool: Pool,
  secret: string,
  input: { orderId: string; claimToken: string; buyer: Identity & { userId: string }; correlationId: string },
): Promise<PackageOrder> {
  if (!verifyOrderClaim(secret, input.claimToken, input.orderId)) throw new AppError('ClaimInvalid', CLAIM_MESSAGES.invalid, 403);
  return withTransaction(pool, async (db) => {
    const claimedAt = await claimPaidPackageOrder(db, input.orderId, input.buyer.userId);
    const order = await findOrder(db, input.orderId);
    if (!order) throw new AppError('OrderNotFound', 'Order not found', 404);
    if (claimedAt) {
      const claimed: EventData<'order.claimed'> = {
        ...orderFacts(order),
        buyerUserId: input.buyer.userId,
        claimedAt: claimedAt.toISOString(),
      };
      await enqueue(db, { type: 'order.claimed', data: claimed, correlationId: input.correlationId, source: SOURCE });
      return order;
    }
    if (order.buyerUserId === input.buyer.userId) return order;
    if (order.buyerUserId !== null) throw conflict(CLAIM_MESSAGES.taken);
    throw badRequest(CLAIM_MESSAGES.notPaid);
  });
}
