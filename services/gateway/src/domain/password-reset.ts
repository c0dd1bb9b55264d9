import { createHash, randomBytes } from 'node:crypto';
import { RESET_LINK_TTL_MINUTES } from '@warmline/contracts';
import { badRequest, withTransaction } from '@warmline/platform';
import { enqueue } from '@warmline/platform/bus/outbox';
import {
  deleteOtherResetTokens,
  findUsableResetToken,
  insertResetToken,
  markResetTokenUsed,
} from '../db/reset-tokens';
import { insertResetRequest, takeResetRequests } from '../db/reset-requests';
import { findUserByEmail, updatePasswordHash } from '../db/users';
import { SOURCE, type AccountsContext, type RequestOrigin } from './context';
import { hashPassword } from './passwords';
import { RESET_ATTEMPTS_PER_IP, RESET_REQUESTS_PER_EMAIL, RESET_REQUESTS_PER_IP } from '../edge/throttle';
import { tellAccountSecurityChange } from './security-notices';

export const RESET_REQUESTED_MESSAGE = 'If an account exists for that email, a reset link has been sent.';
const INVALID_RESET_LINK = 'Invalid or Expired Link';

const tooManyRequests = (minutes: number) =>
  `Too many password reset requests. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;

const tooManyAttempts = (minutes: number) =>
  `Too many password reset attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;

/** 256 random bits, URL-safe; only its sha256 is stored. */
function newResetToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashResetToken(token) };
}

function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Asks for a reset link. The answer is the same whether or not the address has an account,
 * and so is the work done before it: the request is counted and written to a queue, nothing
 * more. The lookup, the token and the e-mail happen behind the answer (see
 * handleResetRequests), so neither the answer nor its timing tells who has an account.
 */
export async function requestPasswordReset(ctx: AccountsContext, email: string, origin: RequestOrigin): Promise<void> {
  await ctx.throttle.consume(
    [
      [RESET_REQUESTS_PER_EMAIL, email],
      [RESET_REQUESTS_PER_IP, origin.ip],
    ],
    tooManyRequests,
  );
  await insertResetRequest(ctx.pool, { email, correlationId: origin.correlationId });
  ctx.resetRequests.nudge();
}

/**
 * Handles waiting reset requests: for an address with an account, a token and the e-mail
 * command; for any other, nothing. Each request is deleted in the same transaction as its
 * token and command, so a link is sent exactly when it can be used, and a crash leaves the
 * request to be handled again. Returns how many requests were handled.
 */
async function handleResetRequests(
  deps: Pick<AccountsContext, 'pool' | 'log' | 'publicUrl'>,
  batchSize = 20,
): Promise<number> {
  return withTransaction(deps.pool, async (db) => {
    const requests = await takeResetRequests(db, batchSize);
    for (const request of requests) {
      const user = await findUserByEmail(db, request.email);
      if (!user) {
        deps.log.info({ requestId: request.correlationId }, 'password reset requested for an unknown address');
        continue;
      }
      const { token, tokenHash } = newResetToken();
      const link = `${deps.publicUrl.replace(/\/+$/, '')}/reset-password?token=${encodeURIComponent(token)}`;
      await insertResetToken(db, {
        tokenHash,
        userId: user.id,
        expiresAt: new Date(Date.now() + RESET_LINK_TTL_MINUTES * 60_000),
      });
      await enqueue(db, {
        type: 'email.password_reset',
        source: SOURCE,
        correlationId: request.correlationId,
        data: {
          to: user.email,
          name: user.firstName || user.username,
          // Many forget which username they chose; the mail reminds them (issue 17 item 8).
          username: user.username,
          resetUrl: link,
          expiresInMinutes: RESET_LINK_TTL_MINUTES,
        },
      });
    }
    return requests.length;
  });
}

/**
 * Runs handleResetRequests behind the answers: at once when a request is written here (nudge),
 * and every few seconds for requests another gateway wrote or a crash left behind. While
 * PostgreSQL is away a run fails quietly and the next one picks the requests up.
 */
export class ResetRequestQueue {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly deps: Pick<AccountsContext, 'pool' | 'log' | 'publicUrl'>,
    private readonly sweepMs = 5_000,
  ) {}

  start(): this {
    this.timer = setInterval(() => this.nudge(), this.sweepMs);
    this.timer.unref();
    this.nudge();
    return this;
  }

  nudge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.nudge();
      }
    });
  }

  /** Stops sweeping and waits for the run in progress (before the pool closes). */
  readonly stop = async (): Promise<void> => {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  };

  private async drain(): Promise<void> {
    try {
      while (!this.stopped && (await handleResetRequests(this.deps)) > 0) {
        // Keep going while full batches come back.
      }
    } catch (err) {
      this.deps.log.warn({ err }, 'password reset requests not handled yet; retrying');
    }
  }
}

async function isResetTokenUsable(ctx: AccountsContext, token: string): Promise<boolean> {
  return (await findUsableResetToken(ctx.pool, hashResetToken(token))) !== null;
}

/** Whether a reset link can still be used; counted per address like the reset itself. */
export async function checkResetToken(ctx: AccountsContext, token: string, origin: RequestOrigin): Promise<boolean> {
  await ctx.throttle.consume([[RESET_ATTEMPTS_PER_IP, origin.ip]], tooManyAttempts);
  return isResetTokenUsable(ctx, token);
}

/**
 * Sets a new password from a reset link. The link works once, within its hour; afterwards
 * every other link of that user is void and every session of that user ends. Each attempt
 * is counted per address, and the link is checked before the (deliberately slow) hash, so
 * made-up links cost the server nothing and cannot be tried in bulk.
 */
export async function resetPassword(
  ctx: AccountsContext,
  input: { token: string; password: string },
  origin: RequestOrigin,
): Promise<void> {
  await ctx.throttle.consume([[RESET_ATTEMPTS_PER_IP, origin.ip]], tooManyAttempts);
  const tokenHash = hashResetToken(input.token);
  if (!(await findUsableResetToken(ctx.pool, tokenHash))) throw badRequest(INVALID_RESET_LINK);
  const passwordHash = await hashPassword(input.password);
  const userId = await withTransaction(ctx.pool, async (db) => {
    // Checked again under a lock: two resets with one link cannot both use it.
    const usable = await findUsableResetToken(db, tokenHash, { lock: true });
    if (!usable) throw badRequest(INVALID_RESET_LINK);
    await updatePasswordHash(db, usable.userId, passwordHash);
    await markResetTokenUsed(db, tokenHash);
    await deleteOtherResetTokens(db, usable.userId, tokenHash);
    await enqueue(db, {
      type: 'password_reset.completed',
      source: SOURCE,
      correlationId: origin.correlationId,
      data: { userId: usable.userId },
    });
    await tellAccountSecurityChange(db, { userId: usable.userId, change: 'password_reset', correlationId: origin.correlationId });
    return usable.userId;
  });
  await ctx.sessions.endAllSessions(userId);
}
