import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { loginBody, twoFactorCodeBody, type SignedInUser } from '@warmline/contracts/accounts';
import { AuthLayout } from '../../components/auth-layout';
import { Button } from '../../components/button';
import { PasswordField, TextField } from '../../components/field';
import { toast } from '../../components/toast-store';
import { errorMessage } from '../../lib/api';
import { useForm } from '../../lib/form';
import { usePageTitle } from '../../lib/page-title';
import { TwoFactorEnrolment } from '../account/two-factor-enrolment';
import { isLoggedIn, useLogin, useVerifyLoginCode, type LoginInput } from './api';
import { RETURN_PARAM, safeReturnPath } from './return-path';
import '../account/account.css';

/** Which step of the sign-in is shown: the password, a code from the app, or a first enrolment. */
type LoginStep = 'password' | 'code' | 'enrol';

/** Spec §7's 'Welcome back!' once the user has signed in before; their first sign-in is a welcome (issue 17). */
function welcomeText(user: SignedInUser): string {
  if (!user.firstLogin) return 'Welcome back!';
  const name = user.firstName.trim();
  return name ? `Welcome, ${name}!` : 'Welcome!';
}

export function LoginPage() {
  usePageTitle('Sign in');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [step, setStep] = useState<LoginStep>('password');

  const welcome = (user: SignedInUser) => {
    toast({ title: 'Login Successful', description: welcomeText(user), variant: 'success' });
    // The page that sent them here (same site only), else their home.
    void navigate(safeReturnPath(params.get(RETURN_PARAM)) ?? (user.isAdmin ? '/admin' : '/dashboard'), { replace: true });
  };

  if (step === 'code') return <CodeStep onLoggedIn={welcome} onRestart={() => setStep('password')} />;
  if (step === 'enrol') {
    return (
      <AuthLayout title="Set Up Two-Factor Authentication" subtitle="Admin accounts need a second step at sign-in">
        <TwoFactorEnrolment
          intro="Before you continue, connect an authenticator app to your account. You will give a code from it at every sign-in."
          onDone={(answer) => {
            if (answer.user) welcome(answer.user);
          }}
        />
      </AuthLayout>
    );
  }
  return <PasswordStep onLoggedIn={welcome} onNext={setStep} />;
}

function PasswordStep({ onLoggedIn, onNext }: { onLoggedIn(user: SignedInUser): void; onNext(step: LoginStep): void }) {
  const form = useForm<LoginInput>({ username: '', password: '' });
  // Why the last attempt failed, kept on the form until the next one: the toast leaves after 5 s.
  const [failure, setFailure] = useState<string | null>(null);
  const login = useLogin({
    onMutate: () => setFailure(null),
    onSuccess: (answer) => {
      if (isLoggedIn(answer)) onLoggedIn(answer);
      else onNext('twoFactorRequired' in answer ? 'code' : 'enrol');
    },
    onError: (error) => {
      const message = errorMessage(error, 'Invalid credentials');
      setFailure(message);
      toast({ title: 'Login Failed', description: message, variant: 'destructive' });
    },
  });

  return (
    <AuthLayout title="Welcome Back" subtitle="Sign in to your account">
      <form className="form" onSubmit={form.handleSubmit(loginBody, (data) => login.mutate(data))} noValidate>
        <TextField
          // The spec's field is 'Username'; the e-mail address works too (issue 17), and the hint says so.
          label="Username"
          hint="Or the e-mail address of your account"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          {...form.field('username')}
        />
        <PasswordField label="Password" autoComplete="current-password" {...form.field('password')} />
        <div className="form__row form__row--end">
          <Link to="/forgot-password" className="link">
            Forgot your password?
          </Link>
        </div>
        {failure ? (
          <div className="form-alert" role="alert">
            <p className="form-alert__title">Login Failed</p>
            <p>{failure}</p>
          </div>
        ) : null}
        <Button type="submit" block busy={login.isPending}>
          {login.isPending ? 'Signing in…' : 'Sign In'}
        </Button>
      </form>
      <p className="card-page__footer">
        New to WarmLine?{' '}
        <Link to="/survey" className="link">
          Complete our survey to get started
        </Link>
      </p>
    </AuthLayout>
  );
}

function CodeStep({ onLoggedIn, onRestart }: { onLoggedIn(user: SignedInUser): void; onRestart(): void }) {
  const form = useForm({ code: '' });
  const verify = useVerifyLoginCode({
    onSuccess: onLoggedIn,
    onError: (error) => form.setErrors({ code: errorMessage(error, 'Invalid code') }),
  });
  return (
    <AuthLayout title="Two-Factor Authentication" subtitle="Enter the code from your authenticator app">
      <form className="form" onSubmit={form.handleSubmit(twoFactorCodeBody, (data) => verify.mutate(data))} noValidate>
        <TextField
          label="Code"
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          hint="The 6 digits your app shows now, or one of your recovery codes."
          {...form.field('code')}
        />
        <Button type="submit" block busy={verify.isPending}>
          {verify.isPending ? 'Checking…' : 'Verify'}
        </Button>
      </form>
      <p className="card-page__footer">
        <button type="button" className="link link--button" onClick={onRestart}>
          Start again with your password
        </button>
      </p>
    </AuthLayout>
  );
}
