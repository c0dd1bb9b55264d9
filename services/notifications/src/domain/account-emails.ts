import type { CommandData } from '@warmline/contracts';
import { RINGCLOUD_SUPPORT_EMAIL_DEFAULT } from '@warmline/contracts/brands';
import { escapeHtml } from '@warmline/platform/html';
import type { EmailToSend } from './paid-order-email-parts';

/** The e-mails of a user's account: the password-reset link and the welcome after a survey (spec §2, §8). */

export type PasswordResetRequest = CommandData<'email.password_reset'>;
export type WelcomeRequest = CommandData<'email.welcome'>;

const PASSWORD_RESET_TEMPLATE = 'password-reset';
const WELCOME_TEMPLATE = 'welcome';

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
