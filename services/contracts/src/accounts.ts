import { z } from 'zod';
import { isCommonPassword } from './common-passwords';

/** Bodies of the account API, with the product spec's own messages (spec §5). */

export const USER_ROLES = ['Insurance Agent', 'Agency Owner'] as const;
const userRoleSchema = z.enum(USER_ROLES);
export type UserRole = z.infer<typeof userRoleSchema>;

/** Default per-transfer price of a new user (spec §9). */
export const DEFAULT_LIVE_TRANSFER_PRICE = '35.00';
export const RESET_LINK_TTL_MINUTES = 60;
const MIN_NEW_PASSWORD_LENGTH = 8;

const requiredText = (message: string) =>
  z.string({ error: message }).trim().min(1, message);

export const loginBody = z.object({
  // The username or the account's e-mail address (issue 17), so long enough for an address.
  username: requiredText('Username is required').max(254, 'Username must be at most 254 characters'),
  // Longer than any password the forms accept (200), so an older or configured one still logs in.
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1000, 'Password must be at most 1000 characters'),
});
export type LoginBody = z.infer<typeof loginBody>;

const PASSWORD_TOO_SHORT = 'Password must be at least 8 characters';
const PASSWORD_TOO_COMMON = 'This password is too common';
export const CURRENT_PASSWORD_INCORRECT = 'Current password is incorrect';

/**
 * Every password a person chooses (survey, reset, admin change, own change): at least 8
 * characters and not on the list of common passwords (issue 11, ASVS 6.2.1 and 6.2.4; this
 * overrides spec §5's 6 characters for the survey).
 */
export const newPasswordSchema = z
  .string({ error: PASSWORD_TOO_SHORT })
  .min(MIN_NEW_PASSWORD_LENGTH, PASSWORD_TOO_SHORT)
  .max(200, 'Password must be at most 200 characters')
  .refine((password) => !isCommonPassword(password), PASSWORD_TOO_COMMON);
const newPassword = newPasswordSchema;

export const forgotPasswordBody = z.object({
  email: z.string({ error: 'Please enter a valid email address' }).trim().max(254, 'Please enter a valid email address').pipe(
    z.email('Please enter a valid email address'),
  ),
});

/** A reset link's token (a few dozen characters); anything much longer is no link of ours. */
const resetToken = z.string({ error: 'No reset token' }).min(1, 'No reset token').max(200, 'Invalid or Expired Link');

export const validateResetTokenBody = z.object({
  token: resetToken,
});

export const resetPasswordBody = z.object({
  token: resetToken,
  password: newPassword,
});

/** The reset form in the SPA also checks the confirmation; the server only needs `password`. */
export const resetPasswordForm = z
  .object({ password: newPassword, confirmPassword: z.string().max(200, "Passwords don't match") })
  .refine((v) => v.password === v.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });

export const CURRENT_PASSWORD_REQUIRED = 'Current password is required';
const currentPassword = z.string({ error: CURRENT_PASSWORD_REQUIRED }).min(1, CURRENT_PASSWORD_REQUIRED).max(200, CURRENT_PASSWORD_INCORRECT);

/** An admin setting a user's password; their own needs their current one (issue 25). */
export const changePasswordBody = z.object({ newPassword, currentPassword: currentPassword.optional() });

/** A logged-in user changing their own password from the dashboard. */
export const changeOwnPasswordBody = z.object({ currentPassword, newPassword });
export type ChangeOwnPasswordBody = z.infer<typeof changeOwnPasswordBody>;

export const changeOwnPasswordForm = z
  .object({ currentPassword: changeOwnPasswordBody.shape.currentPassword, newPassword, confirmPassword: z.string().max(200, "Passwords don't match") })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });

export const changePasswordForm = z
  .object({ newPassword, confirmPassword: z.string().max(200, "Passwords don't match") })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });

/**
 * A per-transfer price: a number or numeric text, at least 0, at most two decimals.
 * Normalised to a two-decimal string, the form the spec shows ('35.00').
 */
export const liveTransferPriceBody = z.object({
  price: z
    .union([z.number(), z.string().trim().min(1, 'Price is required').max(20, 'Price must be a number with at most two decimals')], {
      error: 'Price is required',
    })
    .transform((v, ctx) => {
      const text = typeof v === 'number' ? String(v) : v;
      if (!/^\d+(\.\d{1,2})?$/.test(text) && !/^-/.test(text)) {
        ctx.addIssue({ code: 'custom', message: 'Price must be a number with at most two decimals' });
        return z.NEVER;
      }
      const n = Number(text);
      if (!Number.isFinite(n) || n < 0) {
        ctx.addIssue({ code: 'custom', message: 'Price must be at least 0' });
        return z.NEVER;
      }
      if (n > 100000) {
        ctx.addIssue({ code: 'custom', message: 'Price must be at most 100000' });
        return z.NEVER;
      }
      return n.toFixed(2);
    }),
});

/** What the API answers for a user: never a password or hash. */
const publicUser = z.object({
  id: z.uuid(),
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string(),
  agencyName: z.string(),
  role: z.string(),
  isAdmin: z.boolean(),
  liveTransferPrice: z.string(),
  createdAt: z.string(),
});
export type PublicUser = z.infer<typeof publicUser>;

/* ---------------------------------------------------------- second factor ---------- */

export const INVALID_TWO_FACTOR_CODE = 'Invalid code';

/** A 6-digit code from the authenticator app, or one of the recovery codes. */
export const twoFactorCodeBody = z.object({
  code: z
    .string({ error: 'Enter the code from your authenticator app' })
    .trim()
    .min(1, 'Enter the code from your authenticator app')
    .max(40, INVALID_TWO_FACTOR_CODE),
});

/**
 * Changing the second factor asks for the current password of a logged-in user (issue 25): an
 * open session alone must not swap the factor. A login waiting for its first enrolment has just
 * given it, so there it may be absent.
 */
export const twoFactorEnrolBody = z.object({ currentPassword: currentPassword.optional() });
export const twoFactorConfirmBody = twoFactorCodeBody.extend({ currentPassword: currentPassword.optional() });
export const twoFactorDisableBody = twoFactorCodeBody.extend({ currentPassword });

/**
 * What POST /api/login answers: the user when the login is complete; otherwise the second
 * step it waits for (a code from the user's app, or, for an admin who must have one, a first
 * enrolment).
 */
export type LoginAnswer = SignedInUser | { twoFactorRequired: true } | { twoFactorEnrolmentRequired: true };

/**
 * The user a completed sign-in answers with (the login, its code step, a first enrolment):
 * `firstLogin` when no sign-in was recorded before, so the site says 'Welcome' and not
 * 'Welcome back' (issue 17).
 */
export type SignedInUser = PublicUser & { firstLogin: boolean };

export interface TwoFactorStatus {
  /** A confirmed enrolment: a code is asked at every login. */
  enabled: boolean;
  /** This user may not turn it off and must have it (admins in production). */
  required: boolean;
  recoveryCodesLeft: number;
}

/** A new enrolment, shown once: the app reads the QR code (or the secret typed by hand). */
export interface TwoFactorEnrolment {
  otpauthUrl: string;
  /** The otpauth URL as an SVG QR code, in a data: URL. */
  qrCode: string;
  /** The base32 secret, for typing into an app that cannot scan. */
  secret: string;
  recoveryCodes: string[];
}
