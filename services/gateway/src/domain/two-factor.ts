import QRCode from 'qrcode';
import { INVALID_TWO_FACTOR_CODE, type TwoFactorEnrolment, type TwoFactorStatus } from '@warmline/contracts';
import { badRequest, conflict, unauthorized, withTransaction } from '@warmline/platform';
import {
  countUnusedRecoveryCodes,
  deleteTwoFactor,
  findTwoFactor,
  replaceTwoFactor,
  useRecoveryCode,
  useTotpStep,
} from '../db/two-factor';
import type { UserRecord } from '../db/users';
import type { AccountsContext } from './context';
import { tellAccountSecurityChange } from './security-notices';
import {
  decryptSecret,
  encryptSecret,
  hashRecoveryCode,
  matchTotp,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUrl,
  base32,
} from './totp';
import type { ThrottleRule } from '../edge/throttle';

/**
 * The second factor (issue 11, ASVS 6.3.3): TOTP codes from an authenticator app, with ten
 * one-time recovery codes. Admins must have one when `requiredForAdmins` (production);
 * anyone else may enrol. Once enrolled, every login asks for a code after the password.
 */

interface TwoFactorSettings {
  /** AES-256-GCM key of the stored secrets (see totpEncryptionKey). */
  encryptionKey: Buffer;
  /** Admins must enrol at their first login and give a code at every login. */
  requiredForAdmins: boolean;
}

export interface TwoFactorContext extends AccountsContext {
  twoFactor: TwoFactorSettings;
}

/** Wrong codes per user, counted before checking (as login): 5 guesses in 15 minutes of 1,000,000. */
const TWO_FACTOR_FAILURES_PER_USER: ThrottleRule = { name: 'two-factor-user', limit: 5, windowSeconds: 15 * 60 };
const tooManyFailures = (minutes: number) =>
  `Too many wrong codes. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;

const ALREADY_ENROLLED = 'Two-factor authentication is already on';
const NOT_ENROLLED = 'Two-factor authentication is not on';
const REQUIRED_FOR_ADMINS = 'Admins must keep two-factor authentication on';

type Who = Pick<UserRecord, 'id' | 'username' | 'isAdmin'>;

function isRequiredFor(ctx: TwoFactorContext, user: Who): boolean {
  return user.isAdmin && ctx.twoFactor.requiredForAdmins;
}

/** What must follow a right password: nothing, a code, or a first enrolment. */
export async function secondStepAfterPassword(ctx: TwoFactorContext, user: Who): Promise<'none' | 'code' | 'enrol'> {
  const record = await findTwoFactor(ctx.pool, user.id);
  if (record?.confirmedAt) return 'code';
  return isRequiredFor(ctx, user) ? 'enrol' : 'none';
}

export async function twoFactorStatus(ctx: TwoFactorContext, user: Who): Promise<TwoFactorStatus> {
  const record = await findTwoFactor(ctx.pool, user.id);
  const enabled = Boolean(record?.confirmedAt);
  return {
    enabled,
    required: isRequiredFor(ctx, user),
    recoveryCodesLeft: enabled ? await countUnusedRecoveryCodes(ctx.pool, user.id) : 0,
  };
}

/**
 * Starts (or restarts) an enrolment: a new secret and recovery codes, shown this once. It is
 * not used at login until confirmed with a first code, so a QR code scanned badly locks
 * nobody out. A confirmed enrolment must be turned off first (with a code) to start again.
 */
export async function startEnrolment(ctx: TwoFactorContext, user: Who): Promise<TwoFactorEnrolment> {
  const existing = await findTwoFactor(ctx.pool, user.id);
  if (existing?.confirmedAt) throw conflict(ALREADY_ENROLLED);
  const secret = newTotpSecret();
  const recoveryCodes = newRecoveryCodes();
  await withTransaction(ctx.pool, (db) =>
    replaceTwoFactor(db, {
      userId: user.id,
      secretEncrypted: encryptSecret(ctx.twoFactor.encryptionKey, secret, user.id),
      recoveryCodeHashes: recoveryCodes.map(hashRecoveryCode),
    }),
  );
  const url = otpauthUrl(secret, user.username);
  const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return {
    otpauthUrl: url,
    qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    secret: base32(secret),
    recoveryCodes,
  };
}

/** The first code from the app turns a pending enrolment on. */
export async function confirmEnrolment(ctx: TwoFactorContext, user: Who, code: string, correlationId: string): Promise<void> {
  await ctx.throttle.consume([[TWO_FACTOR_FAILURES_PER_USER, user.id]], tooManyFailures);
  const record = await findTwoFactor(ctx.pool, user.id);
  if (!record) throw badRequest(NOT_ENROLLED);
  if (record.confirmedAt) throw conflict(ALREADY_ENROLLED);
  const secret = decryptSecret(ctx.twoFactor.encryptionKey, record.secretEncrypted, user.id);
  const step = secret ? matchTotp(secret, code, record.lastUsedStep) : null;
  const confirmed =
    step !== null &&
    (await withTransaction(ctx.pool, async (db) => {
      if (!(await useTotpStep(db, user.id, step, { confirm: true }))) return false;
      await tellAccountSecurityChange(db, { userId: user.id, change: 'two_factor_on', correlationId });
      return true;
    }));
  if (!confirmed) throw badRequest(INVALID_TWO_FACTOR_CODE);
  await ctx.throttle.clear(TWO_FACTOR_FAILURES_PER_USER, user.id);
}

/**
 * Checks a code of a user with a confirmed enrolment: a TOTP code not used before, or an
 * unused recovery code (then used up). Throws 401 otherwise.
 */
export async function verifySecondFactor(ctx: TwoFactorContext, userId: string, code: string): Promise<void> {
  await ctx.throttle.consume([[TWO_FACTOR_FAILURES_PER_USER, userId]], tooManyFailures);
  const record = await findTwoFactor(ctx.pool, userId);
  if (!record?.confirmedAt) throw unauthorized(INVALID_TWO_FACTOR_CODE);
  const typed = code.replace(/\s/g, '');
  let accepted: boolean;
  if (/^\d{6}$/.test(typed)) {
    const secret = decryptSecret(ctx.twoFactor.encryptionKey, record.secretEncrypted, userId);
    if (!secret) ctx.log.warn({ userId }, 'a TOTP secret cannot be decrypted with the configured key; the user needs a recovery code');
    const step = secret ? matchTotp(secret, typed, record.lastUsedStep) : null;
    accepted = step !== null && (await useTotpStep(ctx.pool, userId, step));
  } else {
    accepted = await useRecoveryCode(ctx.pool, userId, hashRecoveryCode(typed));
  }
  if (!accepted) throw unauthorized(INVALID_TWO_FACTOR_CODE);
  await ctx.throttle.clear(TWO_FACTOR_FAILURES_PER_USER, userId);
}

/** Turns the second factor off, with a code: a session left open must not be enough. */
export async function disableTwoFactor(ctx: TwoFactorContext, user: Who, code: string, correlationId: string): Promise<void> {
  if (isRequiredFor(ctx, user)) throw badRequest(REQUIRED_FOR_ADMINS);
  const record = await findTwoFactor(ctx.pool, user.id);
  if (!record?.confirmedAt) throw badRequest(NOT_ENROLLED);
  await verifySecondFactor(ctx, user.id, code);
  await withTransaction(ctx.pool, async (db) => {
    await deleteTwoFactor(db, user.id);
    await tellAccountSecurityChange(db, { userId: user.id, change: 'two_factor_off', correlationId });
  });
}
