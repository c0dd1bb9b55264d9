import type { Pool, Queryable } from '@warmline/platform/db/index';
import type { Logger } from '@warmline/platform/log';
import { AppError } from '@warmline/platform/errors';
import type { BillingDetails, BuyerProfile } from '@warmline/contracts';
import { ordersMissingBuyerDetails, updateBilling } from '../db/orders';
import type { UsersClient } from '../clients/users-client';

/**
 * Every order names its buyer (issue 22): an order bought from an account (aged leads, a claimed
 * checkout) keeps the account's name, e-mail and phone as its billing details, read from the
 * gateway (owner of users) once — no SQL across schemas, no projection of every account. Details
 * the buyer typed at the checkout are never overwritten (docs/adr/0029).
 */
function accountBillingDetails(profile: BuyerProfile): BillingDetails {
  const name = `${profile.firstName} ${profile.lastName}`.trim();
  return {
    ...(name ? { name } : {}),
    ...(profile.email ? { email: profile.email } : {}),
    ...(profile.phone ? { phone: profile.phone } : {}),
  };
}

type BuyerLookup = { found: true; billing: BillingDetails } | { found: false };

async function lookUpBuyer(users: UsersClient, userId: string, correlationId: string): Promise<BuyerLookup> {
  try {
    const profile = await users.buyerProfile({ userId, username: null, isAdmin: false }, correlationId);
    return { found: true, billing: accountBillingDetails(profile) };
  } catch (err) {
    // The account was deleted: there is nothing to copy, now or later.
    if (err instanceof AppError && err.status === 401) return { found: false };
    throw err;
  }
}

/**
 * Copies the buyer's account details onto a new order. Best effort: the gateway being away must
 * not stop a purchase; `fillMissingBuyerDetails` completes the order later.
 */
export async function recordBuyerDetails(
  db: Queryable,
  users: UsersClient,
  order: { id: string; buyerUserId: string },
  handler: { log: Logger; correlationId: string },
): Promise<void> {
  try {
    const lookup = await lookUpBuyer(users, order.buyerUserId, handler.correlationId);
    if (lookup.found) await updateBilling(db, order.id, lookup.billing);
  } catch (err) {
    handler.log.warn({ err, orderId: order.id }, 'the buyer of an order could not be read from the gateway; filled in later');
  }
}

/**
 * Orders with an account but no billing e-mail (aged-lead orders from before issue 22, or whose
 * purchase found the gateway away) get their buyer's details, `batch` at a time. Accounts found
 * deleted are remembered in `gone` so they are not asked for again. Returns how many were filled.
 */
export async function fillMissingBuyerDetails(
  pool: Pool,
  users: UsersClient,
  options: { log: Logger; batch?: number; gone?: Set<string> },
): Promise<number> {
  const gone = options.gone ?? new Set<string>();
  const missing = await ordersMissingBuyerDetails(pool, [...gone], options.batch ?? 200);
  const byBuyer = new Map<string, string[]>();
  for (const o of missing) byBuyer.set(o.buyerUserId, [...(byBuyer.get(o.buyerUserId) ?? []), o.id]);
  let filled = 0;
  for (const [userId, orderIds] of byBuyer) {
    const lookup = await lookUpBuyer(users, userId, `fill-buyer-details-${userId}`);
    if (!lookup.found) {
      gone.add(userId);
      continue;
    }
    for (const id of orderIds) await updateBilling(pool, id, lookup.billing);
    filled += orderIds.length;
  }
  if (filled) options.log.info({ filled }, 'orders given their buyer from the account');
  return filled;
}
