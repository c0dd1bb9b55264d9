import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { loginBody } from '@warmline/contracts/accounts';
import { AuthLayout } from '../../components/auth-layout';
import { Button } from '../../components/button';
import { PasswordField, TextField } from '../../components/field';
import { toast } from '../../components/toast-store';
import { errorMessage } from '../../lib/api';
import { focusFirstError, validate, type FieldErrors } from '../../lib/form';
import { usePageTitle } from '../../lib/page-title';
import { useLogin, type LoginInput } from './api';

export function LoginPage() {
  usePageTitle('Sign in');
  const navigate = useNavigate();
  const [values, setValues] = useState<LoginInput>({ username: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors<LoginInput>>({});
  const login = useLogin({
    onSuccess: (user) => {
      toast({ title: 'Login Successful', description: 'Welcome back!', variant: 'success' });
      void navigate(user.isAdmin ? '/admin' : '/dashboard', { replace: true });
    },
    onError: (error) => {
      toast({ title: 'Login Failed', description: errorMessage(error, 'Invalid credentials'), variant: 'destructive' });
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validate(loginBody, values);
    if (!result.ok) {
      setErrors(result.errors);
      focusFirstError(event.currentTarget, result.errors);
      return;
    }
    setErrors({});
    login.mutate(result.data);
  };

  const set = (field: keyof LoginInput) => (event: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: event.target.value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  return (
    <AuthLayout title="Welcome Back" subtitle="Sign in to your account">
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={values.username}
          onChange={set('username')}
          error={errors.username}
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          value={values.password}
          onChange={set('password')}
          error={errors.password}
        />
        <div className="form__row form__row--end">
          <Link to="/forgot-password" className="link">
            Forgot your password?
          </Link>
        </div>
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
