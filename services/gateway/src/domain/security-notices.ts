import type { AccountSecurityChange } from '@warmline/contracts';
import { enqueue } from '@warmline/platform/bus/outbox';
import type { Queryable } from '@warmline/platform/db/index';
import { findUserById } from '../db/users';
import { SOURCE } from './context';

/**
 * Tells a user, by e-mail, that how they sign in changed (issue 22 item 12, docs/adr/0030): a
 * password reset or changed, two-factor turned on or off. Written as an `email.account_security`
 * command in the transaction that makes the change, so the e-mail goes exactly when the change
 * commits (ADR 0009: the gateway asks, notifications writes the words).
 */
export async function tellAccountSecurityChange(
  db: Queryable,
  input: { userId: string; change: AccountSecurityChange; correlationId: string; at?: Date },
): Promise<void> {
  const user = await findUserById(db, input.userId);
  if (!user?.email) return;
  await enqueue(db, {
    type: 'email.account_security',
    source: SOURCE,
    correlationId: input.correlationId,
    data: {
      to: user.email,
      name: user.firstName || user.username,
      username: user.username,
      change: input.change,
      changedAt: (input.at ?? new Date()).toISOString(),
    },
  });
}
