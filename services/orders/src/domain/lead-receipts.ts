import { enqueue } from '@warmline/platform/bus/index';
import type { PoolClient } from '@warmline/platform/db/index';
import { AppError } from '@warmline/platform/errors';
import type { Logger } from '@warmline/platform/log';
import type { CommandData } from '@warmline/contracts';
import type { UsersClient } from '../clients/users-client';
import type { PackageOrder } from '../db/orders';
import { SOURCE } from './context';

/*
 * What a settled lead order and a settled Aged Leads package share: who to write to, and the
 * receipt listing the leads.
 */

/** The consumer's transaction and log for one settlement command. */
interface SettlementHandler {
  db: PoolClient;
  log: Logger;
  correlationId: string;
}

/**
 * The account's address and first name, as it uses them now. An account deleted since has nowhere
 * to write to (logged, null); the gateway being away is retried (thrown).
 */
export async function accountContact(users: UsersClient, userId: string, handler: Omit<SettlementHandler, 'db'>): Promise<{ email: string; name: string } | null> {
  try {
    const profile = await users.buyerProfile({ userId, username: null, isAdmin: false }, handler.correlationId);
    return { email: profile.email, name: profile.firstName };
  } catch (err) {
    if (err instanceof AppError && err.status === 401) {
      handler.log.warn({ userId }, 'the buyer of aged leads has no account any more; no receipt sent');
      return null;
    }
    throw err;
  }
}

/** The receipt listing the leads, written in the settlement's transaction. */
export async function writeLeadsReceipt(
  handler: SettlementHandler,
  buyer: { email: string; name: string },
  order: PackageOrder,
  receipt: Omit<CommandData<'email.leads_receipt'>, 'to' | 'name' | 'orderId' | 'paidCents' | 'paidAt'>,
): Promise<void> {
  await enqueue(handler.db, {
    type: 'email.leads_receipt',
    source: SOURCE,
    correlationId: handler.correlationId,
    data: {
      to: buyer.email,
      name: buyer.name,
      orderId: order.id,
      paidCents: order.amountCents,
      paidAt: (order.paidAt ?? new Date()).toISOString(),
      ...receipt,
    },
  });
}
