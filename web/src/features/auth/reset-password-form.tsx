import { resetPasswordForm } from '@warmline/contracts/accounts';
import { Button } from '../../components/button';
import { PasswordField } from '../../components/field';
import { useForm } from '../../lib/form';

type ResetValues = { password: string; confirmPassword: string };

/** New password + confirmation, checked with the contracts schema before anything is sent. */
export function ResetPasswordForm({ onSubmit, busy = false }: { onSubmit: (password: string) => void; busy?: boolean }) {
  const form = useForm<ResetValues>({ password: '', confirmPassword: '' });

  return (
    <form className="form" onSubmit={form.handleSubmit(resetPasswordForm, (data) => onSubmit(data.password))} noValidate>
      <PasswordField label="New Password" autoComplete="new-password" hint="At least 8 characters, not a common password." {...form.field('password')} />
      <PasswordField label="Confirm New Password" autoComplete="new-password" {...form.field('confirmPassword')} />
      <Button type="submit" block busy={busy}>
        {busy ? 'Resetting…' : 'Reset Password'}
      </Button>
    </form>
  );
}
