import { useState } from 'react';
import { changeOwnPasswordForm, CURRENT_PASSWORD_INCORRECT, twoFactorDisableBody } from '@warmline/contracts/accounts';
import { Button } from '../../components/button';
import { PasswordField, TextField } from '../../components/field';
import { Spinner } from '../../components/spinner';
import { toast } from '../../components/toast-store';
import { errorMessage } from '../../lib/api';
import { useForm } from '../../lib/form';
import { useChangeOwnPassword, useDisableTwoFactor, useTwoFactorStatus } from '../auth/api';
import { TwoFactorEnrolment } from './two-factor-enrolment';
import './account.css';

/** The signed-in user's password and second factor (issue 11): on the dashboard and for admins. */
export function AccountSecurity() {
  return (
    <div className="account-security">
      <ChangePasswordCard />
      <TwoFactorCard />
    </div>
  );
}

type PasswordValues = { currentPassword: string; newPassword: string; confirmPassword: string };

function ChangePasswordCard() {
  const form = useForm<PasswordValues>({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const change = useChangeOwnPassword({
    onSuccess: () => {
      form.setValues({ currentPassword: '', newPassword: '', confirmPassword: '' });
      toast({ title: 'Password changed', description: 'You are signed out everywhere else.', variant: 'success' });
    },
    onError: (error) => {
      const message = errorMessage(error, 'Failed to change password');
      // The server's word on the current password belongs beside that field.
      if (message === 'Current password is incorrect') form.setErrors({ currentPassword: message });
      else toast({ title: 'Failed to change password', description: message, variant: 'destructive' });
    },
  });
  return (
    <section className="card account-card" aria-labelledby="change-password-title">
      <h2 id="change-password-title" className="account-card__title">
        Change Password
      </h2>
      <form
        className="form"
        noValidate
        onSubmit={form.handleSubmit(changeOwnPasswordForm, ({ currentPassword, newPassword }) =>
          change.mutate({ currentPassword, newPassword }),
        )}
      >
        <PasswordField label="Current Password" autoComplete="current-password" {...form.field('currentPassword')} />
        <PasswordField
          label="New Password"
          autoComplete="new-password"
          hint="At least 8 characters, not a common password."
          {...form.field('newPassword')}
        />
        <PasswordField label="Confirm New Password" autoComplete="new-password" {...form.field('confirmPassword')} />
        <div>
          <Button type="submit" busy={change.isPending}>
            {change.isPending ? 'Changing…' : 'Change Password'}
          </Button>
        </div>
      </form>
    </section>
  );
}

function TwoFactorCard() {
  const status = useTwoFactorStatus();
  const [turningOff, setTurningOff] = useState(false);
  const form = useForm({ code: '', currentPassword: '' });
  const disable = useDisableTwoFactor({
    onSuccess: () => {
      setTurningOff(false);
      form.setValues({ code: '', currentPassword: '' });
      toast({ title: 'Two-factor authentication is off', variant: 'success' });
    },
    onError: (error) => {
      const message = errorMessage(error, 'Invalid code');
      form.setErrors(message === CURRENT_PASSWORD_INCORRECT ? { currentPassword: message } : { code: message });
    },
  });

  return (
    <section className="card account-card" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title" className="account-card__title">
        Two-Factor Authentication
      </h2>
      {status.isPending ? (
        <Spinner label="Loading…" showLabel />
      ) : status.isError ? (
        <p role="alert">Your two-factor settings could not be loaded. Please try again later.</p>
      ) : status.data.enabled ? (
        <div className="two-factor">
          <p>
            <span className="badge badge--success">On</span> Every sign-in asks for a code from your authenticator app.{' '}
            {status.data.recoveryCodesLeft} of 10 recovery codes left.
          </p>
          {status.data.required ? (
            <p className="account-card__note">Admin accounts must keep two-factor authentication on.</p>
          ) : turningOff ? (
            <form className="form" noValidate onSubmit={form.handleSubmit(twoFactorDisableBody, (data) => disable.mutate(data))}>
              <PasswordField label="Current password" autoComplete="current-password" {...form.field('currentPassword')} />
              <TextField
                label="Code from the app or a recovery code"
                autoComplete="one-time-code"
                {...form.field('code')}
              />
              <div className="form__row">
                <Button type="submit" variant="danger" busy={disable.isPending}>
                  Turn off
                </Button>
                <Button variant="secondary" onClick={() => setTurningOff(false)}>
                  Cancel
                </Button>
              </div>
            </form>
          ) : (
            <Button variant="secondary" onClick={() => setTurningOff(true)}>
              Turn off two-factor authentication
            </Button>
          )}
        </div>
      ) : (
        <TwoFactorEnrolment
          askPassword
          onDone={() => toast({ title: 'Two-factor authentication is on', variant: 'success' })}
          {...(status.data.required ? { intro: 'Admin accounts must use two-factor authentication. Set it up now.' } : {})}
        />
      )}
    </section>
  );
}
