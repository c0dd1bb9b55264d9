import type { LoginBody } from '@warmline/contracts';
import { unauthorized } from '@warmline/platform';
import { unavailableDependency } from '@warmline/platform/faults';
import { findUserByUsername, type UserRecord } from '../db/users';
import type { AccountsContext, RequestOrigin } from './context';
import { verifyAgainstDummy, verifyPassword } from './passwords';
import { LOGIN_FAILURES_PER_IP, LOGIN_FAILURES_PER_USERNAME, type ThrottleHit } from '../edge/throttle';

const INVALID_CREDENTIALS = 'Invalid credentials';

const tooManyFailures = (minutes: number) =>
  `Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;

/**
 * Checks a username and password. An unknown user and a wrong password get the same answer
 * in about the same time; repeated failures are throttled per username and per IP.
 * (The two-factor step, when the user has one, comes after this; see two-factor.ts.)
 */
export async function logIn(ctx: AccountsContext, body: LoginBody, origin: RequestOrigin): Promise<UserRecord> {
  const hits: ThrottleHit[] = [
    [LOGIN_FAILURES_PER_USERNAME, body.username],
    [LOGIN_FAILURES_PER_IP, origin.ip],
  ];
  // Counted before the slow hash, atomically: a burst of guesses cannot all slip under the limit.
  await ctx.throttle.consume(hits, tooManyFailures);

  let user: UserRecord | null;
  try {
    user = await findUserByUsername(ctx.pool, body.username);
  } catch (err) {
    // The database was away (a 503): no password was checked, so the attempt is given back
    // and a user retrying through an outage is not locked out by it.
    if (unavailableDependency(err)) {
      await ctx.throttle.refund(LOGIN_FAILURES_PER_USERNAME, body.username).catch(() => undefined);
      await ctx.throttle.refund(LOGIN_FAILURES_PER_IP, origin.ip).catch(() => undefined);
    }
    throw err;
  }
  const valid = user ? await verifyPassword(user.passwordHash, body.password) : await verifyAgainstDummy(body.password);
  if (!user || !valid) {
    ctx.log.info({ requestId: origin.correlationId, knownUser: Boolean(user) }, 'login refused');
    throw unauthorized(INVALID_CREDENTIALS);
  }
  await ctx.throttle.clear(LOGIN_FAILURES_PER_USERNAME, body.username);
  await ctx.throttle.refund(LOGIN_FAILURES_PER_IP, origin.ip);
  return user;
}
