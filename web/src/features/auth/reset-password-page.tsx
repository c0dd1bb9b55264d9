import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { AuthLayout } from '../../components/auth-layout';
import { ButtonLink } from '../../components/button';
import { AlertIcon, CheckIcon, LockIcon } from '../../components/icons';
import { PageSpinner } from '../../components/spinner';
import { toast } from '../../components/toast-store';
import { ApiError, errorMessage } from '../../lib/api';
import { usePageTitle } from '../../lib/page-title';
import { useResetPassword, useResetTokenCheck } from './api';
import { ResetPasswordForm } from './reset-password-form';

/** The reset link's screen: unchecked → valid (the form) or invalid; after a reset, done. */
export function ResetPasswordPage() {
  usePageTitle('Reset password');
  const [params] = useSearchParams();
  const token = params.get('token');
  const check = useResetTokenCheck(token);
  const [done, setDone] = useState(false);
  const [rejected, setRejected] = useState(false);
  const reset = useResetPassword({
    onSuccess: () => setDone(true),
    onError: (error) => {
      // The token expired or was used while the form was open.
      if (error instanceof ApiError && error.status === 400 && error.serverMessage === 'Invalid or Expired Link') {
        setRejected(true);
      }
      toast({ title: 'Reset Failed', description: errorMessage(error, 'Failed to reset password'), variant: 'destructive' });
    },
  });

  if (!token) {
    return (
      <AuthLayout title="Invalid Reset Link" icon={<AlertIcon />} tone="danger">
        <p className="auth-card__text">No reset token was found in this link. Please use the link from your e-mail, or ask for a new one.</p>
        <RequestNewLink />
      </AuthLayout>
    );
  }

  if (done) {
    return (
      <AuthLayout title="Password Reset Complete" icon={<CheckIcon />} tone="success">
        <p className="auth-card__text">Your password has been changed. Sign in with your new password.</p>
        <ButtonLink to="/login" block>
          Continue to Login
        </ButtonLink>
      </AuthLayout>
    );
  }

  if (check.isPending) return <PageSpinner label="Checking your reset link…" />;

  if (rejected || check.isError || !check.data?.valid) {
    return (
      <AuthLayout title="Invalid or Expired Link" icon={<AlertIcon />} tone="danger">
        <p className="auth-card__text">
          This password reset link is invalid or has expired. A link works once and for 1 hour.
        </p>
        <RequestNewLink />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Reset Your Password" subtitle="Choose a new password for your account." icon={<LockIcon />}>
      <ResetPasswordForm busy={reset.isPending} onSubmit={(password) => reset.mutate({ token, password })} />
      <p className="card-page__footer">
        <Link to="/login" className="link">
          Back to Login
        </Link>
      </p>
    </AuthLayout>
  );
}

function RequestNewLink() {
  return (
    <div className="stack">
      <ButtonLink to="/forgot-password" block>
        Request New Reset Link
      </ButtonLink>
      <ButtonLink to="/login" variant="secondary" block>
        Back to Login
      </ButtonLink>
    </div>
  );
}
