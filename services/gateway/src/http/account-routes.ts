import { Router, type Request } from 'express';
import {
  forgotPasswordBody,
  loginBody,
  resetPasswordBody,
  validateResetTokenBody,
} from '@warmline/contracts';
import { parseInput } from '@warmline/platform';
import type { AccountsContext, RequestOrigin } from '../domain/context';
import { logIn } from '../domain/login';
import {
  isResetTokenUsable,
  requestPasswordReset,
  resetPassword,
  RESET_REQUESTED_MESSAGE,
} from '../domain/password-reset';
import { toPublicUser } from '../domain/users';
import { currentUser, requireUser } from './access';
import type { Sessions } from './sessions';

export function originOf(req: Request): RequestOrigin {
  return { correlationId: req.id, ip: req.ip ?? req.socket.remoteAddress ?? 'unknown' };
}

/** Login, logout, the current user and the password reset flow (spec §7). */
export function accountRoutes(ctx: AccountsContext, sessions: Sessions): Router {
  const router = Router();

  router.post('/api/login', async (req, res) => {
    const body = parseInput(loginBody, req.body);
    const user = await logIn(ctx, body, originOf(req));
    await sessions.start(req, user.id);
    res.json(toPublicUser(user));
  });

  router.get('/api/current-user', requireUser, (req, res) => {
    res.json(toPublicUser(currentUser(req)));
  });

  // A browser navigation (spec §7), so it answers with a redirect rather than JSON.
  router.get('/api/logout', async (req, res) => {
    await sessions.end(req, res);
    res.redirect(302, '/login');
  });

  router.post('/api/forgot-password', async (req, res) => {
    const { email } = parseInput(forgotPasswordBody, req.body);
    await requestPasswordReset(ctx, email, originOf(req));
    res.json({ message: RESET_REQUESTED_MESSAGE });
  });

  router.post('/api/validate-reset-token', async (req, res) => {
    const { token } = parseInput(validateResetTokenBody, req.body);
    res.json({ valid: await isResetTokenUsable(ctx, token) });
  });

  router.post('/api/reset-password', async (req, res) => {
    const body = parseInput(resetPasswordBody, req.body);
    await resetPassword(ctx, body, originOf(req));
    res.json({ message: 'Your password has been reset. You can now log in.' });
  });

  return router;
}
