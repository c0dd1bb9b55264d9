import { z } from 'zod';

/** Bodies of the account API, with the product spec's own messages (spec §5). */

export const USER_ROLES = ['Insurance Agent', 'Agency Owner'] as const;
export const userRoleSchema = z.enum(USER_ROLES);
export type UserRole = z.infer<typeof userRoleSchema>;

/** Default per-transfer price of a new user (spec §9). */
export const DEFAULT_LIVE_TRANSFER_PRICE = '35.00';
export const RESET_LINK_TTL_MINUTES = 60;
export const MIN_NEW_PASSWORD_LENGTH = 8;

const requiredText = (message: string) =>
  z.string({ error: message }).trim().min(1, message);

export const loginBody = z.object({
  username: requiredText('Username is required'),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required'),
});
export type LoginBody = z.infer<typeof loginBody>;

const newPassword = z
  .string({ error: 'Password must be at least 8 characters' })
  .min(MIN_NEW_PASSWORD_LENGTH, 'Password must be at least 8 characters')
  .max(200, 'Password must be at most 200 characters');

export const forgotPasswordBody = z.object({
  email: z.string({ error: 'Please enter a valid email address' }).trim().pipe(
    z.email('Please enter a valid email address'),
  ),
});

export const validateResetTokenBody = z.object({
  token: z.string({ error: 'No reset token' }).min(1, 'No reset token'),
});

export const resetPasswordBody = z.object({
  token: z.string({ error: 'No reset token' }).min(1, 'No reset token'),
  password: newPassword,
});

/** The reset form in the SPA also checks the confirmation; the server only needs `password`. */
export const resetPasswordForm = z
  .object({ password: newPassword, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });

export const changePasswordBody = z.object({ newPassword });

export const changePasswordForm = z
  .object({ newPassword, confirmPassword: z.string() })
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
    .union([z.number(), z.string().trim().min(1, 'Price is required')], {
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

export const userIdParams = z.object({ id: z.uuid('User not found') });

/** What the API answers for a user: never a password or hash. */
export const publicUser = z.object({
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
