import type { CommandData } from '@warmline/contracts';
import type { AccountSecurityChange } from '@warmline/contracts';
import { RINGCLOUD_SUPPORT_EMAIL_DEFAULT, SUPPORT_EMAIL_DEFAULT } from '@warmline/contracts/brands';
import { escapeHtml } from '@warmline/platform/html';
import type { EmailToSend } from './paid-order-email-parts';

/**
 * The e-mails of a user's account: the password-reset link, the welcome after a survey (spec §2,
 * §8), and the notice of every change to how they sign in (issue 22).
 */

export type PasswordResetRequest = CommandData<'email.password_reset'>;
export type WelcomeRequest = CommandData<'email.welcome'>;
type AccountSecurityNotice = CommandData<'email.account_security'>;

const PASSWORD_RESET_TEMPLATE = 'password-reset';
const WELCOME_TEMPLATE = 'welcome';
const ACCOUNT_SECURITY_TEMPLATE = 'account-security';

/** Each change: the subject, and the sentence that says what happened. */
const SECURITY_CHANGES: Record<AccountSecurityChange, { subject: string; happened: string }> = {
  password_reset: { subject: 'Your WarmLine password was reset', happened: 'The password of your WarmLine account was reset with a link we e-mailed you.' },
  password_changed: { subject: 'Your WarmLine password was changed', happened: 'The password of your WarmLine account was changed from your account page.' },
  password_set_by_admin: { subject: 'Your WarmLine password was changed', happened: 'A WarmLine administrator set a new password for your account.' },
  two_factor_on: {
    subject: 'Two-factor authentication is on',
    happened: 'Two-factor authentication was turned on for your WarmLine account: from now on, signing in asks for a code from your authenticator app (or a recovery code).',
  },
  two_factor_off: {
    subject: 'Two-factor authentication is off',
    happened: 'Two-factor authentication was turned off for your WarmLine account: signing in now asks for your password only.',
  },
  two_factor_reset_by_admin: {
    subject: 'Two-factor authentication was reset',
    happened:
      'A WarmLine administrator turned off two-factor authentication for your account (for a lost phone): signing in now asks for your password only, and you can set it up again from your account page.',
  },
};

/** '27 November 2026 at 14:05 UTC': one reading for everyone, whatever their zone. */
function whenText(iso: string): string {
  const at = new Date(iso);
  const date = at.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const time = at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'UTC' });
  return `${date} at ${time} UTC`;
}

/**
 * A change to how the user signs in, told to them at once: what, when, and what to do if it was
 * not them (reset the password from the login page, then write to support). Never a secret.
 */
export function accountSecurityEmail(notice: AccountSecurityNotice, site: { publicUrl: string }, contact: { supportEmail?: string } = {}): EmailToSend {
  const { subject, happened } = SECURITY_CHANGES[notice.change];
  const forgotUrl = `${site.publicUrl.replace(/\/+$/, '')}/forgot-password`;
  const support = contact.supportEmail ?? SUPPORT_EMAIL_DEFAULT;
  const when = whenText(notice.changedAt);
  const notYou =
    notice.change === 'password_reset' || notice.change === 'password_changed' || notice.change === 'password_set_by_admin'
      ? 'If this was not you, someone may have your password or your e-mail: choose a new password at once with the link below, then write to us.'
      : notice.change === 'two_factor_reset_by_admin'
        ? 'If you did not ask for this, choose a new password at once with the link below, then write to us.'
        : 'If this was not you, someone else is signed in to your account: choose a new password at once with the link below, then write to us.';
  return {
    to: notice.to,
    subject,
    template: ACCOUNT_SECURITY_TEMPLATE,
    text: [
      `Hello ${notice.name},`,
      '',
      happened,
      `Account: ${notice.username}`,
      `When: ${when}`,
      '',
      'If this was you, there is nothing to do.',
      notYou,
      '',
      forgotUrl,
      '',
      `Support: ${support}`,
      '',
      'WarmLine',
    ].join('\n'),
    html: [
      `<p>Hello ${escapeHtml(notice.name)},</p>`,
      `<p>${escapeHtml(happened)}</p>`,
      `<p>Account: <strong>${escapeHtml(notice.username)}</strong><br>When: ${escapeHtml(when)}</p>`,
      '<p>If this was you, there is nothing to do.</p>',
      `<p>${escapeHtml(notYou)}</p>`,
      `<p><a href="${escapeHtml(forgotUrl)}">Choose a new password</a></p>`,
      `<p>Support: <a href="mailto:${escapeHtml(support)}">${escapeHtml(support)}</a></p>`,
    ].join('\n'),
  };
}

/** '1 hour', '30 minutes'. */
function lifetime(minutes: number): string {
  if (minutes % 60 === 0) return `${minutes / 60} hour${minutes === 60 ? '' : 's'}`;
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** The reset link, marked secret so the sent command's row is emptied once the broker has it. */
export function passwordResetEmail(request: PasswordResetRequest): EmailToSend {
  const { name, resetUrl: link, username } = request;
  const expires = lifetime(request.expiresInMinutes);
  const safeLink = escapeHtml(link);
  return {
    to: request.to,
    subject: 'Reset your WarmLine password',
    template: PASSWORD_RESET_TEMPLATE,
    secret: true,
    text: [
      `Hello ${name},`,
      '',
      'We received a request to reset the password of your WarmLine account.',
      ...(username ? [`Your username is ${username}: log in with it and your new password.`] : []),
      `Open this link to choose a new password (it works once and expires in ${expires}):`,
      '',
      link,
      '',
      'If you did not ask for this, you can ignore this e-mail; your password stays the same.',
    ].join('\n'),
    html: [
      `<p>Hello ${escapeHtml(name)},</p>`,
      '<p>We received a request to reset the password of your WarmLine account.</p>',
      ...(username ? [`<p>Your username is <strong>${escapeHtml(username)}</strong>: log in with it and your new password.</p>`] : []),
      `<p><a href="${safeLink}">Choose a new password</a> (the link works once and expires in ${expires}).</p>`,
      `<p>If the button does not work, copy this address into your browser:<br>${safeLink}</p>`,
      '<p>If you did not ask for this, you can ignore this e-mail; your password stays the same.</p>',
    ].join('\n'),
  };
}

/**
 * The agent's welcome once a survey created their account: how to log in, what happens next.
 * In the name of the brand whose survey they took (the second brand's sign-ups never saw WarmLine).
 */
export function welcomeEmail(request: WelcomeRequest, contact: { ringcloudSupportEmail?: string } = {}): EmailToSend {
  const brand = request.brand ?? 'WarmLine';
  const support = brand === 'RingCloud' ? (contact.ringcloudSupportEmail ?? RINGCLOUD_SUPPORT_EMAIL_DEFAULT) : undefined;
  return {
    to: request.to,
    brand,
    subject: `Welcome to ${brand}: your account is ready`,
    template: WELCOME_TEMPLATE,
    text: [
      `Hello ${request.firstName},`,
      '',
      `Thank you for completing our survey. Your ${brand} account has been created.`,
      `Log in with your username "${request.username}" and the password you chose:`,
      '',
      request.loginUrl,
      '',
      'Our team will contact you within 24 hours to confirm your preferences and pricing.',
      ...(support ? ['', `Questions? Write to ${support}.`] : []),
      '',
      brand,
    ].join('\n'),
  };
}
