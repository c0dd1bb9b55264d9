import { Router, type Request } from 'express';
import {
  changeOwnPasswordBody,
  forgotPasswordBody,
  loginBody,
  resetPasswordBody,
  validateResetTokenBody,
} from '@warmline/contracts';
import { parseInput } from '@warmline/platform';
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
import { currentUser, requireUser } from '../edge/access';
import { originOf } from '../edge/request-origin';
import type { Sessions } from '../edge/sessions';
import { twoFactorRoutes } from './two-factor-routes';

/** Login, logout, the current user, the user's own password and the password reset flow (spec §7). */
export function accountRoutes(
  ctx: TwoFactorContext,
  sessions: Sessions,
  hooks: { /** Runs before the session ends (view-as grants of that session end with it). */ beforeLogout?: (req: Request) => Promise<void> } = {},
): Router {
  const router = Router();
  router.use(twoFactorRoutes(ctx, sessions));

  router.post('/api/login', async (req, res) => {
    const body = parseInput(loginBody, req.body);
    const user = await logIn(ctx, body, originOf(req));
    const next = await secondStepAfterPassword(ctx, user);
    if (next === 'none') {
      await sessions.start(req, user.id);
      res.json({ ...toPublicUser(user), ...(await completeSignIn(ctx, user)) });
      return;
    }
    // Not logged in yet: the session only remembers the right password for the second step.
    await sessions.startPending(req, { userId: user.id, mustEnrol: next === 'enrol' });
    res.json(next === 'code' ? { twoFactorRequired: true } : { twoFactorEnrolmentRequired: true });
  });

  router.get('/api/current-user', requireUser, (req, res) => {
    // In a view-as tab: the viewed agent, and who is viewing until when (the banner).
    const viewingAs = req.viewAs && { adminUsername: req.viewAs.admin.username, expiresAt: new Date(req.viewAs.grant.expiresAt).toISOString() };
    res.json({ ...toPublicUser(currentUser(req)), ...(viewingAs ? { viewingAs } : {}) });
  });

  // A browser navigation (spec §7), so it answers with a redirect rather than JSON.
  router.get('/api/logout', async (req, res) => {
    if (req.session?.userId) await hooks.beforeLogout?.(req);
    await sessions.end(req, res);
    res.redirect(302, '/login');
  });

  // A logged-in user's own password, from the dashboard (issue 11).
  router.post('/api/change-password', requireUser, async (req, res) => {
    const body = parseInput(changeOwnPasswordBody, req.body);
    await changeOwnPassword(ctx, { ...body, userId: currentUser(req).id, sessionId: req.sessionID, correlationId: req.id });
    res.json({ message: 'Password changed' });
  });

  router.post('/api/forgot-password', async (req, res) => {
    const { email } = parseInput(forgotPasswordBody, req.body);
    await requestPasswordReset(ctx, email, originOf(req));
    res.json({ message: RESET_REQUESTED_MESSAGE });
  });

  router.post('/api/validate-reset-token', async (req, res) => {
    const { token } = parseInput(validateResetTokenBody, req.body);
    res.json({ valid: await checkResetToken(ctx, token, originOf(req)) });
  });

  router.post('/api/reset-password', async (req, res) => {
    const body = parseInput(resetPasswordBody, req.body);
    await resetPassword(ctx, body, originOf(req));
    res.json({ message: 'Your password has been reset. You can now log in.' });
  });

  return router;
}
