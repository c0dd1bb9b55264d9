import type { LoginBody } from '@warmline/contracts';
import { unauthorized } from '@warmline/platform';
import { findUserByUsername, type UserRecord } from '../db/users';
import type { AccountsContext, RequestOrigin } from './context';
import { verifyAgainstDummy, verifyPassword } from './passwords';
import { LOGIN_FAILURES_PER_IP, LOGIN_FAILURES_PER_USERNAME, type ThrottleHit } from './throttle';

export const INVALID_CREDENTIALS = 'Invalid credentials';

const tooManyFailures = (minutes: number) =>
  `Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;

/**
 * Checks a username and password. An unknown user and a wrong password get the same answer
 * in about the same time; repeated failures are throttled per username and per IP.
 */
export async function logIn(ctx: AccountsContext, body: LoginBody, origin: RequestOrigin): Promise<UserRecord> {
  const hits: ThrottleHit[] = [
    [LOGIN_FAILURES_PER_USERNAME, body.username],
    [LOGIN_FAILURES_PER_IP, origin.ip],
  ];
  await ctx.throttle.assertAllowed(hits, tooManyFailures);

  const user = await findUserByUsername(ctx.pool, body.username);
  const valid = user ? await verifyPassword(user.passwordHash, body.password) : await verifyAgainstDummy(body.password);
  if (!user || !valid) {
    await ctx.throttle.record(hits);
    ctx.log.info({ requestId: origin.correlationId, knownUser: Boolean(user) }, 'login refused');
    throw unauthorized(INVALID_CREDENTIALS);
  }
  await ctx.throttle.clear(LOGIN_FAILURES_PER_USERNAME, body.username);
  return user;
}
