import { readFileSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ASYNCAPI_PATH,
  renderAsyncApi,
} from '../src/docs/asyncapi';
import {
  changeOwnPasswordForm,
  changePasswordForm,
  forgotPasswordBody,
  liveTransferPriceBody,
  loginBody,
  resetPasswordForm,
} from '../src/index';
import { isCommonPassword } from '../src/common-passwords';

const firstMessage = (r: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  r.success ? undefined : r.error?.issues[0]?.message;

describe('account bodies carry the spec messages', () => {
  it('when the username or password is missing, then login says which is required', () => {
    expect(firstMessage(loginBody.safeParse({ username: '', password: 'x' }))).toBe('Username is required');
    expect(firstMessage(loginBody.safeParse({ username: 'ann' }))).toBe('Password is required');
    expect(firstMessage(loginBody.safeParse({}))).toBe('Username is required');
  });

  it('when a new password is short or unconfirmed, then the reset form says so', () => {
    expect(firstMessage(resetPasswordForm.safeParse({ password: 'short', confirmPassword: 'short' }))).toBe(
      'Password must be at least 8 characters',
    );
    expect(firstMessage(resetPasswordForm.safeParse({ password: 'long enough', confirmPassword: 'different' }))).toBe(
      "Passwords don't match",
    );
    expect(firstMessage(changePasswordForm.safeParse({ newPassword: 'long enough', confirmPassword: 'x' }))).toBe(
      "Passwords don't match",
    );
  });

  it('when a new password is on the common list (in any case), then every password form says it is too common', () => {
    expect(firstMessage(resetPasswordForm.safeParse({ password: 'PASSWORD1', confirmPassword: 'PASSWORD1' }))).toBe('This password is too common');
    expect(firstMessage(changePasswordForm.safeParse({ newPassword: 'iloveyou1', confirmPassword: 'iloveyou1' }))).toBe('This password is too common');
    expect(firstMessage(changeOwnPasswordForm.safeParse({ currentPassword: 'x', newPassword: '12345678', confirmPassword: '12345678' }))).toBe(
      'This password is too common',
    );
    expect(changeOwnPasswordForm.safeParse({ currentPassword: 'x', newPassword: 'a quiet harbor', confirmPassword: 'a quiet harbor' }).success).toBe(true);
    expect(isCommonPassword('a quiet harbor')).toBe(false);
    expect(isCommonPassword('Qwertyuiop')).toBe(true);
  });

  it('when the e-mail is not an address, then forgot-password asks for a valid one', () => {
    expect(firstMessage(forgotPasswordBody.safeParse({ email: 'nope' }))).toBe('Please enter a valid email address');
    expect(forgotPasswordBody.parse({ email: ' ann@example.com ' }).email).toBe('ann@example.com');
  });

  it('when an admin sets a live transfer price, then it is normalised to two decimals and bad values are refused', () => {
    expect(liveTransferPriceBody.parse({ price: 40 }).price).toBe('40.00');
    expect(liveTransferPriceBody.parse({ price: '37.5' }).price).toBe('37.50');
    expect(liveTransferPriceBody.parse({ price: 0 }).price).toBe('0.00');
    expect(firstMessage(liveTransferPriceBody.safeParse({ price: -1 }))).toBe('Price must be at least 0');
    expect(firstMessage(liveTransferPriceBody.safeParse({ price: '1.234' }))).toBe(
      'Price must be a number with at most two decimals',
    );
    expect(firstMessage(liveTransferPriceBody.safeParse({ price: 'abc' }))).toBe(
      'Price must be a number with at most two decimals',
    );
    expect(firstMessage(liveTransferPriceBody.safeParse({ price: '' }))).toBe('Price is required');
    expect(firstMessage(liveTransferPriceBody.safeParse({}))).toBe('Price is required');
  });
});

describe('the event catalog', () => {
  it('when the schemas change, then docs/events/asyncapi.json is regenerated (npm run docs:events)', () => {
    expect(existsSync(ASYNCAPI_PATH)).toBe(true);
    expect(readFileSync(ASYNCAPI_PATH, 'utf8')).toBe(renderAsyncApi());
  });
});
