import type { PublicUser } from '@warmline/contracts';
import { badRequest, notFound, withTransaction } from '@warmline/platform';
import { enqueue } from '@warmline/platform/bus/outbox';
import { deleteResetTokensOfUser } from '../db/reset-tokens';
import { deleteUser, listUsers, updateLiveTransferPrice, updatePasswordHash } from '../db/users';
import { SOURCE, type AccountsContext, type RequestOrigin } from './context';
import { hashPassword } from './passwords';
import { toPublicUser } from './users';

/** Admin user management (spec §7). The HTTP layer has already checked the actor is an admin. */

export const USER_NOT_FOUND = 'User not found';
export const CANNOT_DELETE_SELF = 'You cannot delete your own account';

export async function listAllUsers(ctx: AccountsContext): Promise<PublicUser[]> {
  return (await listUsers(ctx.pool)).map(toPublicUser);
}

export async function deleteUserAccount(
  ctx: AccountsContext,
  input: { actorId: string; userId: string },
  origin: RequestOrigin,
): Promise<void> {
  if (input.actorId === input.userId) throw badRequest(CANNOT_DELETE_SELF);
  await withTransaction(ctx.pool, async (db) => {
    if (!(await deleteUser(db, input.userId))) throw notFound(USER_NOT_FOUND);
    await enqueue(db, {
      type: 'user.deleted',
      source: SOURCE,
      correlationId: origin.correlationId,
      data: { userId: input.userId, deletedBy: input.actorId },
    });
  });
  await ctx.sessions.endAllSessions(input.userId);
}

/**
 * Sets a user's password, ends that user's sessions and voids every reset link sent to them
 * (a link mailed before the change must not undo it). When admins change their own password,
 * the session they are using stays open.
 */
export async function changeUserPassword(
  ctx: AccountsContext,
  input: { actorId: string; actorSessionId: string; userId: string; newPassword: string },
): Promise<void> {
  const passwordHash = await hashPassword(input.newPassword);
  await withTransaction(ctx.pool, async (db) => {
    if (!(await updatePasswordHash(db, input.userId, passwordHash))) throw notFound(USER_NOT_FOUND);
    await deleteResetTokensOfUser(db, input.userId);
  });
  await ctx.sessions.endAllSessions(
    input.userId,
    input.actorId === input.userId ? { exceptSessionId: input.actorSessionId } : {},
  );
}

export async function setLiveTransferPrice(
  ctx: AccountsContext,
  input: { actorId: string; userId: string; price: string },
  origin: RequestOrigin,
): Promise<PublicUser> {
  return withTransaction(ctx.pool, async (db) => {
    const user = await updateLiveTransferPrice(db, input.userId, input.price);
    if (!user) throw notFound(USER_NOT_FOUND);
    await enqueue(db, {
      type: 'user.price_changed',
      source: SOURCE,
      correlationId: origin.correlationId,
      data: { userId: user.id, liveTransferPrice: user.liveTransferPrice, changedBy: input.actorId },
    });
    return toPublicUser(user);
  });
}
