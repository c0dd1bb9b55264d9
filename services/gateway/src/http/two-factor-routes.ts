import { Router, type Request } from 'express';
import { twoFactorCodeBody, twoFactorConfirmBody, twoFactorDisableBody, twoFactorEnrolBody } from '@warmline/contracts';
import { parseInput, unauthorized } from '@warmline/platform';
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
import { currentUser, requireUser } from '../edge/access';
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
 * waiting for a first enrolment (an admin who must have a second factor).
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
 * The second step of a login and the second factor's settings (issue 11):
 * POST /api/login/verify-code, GET /api/two-factor, POST /api/two-factor/{enrol,confirm,disable}.
 */
export function twoFactorRoutes(ctx: TwoFactorContext, sessions: Sessions): Router {
  const router = Router();

  // After POST /api/login answered { twoFactorRequired: true }: a code from the app or a recovery code.
  router.post('/api/login/verify-code', async (req, res) => {
    const { code } = parseInput(twoFactorCodeBody, req.body);
    const pending = pendingLoginOf(req);
    if (!pending || pending.mustEnrol) throw unauthorized(LOGIN_EXPIRED);
    await verifySecondFactor(ctx, pending.userId, code);
    const user = await findAccount(ctx.pool, pending.userId);
    if (!user) throw unauthorized(LOGIN_EXPIRED);
    await sessions.start(req, user.id);
    res.json({ ...toPublicUser(user), ...(await completeSignIn(ctx, user)) });
  });

  router.get('/api/two-factor', async (req, res) => {
    const { user } = await enrollingUser(ctx, req);
    res.json(await twoFactorStatus(ctx, user));
  });

  router.post('/api/two-factor/enrol', async (req, res) => {
    const { currentPassword } = parseInput(twoFactorEnrolBody, req.body ?? {});
    const { user, completesLogin } = await enrollingUser(ctx, req);
    if (!completesLogin) await confirmCurrentPassword(ctx, user.id, currentPassword);
    res.json(await startEnrolment(ctx, user));
  });

  router.post('/api/two-factor/confirm', async (req, res) => {
    const { code, currentPassword } = parseInput(twoFactorConfirmBody, req.body);
    const { user, completesLogin } = await enrollingUser(ctx, req);
    if (!completesLogin) await confirmCurrentPassword(ctx, user.id, currentPassword);
    await confirmEnrolment(ctx, user, code, req.id);
    if (completesLogin) {
      // The enrolment was the last step of this login.
      await sessions.start(req, user.id);
      const full = await findAccount(ctx.pool, user.id);
      if (!full) throw unauthorized(LOGIN_EXPIRED);
      res.json({ ...(await twoFactorStatus(ctx, user)), user: { ...toPublicUser(full), ...(await completeSignIn(ctx, full)) } });
      return;
    }
    // A new factor: sessions opened without it end (this one stays).
    await ctx.sessions.endAllSessions(user.id, { exceptSessionId: req.sessionID });
    res.json(await twoFactorStatus(ctx, user));
  });

  router.post('/api/two-factor/disable', requireUser, async (req, res) => {
    const { code, currentPassword } = parseInput(twoFactorDisableBody, req.body);
    const user = currentUser(req);
    await confirmCurrentPassword(ctx, user.id, currentPassword);
    await disableTwoFactor(ctx, user, code, req.id);
    res.json(await twoFactorStatus(ctx, user));
  });

  return router;
}
