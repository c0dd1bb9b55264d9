import { useState } from 'react';
import { Link } from 'react-router-dom';
import { forgotPasswordBody } from '@warmline/contracts/accounts';
import { AuthLayout } from '../../components/auth-layout';
import { Button, ButtonLink } from '../../components/button';
import { TextField } from '../../components/field';
import { MailIcon } from '../../components/icons';
import { toast } from '../../components/toast-store';
import { errorMessage } from '../../lib/api';
import { useForm } from '../../lib/form';
import { usePageTitle } from '../../lib/page-title';
import { useForgotPassword } from './api';

export function ForgotPasswordPage() {
  usePageTitle('Forgot password');
  const form = useForm({ email: '' });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const forgot = useForgotPassword({
    onSuccess: (_data, variables) => setSentTo(variables.email),
    onError: (err) => {
      toast({
        title: 'Request Failed',
        description: errorMessage(err, 'Something went wrong. Please try again.'),
        variant: 'destructive',
      });
    },
  });

  if (sentTo !== null) {
    return (
      <AuthLayout title="Check Your Email" icon={<MailIcon />}>
        <p className="auth-card__text">
          If an account exists for <strong>{sentTo}</strong>, we have sent it a link to reset your password. The link
          works once and expires in 1 hour.
        </p>
        <p className="auth-card__text auth-card__text--muted">No e-mail after a few minutes? Check your spam folder or try again.</p>
        <div className="stack">
          <Button
            variant="secondary"
            block
            onClick={() => {
              forgot.reset();
              setSentTo(null);
            }}
          >
            Try Again
          </Button>
          <ButtonLink to="/login" block>
            Back to Login
          </ButtonLink>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Forgot Password" subtitle="Enter your e-mail address and we will send you a link to reset your password.">
      <form className="form" onSubmit={form.handleSubmit(forgotPasswordBody, (data) => forgot.mutate(data))} noValidate>
        <TextField label="Email" type="email" autoComplete="email" inputMode="email" {...form.field('email')} />
        <Button type="submit" block busy={forgot.isPending}>
          {forgot.isPending ? 'Sending…' : 'Send Reset Link'}
        </Button>
      </form>
      <p className="card-page__footer">
        <Link to="/login" className="link">
          Back to Login
        </Link>
      </p>
    </AuthLayout>
  );
}
