import type { LoginBody } from '@warmline/contracts';
import { unauthorized } from '@warmline/platform';
import { findUserByUsernameOrEmail, recordSignIn, type UserRecord } from '../db/users';
import type { AccountsContext, RequestOrigin } from './context';
import { verifyAgainstDummy, verifyPassword } from './passwords';
import { LOGIN_FAILURES_PER_IP, LOGIN_FAILURES_PER_USERNAME, type ThrottleHit } from '../edge/throttle';

const INVALID_CREDENTIALS = 'Invalid credentials';

const tooManyFailures = (minutes: number) =>
  `Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;

/**
 * Checks a username (or the account's e-mail address, any case) and password. An unknown user
 * and a wrong password get the same answer in about the same time; repeated failures are
 * throttled per account and per IP. (The two-factor step, when the user has one, comes after
 * this; see two-factor.ts.)
 */
export async function logIn(ctx: AccountsContext, body: LoginBody, origin: RequestOrigin): Promise<UserRecord> {
  // Looked up first (a database outage is then a 503 before any attempt is counted), so the
  // failures of one account are counted together whether its username or e-mail was typed.
  const user = await findUserByUsernameOrEmail(ctx.pool, body.username);
  const subject = user?.username ?? body.username;
  const hits: ThrottleHit[] = [
    [LOGIN_FAILURES_PER_USERNAME, subject],
    [LOGIN_FAILURES_PER_IP, origin.ip],
  ];
  // Counted before the slow hash, atomically: a burst of guesses cannot all slip under the limit.
  await ctx.throttle.consume(hits, tooManyFailures);

  const valid = user ? await verifyPassword(user.passwordHash, body.password) : await verifyAgainstDummy(body.password);
  if (!user || !valid) {
    ctx.log.info({ requestId: origin.correlationId, knownUser: Boolean(user) }, 'login refused');
    throw unauthorized(INVALID_CREDENTIALS);
  }
  await ctx.throttle.clear(LOGIN_FAILURES_PER_USERNAME, subject);
  await ctx.throttle.refund(LOGIN_FAILURES_PER_IP, origin.ip);
  return user;
}

/**
 * A sign-in is complete (the password, and the second step when there is one): remembered, and
 * whether it was the user's first, so the site can say 'Welcome' rather than 'Welcome back'.
 */
export async function completeSignIn(ctx: Pick<AccountsContext, 'pool'>, user: Pick<UserRecord, 'id'>): Promise<{ firstLogin: boolean }> {
  return recordSignIn(ctx.pool, user.id);
}
