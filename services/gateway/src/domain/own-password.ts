import { CURRENT_PASSWORD_INCORRECT, CURRENT_PASSWORD_REQUIRED, type ChangeOwnPasswordBody } from '@warmline/contracts';
import { badRequest, unauthorized, withTransaction } from '@warmline/platform';
import { deleteResetTokensOfUser } from '../db/reset-tokens';
import { findUserById, updatePasswordHash } from '../db/users';
import type { AccountsContext } from './context';
import { hashPassword, verifyPassword } from './passwords';
import { tellAccountSecurityChange } from './security-notices';
import type { ThrottleRule } from '../edge/throttle';

/**
 * Wrong current passwords, per user: someone at an unlocked screen (or holding a stolen
 * session) cannot use this form to guess the password at leisure. A success clears the count.
 */
const OWN_PASSWORD_FAILURES_PER_USER: ThrottleRule = { name: 'own-password-user', limit: 5, windowSeconds: 15 * 60 };

const tooManyFailures = (minutes: number) =>
  `Too many wrong current passwords. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;

/**
 * Proves the logged-in user knows their password before a change to how they log in (their
 * password, their second factor). Wrong guesses count per user, whichever form they come from.
 */
export async function confirmCurrentPassword(ctx: AccountsContext, userId: string, currentPassword: string | undefined): Promise<void> {
  if (currentPassword === undefined) throw badRequest(CURRENT_PASSWORD_REQUIRED);
  await ctx.throttle.consume([[OWN_PASSWORD_FAILURES_PER_USER, userId]], tooManyFailures);
  const user = await findUserById(ctx.pool, userId);
  if (!user) throw unauthorized('Not authenticated');
  if (!(await verifyPassword(user.passwordHash, currentPassword))) throw badRequest(CURRENT_PASSWORD_INCORRECT);
  await ctx.throttle.clear(OWN_PASSWORD_FAILURES_PER_USER, userId);
}

/**
 * A logged-in user sets a new password, proving they know the current one. Their other
 * sessions end (this one stays) and any reset link sent to them stops working.
 */
export async function changeOwnPassword(
  ctx: AccountsContext,
  input: ChangeOwnPasswordBody & { userId: string; sessionId: string; correlationId: string },
): Promise<void> {
  await confirmCurrentPassword(ctx, input.userId, input.currentPassword);
  const user = await findUserById(ctx.pool, input.userId);
  if (!user) throw unauthorized('Not authenticated');

  const passwordHash = await hashPassword(input.newPassword);
  await withTransaction(ctx.pool, async (db) => {
    await updatePasswordHash(db, user.id, passwordHash);
    await deleteResetTokensOfUser(db, user.id);
    await tellAccountSecurityChange(db, { userId: user.id, change: 'password_changed', correlationId: input.correlationId });
  });
  await ctx.sessions.endAllSessions(user.id, { exceptSessionId: input.sessionId });
}
