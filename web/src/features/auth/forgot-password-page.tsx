import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { forgotPasswordBody } from '@warmline/contracts/accounts';
import { AuthLayout } from '../../components/auth-layout';
import { Button, ButtonLink } from '../../components/button';
import { TextField } from '../../components/field';
import { MailIcon } from '../../components/icons';
import { toast } from '../../components/toast-store';
import { errorMessage } from '../../lib/api';
import { focusFirstError, validate } from '../../lib/form';
import { usePageTitle } from '../../lib/page-title';
import { useForgotPassword } from './api';

export function ForgotPasswordPage() {
  usePageTitle('Forgot password');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
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

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validate(forgotPasswordBody, { email });
    if (!result.ok) {
      setError(result.errors.email);
      focusFirstError(event.currentTarget, result.errors);
      return;
    }
    setError(undefined);
    forgot.mutate(result.data);
  };

  return (
    <AuthLayout title="Forgot Password" subtitle="Enter your e-mail address and we will send you a link to reset your password.">
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            if (error) setError(undefined);
          }}
          error={error}
        />
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
