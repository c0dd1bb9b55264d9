import type { Request } from 'express';
import { unauthorized } from '@warmline/platform';
import type { ManifestRouter } from '@warmline/platform/http/manifest-routes';
import { findAccount, type UserRecord } from '../domain/users';
import {
  confirmEnrolment,
  disableTwoFactor,
  startEnrolment,
  twoFactorStatus,
  verifySecondFactor,
  type TwoFactorContext,
} from '../domain/two-factor';
import { completeSignIn } from '../domain/login';
import { confirmCurrentPassword } from '../domain/own-password';
import { toPublicUser } from '../domain/users';
import { PENDING_LOGIN_MS, type PendingLogin, type Sessions } from '../edge/sessions';

const LOGIN_EXPIRED = 'Your sign-in has expired; please log in again';

/** The pending login of this session, if it is still fresh. */
function pendingLoginOf(req: Request): PendingLogin | null {
  const pending = req.session?.pendingLogin;
  if (!pending || Date.now() - pending.startedAt > PENDING_LOGIN_MS) return null;
  return pending;
}

/**
 * Who may enrol on this request: the logged-in user, or a user whose right password is
 * waiting for a first enrolment (an admin who must have a second factor). The manifest calls
 * these routes 'anonymous' since a pending login is no user yet; this is their access check.
 */
async function enrollingUser(ctx: TwoFactorContext, req: Request): Promise<{ user: Pick<UserRecord, 'id' | 'username' | 'isAdmin'>; completesLogin: boolean }> {
  if (req.user) return { user: req.user, completesLogin: false };
  const pending = pendingLoginOf(req);
  if (!pending?.mustEnrol) throw unauthorized('Not authenticated');
  const user = await findAccount(ctx.pool, pending.userId);
  if (!user) throw unauthorized(LOGIN_EXPIRED);
  return { user, completesLogin: true };
}

/**
 * The second step of a login and the second factor's settings (issue 11), added to the account routes:
 * POST /api/login/verify-code, GET /api/two-factor, POST /api/two-factor/{enrol,confirm,disable}.
 */
export function twoFactorRoutes(routes: ManifestRouter<'gateway'>, ctx: TwoFactorContext, sessions: Sessions): ManifestRouter<'gateway'> {
  return (
    routes
      // After POST /api/login answered { twoFactorRequired: true }: a code from the app or a recovery code.
      .on('POST /api/login/verify-code', async ({ body, req }) => {
        const pending = pendingLoginOf(req);
        if (!pending || pending.mustEnrol) throw unauthorized(LOGIN_EXPIRED);
        await verifySecondFactor(ctx, pending.userId, body.code);
        const user = await findAccount(ctx.pool, pending.userId);
        if (!user) throw unauthorized(LOGIN_EXPIRED);
        await sessions.start(req, user.id);
        return { ...toPublicUser(user), ...(await completeSignIn(ctx, user)) };
      })
      .on('GET /api/two-factor', async ({ req }) => {
        const { user } = await enrollingUser(ctx, req);
        return twoFactorStatus(ctx, user);
      })
      .on('POST /api/two-factor/enrol', async ({ body, req }) => {
        const { user, completesLogin } = await enrollingUser(ctx, req);
        if (!completesLogin) await confirmCurrentPassword(ctx, user.id, body.currentPassword);
        return startEnrolment(ctx, user);
      })
      .on('POST /api/two-factor/confirm', async ({ body, req, correlationId }) => {
        const { code, currentPassword } = body;
        const { user, completesLogin } = await enrollingUser(ctx, req);
        if (!completesLogin) await confirmCurrentPassword(ctx, user.id, currentPassword);
        await confirmEnrolment(ctx, user, code, correlationId);
        if (completesLogin) {
          // The enrolment was the last step of this login.
          await sessions.start(req, user.id);
          const full = await findAccount(ctx.pool, user.id);
          if (!full) throw unauthorized(LOGIN_EXPIRED);
          return { ...(await twoFactorStatus(ctx, user)), user: { ...toPublicUser(full), ...(await completeSignIn(ctx, full)) } };
        }
        // A new factor: sessions opened without it end (this one stays).
        await ctx.sessions.endAllSessions(user.id, { exceptSessionId: req.sessionID });
        return twoFactorStatus(ctx, user);
      })
      .on('POST /api/two-factor/disable', async ({ caller, body, correlationId }) => {
        const user = { id: caller.userId, username: caller.username, isAdmin: caller.isAdmin };
        await confirmCurrentPassword(ctx, user.id, body.currentPassword);
        await disableTwoFactor(ctx, user, body.code, correlationId);
        return twoFactorStatus(ctx, user);
      })
  );
}
