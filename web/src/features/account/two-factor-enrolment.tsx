import { useState } from 'react';
import { changeOwnPasswordBody, CURRENT_PASSWORD_INCORRECT, twoFactorCodeBody, type TwoFactorEnrolment as Enrolment } from '@warmline/contracts/accounts';
import { Button } from '../../components/button';
import { PasswordField, TextField } from '../../components/field';
import { errorMessage } from '../../lib/api';
import { useForm } from '../../lib/form';
import { useConfirmTwoFactor, useEnrolTwoFactor, type TwoFactorConfirmed } from '../auth/api';
import { RecoveryCodes } from './recovery-codes';

/**
 * Setting up a second factor: the QR code (or the secret to type), the ten recovery codes to
 * keep, then a first code from the app, which turns it on. Used from the account page and as
 * the last step of an admin's login when a second factor is required. `askPassword` (the account
 * page): the current password is asked first and sent with the set-up and the first code
 * (issue 25); a login's own enrolment step has just been given it.
 */
const currentPasswordForm = changeOwnPasswordBody.pick({ currentPassword: true });

export function TwoFactorEnrolment({ onDone, intro, askPassword = false }: { onDone(answer: TwoFactorConfirmed): void; intro?: string; askPassword?: boolean }) {
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [currentPassword, setCurrentPassword] = useState<string | undefined>(undefined);
  const passwordForm = useForm({ currentPassword: '' });
  const enrol = useEnrolTwoFactor({
    onSuccess: setEnrolment,
    onError: (error) => {
      if (errorMessage(error, '') === CURRENT_PASSWORD_INCORRECT) passwordForm.setErrors({ currentPassword: CURRENT_PASSWORD_INCORRECT });
    },
  });
  const start = (password: string | undefined) => {
    setCurrentPassword(password);
    enrol.mutate(password === undefined ? {} : { currentPassword: password });
  };
  const form = useForm({ code: '' });
  const confirm = useConfirmTwoFactor({
    onSuccess: onDone,
    onError: (error) => form.setErrors({ code: errorMessage(error, 'Invalid code') }),
  });

  if (!enrolment) {
    return (
      <div className="two-factor">
        <p>
          {intro ??
            'Protect your account with a second step at sign-in: a 6-digit code from an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, Authy…).'}
        </p>
        {enrol.isError && errorMessage(enrol.error, '') !== CURRENT_PASSWORD_INCORRECT && (
          <p role="alert" className="form-error">{errorMessage(enrol.error, 'Two-factor setup failed. Please try again.')}</p>
        )}
        {askPassword ? (
          <form className="form" noValidate onSubmit={passwordForm.handleSubmit(currentPasswordForm, (data) => start(data.currentPassword))}>
            <PasswordField label="Current password" autoComplete="current-password" {...passwordForm.field('currentPassword')} />
            <Button type="submit" busy={enrol.isPending}>
              Set up two-factor authentication
            </Button>
          </form>
        ) : (
          <Button onClick={() => start(undefined)} busy={enrol.isPending}>
            Set up two-factor authentication
          </Button>
        )}
      </div>
    );
  }

  return (
    <div className="two-factor">
      <ol className="two-factor__steps">
        <li>
          <p>Scan this QR code with your authenticator app.</p>
          <img className="two-factor__qr" src={enrolment.qrCode} alt="QR code for your authenticator app" width={200} height={200} />
          <p className="two-factor__secret">
            Can’t scan it? Enter this key: <code>{enrolment.secret.match(/.{1,4}/g)?.join(' ')}</code>
          </p>
        </li>
        <li>
          <p>
            Keep these recovery codes somewhere safe. Each one signs you in once if you lose your phone; they are shown
            only now.
          </p>
          <RecoveryCodes codes={enrolment.recoveryCodes} />
        </li>
        <li>
          <form
            className="form"
            noValidate
            onSubmit={form.handleSubmit(twoFactorCodeBody, (data) => confirm.mutate(currentPassword === undefined ? data : { ...data, currentPassword }))}
          >
            <TextField
              label="Code from the app"
              inputMode="numeric"
              autoComplete="one-time-code"
              hint="The 6 digits your app shows now."
              {...form.field('code')}
            />
            <Button type="submit" busy={confirm.isPending}>
              Turn on two-factor authentication
            </Button>
          </form>
        </li>
      </ol>
    </div>
  );
}
