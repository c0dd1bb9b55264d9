import { useState } from 'react';
import { twoFactorCodeBody, type TwoFactorEnrolment as Enrolment } from '@warmline/contracts/accounts';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { errorMessage } from '../../lib/api';
import { useForm } from '../../lib/form';
import { useConfirmTwoFactor, useEnrolTwoFactor, type TwoFactorConfirmed } from '../auth/api';
import { RecoveryCodes } from './recovery-codes';

/**
 * Setting up a second factor: the QR code (or the secret to type), the ten recovery codes to
 * keep, then a first code from the app, which turns it on. Used from the account page and as
 * the last step of an admin's login when a second factor is required.
 */
export function TwoFactorEnrolment({ onDone, intro }: { onDone(answer: TwoFactorConfirmed): void; intro?: string }) {
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const enrol = useEnrolTwoFactor({ onSuccess: setEnrolment });
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
        {enrol.isError && <p role="alert" className="form-error">{errorMessage(enrol.error, 'Two-factor setup failed. Please try again.')}</p>}
        <Button onClick={() => enrol.mutate()} busy={enrol.isPending}>
          Set up two-factor authentication
        </Button>
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
            onSubmit={form.handleSubmit(twoFactorCodeBody, (data) => confirm.mutate(data))}
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
