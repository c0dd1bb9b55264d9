import { ADMIN_PAGE_SIZE, type AdminUserListEntry, type PublicUser } from '@warmline/contracts';
import { badRequest, conflict, notFound, withTransaction } from '@warmline/platform';
import { enqueue } from '@warmline/platform/bus/outbox';
import { deleteResetTokensOfUser } from '../db/reset-tokens';
import { deleteTwoFactor, findTwoFactor, twoFactorStates } from '../db/two-factor';
import { findUserById, findUsersPage, softDeleteUser, updateLiveTransferPrice, updatePasswordHash, type UserRecord } from '../db/users';
import type { ActingAdmin } from '@warmline/platform/identity';
import { recordAdminAction } from './audit-log';
import { SOURCE, type AccountsContext, type RequestOrigin } from './context';
import { hashPassword } from './passwords';
import { tellAccountSecurityChange } from './security-notices';
import { toPublicUser } from './users';

/**
 * Admin user management (spec §7, issue 12). The HTTP layer has already checked the actor is an
 * admin; every change is recorded in the audit log in its own transaction.
 */

export const USER_NOT_FOUND = 'User not found';
const CANNOT_DELETE_SELF = 'You cannot delete your own account';
const CANNOT_RESET_OWN_TWO_FACTOR = 'Change your own two-factor authentication from your account page';
const NO_TWO_FACTOR = 'This user has no two-factor authentication to reset';

/** How the audit log names a user at the time of the action. */
export function userLabel(user: Pick<UserRecord, 'firstName' | 'lastName' | 'username' | 'email'>): string {
  const name = `${user.firstName} ${user.lastName}`.trim() || user.username;
  return `${name} (${user.email})`;
}

/** One page of users, each with whether they have a second factor to reset. */
export async function listUsersPage(ctx: AccountsContext, query: { q?: string; page: number }): Promise<{ users: AdminUserListEntry[]; total: number }> {
  const { users, total } = await findUsersPage(ctx.pool, {
    q: query.q,
    limit: ADMIN_PAGE_SIZE,
    offset: (query.page - 1) * ADMIN_PAGE_SIZE,
  });
  const twoFactor = await twoFactorStates(ctx.pool, users.map((u) => u.id));
  return { users: users.map((u) => ({ ...toPublicUser(u), twoFactor: twoFactor.get(u.id) ?? 'off' })), total };
}

/**
 * Disables an account (soft delete): it can no longer log in, its sessions end, its username and
 * e-mail are free for a new sign-up; what it bought stays in the books. Admins cannot delete themselves.
 */
export async function deleteUserAccount(
  ctx: AccountsContext,
  input: { actor: ActingAdmin; userId: string },
  origin: RequestOrigin,
): Promise<void> {
  if (input.actor.userId === input.userId) throw badRequest(CANNOT_DELETE_SELF);
  await withTransaction(ctx.pool, async (db) => {
    const user = await softDeleteUser(db, input.userId);
    if (!user) throw notFound(USER_NOT_FOUND);
    await recordAdminAction(db, {
      actor: input.actor,
      action: 'user.deleted',
      subjectType: 'user',
      subjectId: user.id,
      subjectLabel: userLabel(user),
      before: { username: user.username, email: user.email, active: true },
      after: { active: false },
    });
    await enqueue(db, {
      type: 'user.deleted',
      source: SOURCE,
      correlationId: origin.correlationId,
      data: { userId: input.userId, deletedBy: input.actor.userId },
    });
  });
  await ctx.sessions.endAllSessions(input.userId);
}

/**
 * Sets a user's password, ends that user's sessions and voids every reset link sent to them
 * (a link mailed before the change must not undo it). When admins change their own password,
 * the session they are using stays open. The audit log says it changed, never to what.
 */
export async function changeUserPassword(
  ctx: AccountsContext,
  input: { actor: ActingAdmin; actorSessionId: string; userId: string; newPassword: string; correlationId: string },
): Promise<void> {
  const passwordHash = await hashPassword(input.newPassword);
  await withTransaction(ctx.pool, async (db) => {
    const user = await findUserById(db, input.userId);
    if (!user || !(await updatePasswordHash(db, input.userId, passwordHash))) throw notFound(USER_NOT_FOUND);
    await deleteResetTokensOfUser(db, input.userId);
    await recordAdminAction(db, {
      actor: input.actor,
      action: 'user.password_changed',
      subjectType: 'user',
      subjectId: user.id,
      subjectLabel: userLabel(user),
      before: null,
      after: { sessionsEnded: true },
    });
    await tellAccountSecurityChange(db, {
      userId: user.id,
      change: input.actor.userId === user.id ? 'password_changed' : 'password_set_by_admin',
      correlationId: input.correlationId,
    });
  });
  await ctx.sessions.endAllSessions(
    input.userId,
    input.actor.userId === input.userId ? { exceptSessionId: input.actorSessionId } : {},
  );
}

/**
 * Turns off a user's second factor for them (a lost phone, issue 25): their next login asks for
 * the password alone, or for a new enrolment where admins must have one. Audited, and the user is
 * e-mailed in the same transaction. Never the admin's own: that asks for their password and a
 * code on their account page.
 */
export async function resetUserTwoFactor(ctx: AccountsContext, input: { actor: ActingAdmin; userId: string; correlationId: string }): Promise<void> {
  if (input.actor.userId === input.userId) throw badRequest(CANNOT_RESET_OWN_TWO_FACTOR);
  await withTransaction(ctx.pool, async (db) => {
    const user = await findUserById(db, input.userId);
    if (!user) throw notFound(USER_NOT_FOUND);
    const record = await findTwoFactor(db, user.id);
    if (!record) throw conflict(NO_TWO_FACTOR);
    await deleteTwoFactor(db, user.id);
    await recordAdminAction(db, {
      actor: input.actor,
      action: 'user.two_factor_reset',
      subjectType: 'user',
      subjectId: user.id,
      subjectLabel: userLabel(user),
      before: { twoFactor: record.confirmedAt ? 'on' : 'being set up' },
      after: { twoFactor: 'off' },
    });
    await tellAccountSecurityChange(db, { userId: user.id, change: 'two_factor_reset_by_admin', correlationId: input.correlationId });
  });
}

export async function setLiveTransferPrice(
  ctx: AccountsContext,
  input: { actor: ActingAdmin; userId: string; price: string },
  origin: RequestOrigin,
): Promise<PublicUser> {
  return withTransaction(ctx.pool, async (db) => {
    const before = await findUserById(db, input.userId);
    const user = before && (await updateLiveTransferPrice(db, input.userId, input.price));
    if (!before || !user) throw notFound(USER_NOT_FOUND);
    await recordAdminAction(db, {
      actor: input.actor,
      action: 'user.price_changed',
      subjectType: 'user',
      subjectId: user.id,
      subjectLabel: userLabel(user),
      before: { liveTransferPrice: Number(before.liveTransferPrice).toFixed(2) },
      after: { liveTransferPrice: Number(user.liveTransferPrice).toFixed(2) },
    });
    await enqueue(db, {
      type: 'user.price_changed',
      source: SOURCE,
      correlationId: origin.correlationId,
      data: { userId: user.id, liveTransferPrice: user.liveTransferPrice, changedBy: input.actor.userId },
    });
    return toPublicUser(user);
  });
}
