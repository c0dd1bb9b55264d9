import { createHash, randomBytes } from 'node:crypto';
import { RESET_LINK_TTL_MINUTES } from '@warmline/contracts';
import { badRequest, withTransaction } from '@warmline/platform';
import { enqueue } from '@warmline/platform/bus/outbox';
import { escapeHtml } from '@warmline/platform/html';
import {
  deleteOtherResetTokens,
  findUsableResetToken,
  insertResetToken,
  markResetTokenUsed,
} from '../db/reset-tokens';
import { findUserByEmail, updatePasswordHash } from '../db/users';
import { SOURCE, type AccountsContext, type RequestOrigin } from './context';
import { hashPassword } from './passwords';
import { RESET_REQUESTS_PER_EMAIL, RESET_REQUESTS_PER_IP } from './throttle';

export const RESET_REQUESTED_MESSAGE = 'If an account exists for that email, a reset link has been sent.';
export const INVALID_RESET_LINK = 'Invalid or Expired Link';

const tooManyRequests = (minutes: number) =>
  `Too many password reset requests. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;

/** 256 random bits, URL-safe; only its sha256 is stored. */
function newResetToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashResetToken(token) };
}

function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Sends a reset link when the address has an account, and nothing otherwise; the caller
 * answers the same in both cases. The token and the e-mail command commit together, so a
 * link is sent exactly when it can be used.
 */
export async function requestPasswordReset(ctx: AccountsContext, email: string, origin: RequestOrigin): Promise<void> {
  await ctx.throttle.consume(
    [
      [RESET_REQUESTS_PER_EMAIL, email],
      [RESET_REQUESTS_PER_IP, origin.ip],
    ],
    tooManyRequests,
  );
  const user = await findUserByEmail(ctx.pool, email);
  if (!user) {
    ctx.log.info({ requestId: origin.correlationId }, 'password reset requested for an unknown address');
    return;
  }
  const { token, tokenHash } = newResetToken();
  const link = `${ctx.publicUrl.replace(/\/+$/, '')}/reset-password?token=${encodeURIComponent(token)}`;
  await withTransaction(ctx.pool, async (db) => {
    await insertResetToken(db, {
      tokenHash,
      userId: user.id,
      expiresAt: new Date(Date.now() + RESET_LINK_TTL_MINUTES * 60_000),
    });
    await enqueue(db, {
      type: 'email.send',
      source: SOURCE,
      correlationId: origin.correlationId,
      data: {
        to: user.email,
        subject: 'Reset your WarmLine password',
        template: 'password-reset',
        text: resetEmailText(user.firstName || user.username, link),
        html: resetEmailHtml(user.firstName || user.username, link),
      },
    });
  });
}

export async function isResetTokenUsable(ctx: AccountsContext, token: string): Promise<boolean> {
  return (await findUsableResetToken(ctx.pool, hashResetToken(token))) !== null;
}

/**
 * Sets a new password from a reset link. The link works once, within its hour; afterwards
 * every other link of that user is void and every session of that user ends.
 */
export async function resetPassword(
  ctx: AccountsContext,
  input: { token: string; password: string },
  origin: RequestOrigin,
): Promise<void> {
  const tokenHash = hashResetToken(input.token);
  const passwordHash = await hashPassword(input.password);
  const userId = await withTransaction(ctx.pool, async (db) => {
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
    return usable.userId;
  });
  await ctx.sessions.endAllSessions(userId);
}

function resetEmailText(name: string, link: string): string {
  return [
    `Hello ${name},`,
    '',
    'We received a request to reset the password of your WarmLine account.',
    'Open this link to choose a new password (it works once and expires in 1 hour):',
    '',
    link,
    '',
    'If you did not ask for this, you can ignore this e-mail; your password stays the same.',
  ].join('\n');
}

function resetEmailHtml(name: string, link: string): string {
  const safeLink = escapeHtml(link);
  return [
    `<p>Hello ${escapeHtml(name)},</p>`,
    '<p>We received a request to reset the password of your WarmLine account.</p>',
    `<p><a href="${safeLink}">Choose a new password</a> (the link works once and expires in 1 hour).</p>`,
    `<p>If the button does not work, copy this address into your browser:<br>${safeLink}</p>`,
    '<p>If you did not ask for this, you can ignore this e-mail; your password stays the same.</p>',
  ].join('\n');
}
