import type { Request, Router } from 'express';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import { secondStepAfterPassword, type TwoFactorContext } from '../domain/two-factor';
import { completeSignIn, logIn } from '../domain/login';
import {
  checkResetToken,
  requestPasswordReset,
  resetPassword,
  RESET_REQUESTED_MESSAGE,
} from '../domain/password-reset';
import { changeOwnPassword } from '../domain/own-password';
import { toPublicUser } from '../domain/users';
import { currentUser, sessionAsker } from '../edge/access';
import { originOf } from '../edge/request-origin';
import type { Sessions } from '../edge/sessions';
import { twoFactorRoutes } from './two-factor-routes';

/**
 * Login, logout, the current user, the user's own password, the password reset flow (spec §7)
 * and the second factor, mounted from the route manifest (who may call and the bodies are checked there).
 */
export function accountRoutes(
  ctx: TwoFactorContext,
  sessions: Sessions,
  hooks: { /** Runs before the session ends (view-as grants of that session end with it). */ beforeLogout?: (req: Request) => Promise<void> } = {},
): Router {
  return twoFactorRoutes(manifestRoutes('gateway', sessionAsker), ctx, sessions)
    .on('POST /api/login', async ({ body, req }) => {
      const user = await logIn(ctx, body, originOf(req));
      const next = await secondStepAfterPassword(ctx, user);
      if (next === 'none') {
        await sessions.start(req, user.id);
        return { ...toPublicUser(user), ...(await completeSignIn(ctx, user)) };
      }
      // Not logged in yet: the session only remembers the right password for the second step.
      await sessions.startPending(req, { userId: user.id, mustEnrol: next === 'enrol' });
      return next === 'code' ? { twoFactorRequired: true } : { twoFactorEnrolmentRequired: true };
    })
    .on('GET /api/current-user', ({ req }) => {
      // In a view-as tab: the viewed agent, and who is viewing until when (the banner).
      const viewingAs = req.viewAs && { adminUsername: req.viewAs.admin.username, expiresAt: new Date(req.viewAs.grant.expiresAt).toISOString() };
      return { ...toPublicUser(currentUser(req)), ...(viewingAs ? { viewingAs } : {}) };
    })
    // A browser navigation (spec §7), so it answers with a redirect rather than JSON.
    .on('GET /api/logout', async ({ req, res }) => {
      if (req.session?.userId) await hooks.beforeLogout?.(req);
      await sessions.end(req, res);
      res.redirect(302, '/login');
    })
    // A logged-in user's own password, from the dashboard (issue 11).
    .on('POST /api/change-password', async ({ caller, body, req, correlationId }) => {
      await changeOwnPassword(ctx, { ...body, userId: caller.userId, sessionId: req.sessionID, correlationId });
      return { message: 'Password changed' };
    })
    .on('POST /api/forgot-password', async ({ body, req }) => {
      await requestPasswordReset(ctx, body.email, originOf(req));
      return { message: RESET_REQUESTED_MESSAGE };
    })
    .on('POST /api/validate-reset-token', async ({ body, req }) => ({ valid: await checkResetToken(ctx, body.token, originOf(req)) }))
    .on('POST /api/reset-password', async ({ body, req }) => {
      await resetPassword(ctx, body, originOf(req));
      return { message: 'Your password has been reset. You can now log in.' };
    }).router;
}
