import { useState, type FormEvent } from 'react';
import { resetPasswordForm } from '@warmline/contracts/accounts';
import { Button } from '../../components/button';
import { PasswordField } from '../../components/field';
import { focusFirstError, validate, type FieldErrors } from '../../lib/form';

type ResetValues = { password: string; confirmPassword: string };

/** New password + confirmation, checked with the contracts schema before anything is sent. */
export function ResetPasswordForm({ onSubmit, busy = false }: { onSubmit: (password: string) => void; busy?: boolean }) {
  const [values, setValues] = useState<ResetValues>({ password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<FieldErrors<ResetValues>>({});

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validate(resetPasswordForm, values);
    if (!result.ok) {
      setErrors(result.errors);
      focusFirstError(event.currentTarget, result.errors);
      return;
    }
    setErrors({});
    onSubmit(result.data.password);
  };

  const set = (field: keyof ResetValues) => (event: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: event.target.value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  return (
    <form className="form" onSubmit={submit} noValidate>
      <PasswordField
        label="New Password"
        name="password"
        autoComplete="new-password"
        hint="At least 8 characters."
        value={values.password}
        onChange={set('password')}
        error={errors.password}
      />
      <PasswordField
        label="Confirm New Password"
        name="confirmPassword"
        autoComplete="new-password"
        value={values.confirmPassword}
        onChange={set('confirmPassword')}
        error={errors.confirmPassword}
      />
      <Button type="submit" block busy={busy}>
        {busy ? 'Resetting…' : 'Reset Password'}
      </Button>
    </form>
  );
}
