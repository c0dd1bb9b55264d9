import { VIEW_AS_ADMIN_REFUSED, VIEW_AS_PARAM, type ViewAsGrant } from '@warmline/contracts';
import { badRequest, notFound, type Logger, type Pool } from '@warmline/platform';
import { findUserById } from '../db/users';
import type { ActingAdmin } from '@warmline/platform/identity';
import { recordAdminAction } from './audit-log';
import { USER_NOT_FOUND, userLabel } from './user-admin';

/**
 * View-as (issue 12, docs/adr/0014-view-as.md): an admin sees an agent's dashboard as the agent
 * does, read only, in one tab, for a limited time. Its start and its end are in the audit log.
 */

/** A grant as kept (in Redis, by the edge) under the hash of its token; the token itself is never stored. */
export interface ViewAsGrantRecord {
  adminId: string;
  adminUsername: string;
  /** The admin's session the grant belongs to. */
  sessionId: string;
  userId: string;
  /** The agent's name as the banner and the refusals say it, e.g. 'Dana Cole'. */
  userName: string;
  /** The agent as the audit log names them. */
  userLabel: string;
  startedAt: number;
  expiresAt: number;
}

/** Where grants are kept (edge/view-as.ts, in Redis). */
export interface ViewAsGrantStore {
  create(grant: Omit<ViewAsGrantRecord, 'startedAt' | 'expiresAt'>): Promise<{ token: string; record: ViewAsGrantRecord }>;
  /** Takes the grant away; answers it only to the one caller that removed it. */
  remove(token: string): Promise<ViewAsGrantRecord | null>;
  /** Takes away every grant of a session, answering those still running. */
  removeAllOfSession(sessionId: string): Promise<ViewAsGrantRecord[]>;
}

export interface ViewAsContext {
  pool: Pool;
  log: Logger;
  grants: ViewAsGrantStore;
}

/** Why a viewing ended, as the audit log says it. */
const VIEW_AS_END_REASONS = {
  ended: 'Ended by the admin',
  expired: 'The time ran out',
  loggedOut: 'The admin logged out',
} as const;

/** Opens a grant for the admin's session to view the agent; the answer's url opens the viewing tab. */
export async function startViewing(
  ctx: ViewAsContext,
  input: { actor: ActingAdmin; sessionId: string; userId: string },
): Promise<ViewAsGrant> {
  const user = await findUserById(ctx.pool, input.userId);
  if (!user) throw notFound(USER_NOT_FOUND);
  // An admin's screen is the admin area, not a dashboard; and nobody views as themselves.
  if (user.isAdmin) throw badRequest(VIEW_AS_ADMIN_REFUSED);
  const userName = `${user.firstName} ${user.lastName}`.trim() || user.username;
  const { token, record } = await ctx.grants.create({
    adminId: input.actor.userId,
    adminUsername: input.actor.username,
    sessionId: input.sessionId,
    userId: user.id,
    userName,
    userLabel: userLabel(user),
  });
  try {
    await recordAdminAction(
      ctx.pool,
      {
        actor: input.actor,
        action: 'view_as.started',
        subjectType: 'user',
        subjectId: user.id,
        subjectLabel: record.userLabel,
        after: { readOnly: true, expiresAt: new Date(record.expiresAt).toISOString() },
      },
      new Date(record.startedAt),
    );
  } catch (err) {
    // No viewing that the audit log does not know of.
    await ctx.grants.remove(token).catch(() => undefined);
    throw err;
  }
  return {
    url: `/dashboard?${VIEW_AS_PARAM}=${encodeURIComponent(token)}`,
    expiresAt: new Date(record.expiresAt).toISOString(),
  };
}

/** Ends the grant of a viewing tab; ending one already ended is not an error. */
export async function endViewing(ctx: ViewAsContext, token: string): Promise<void> {
  const grant = await ctx.grants.remove(token);
  if (!grant) return;
  await recordEnd(ctx, grant, grant.expiresAt <= Date.now() ? VIEW_AS_END_REASONS.expired : VIEW_AS_END_REASONS.ended);
}

/** The admin logs out: every viewing of that session ends with it. */
export async function endViewingsOfSession(ctx: ViewAsContext, sessionId: string): Promise<void> {
  for (const grant of await ctx.grants.removeAllOfSession(sessionId)) await recordEnd(ctx, grant, VIEW_AS_END_REASONS.loggedOut);
}

/** A request found the grant past its time (and took it away). */
export async function recordExpired(ctx: ViewAsContext, grant: ViewAsGrantRecord): Promise<void> {
  await recordEnd(ctx, grant, VIEW_AS_END_REASONS.expired, new Date(grant.expiresAt));
}

async function recordEnd(ctx: ViewAsContext, grant: ViewAsGrantRecord, reason: string, at = new Date()): Promise<void> {
  await recordAdminAction(
    ctx.pool,
    {
      actor: { userId: grant.adminId, username: grant.adminUsername },
      action: 'view_as.ended',
      subjectType: 'user',
      subjectId: grant.userId,
      subjectLabel: grant.userLabel,
      before: { expiresAt: new Date(grant.expiresAt).toISOString() },
      reason,
    },
    at,
  );
}
