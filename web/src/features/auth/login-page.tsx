import { Link, useNavigate } from 'react-router-dom';
import { loginBody } from '@warmline/contracts/accounts';
import { AuthLayout } from '../../components/auth-layout';
import { Button } from '../../components/button';
import { PasswordField, TextField } from '../../components/field';
import { toast } from '../../components/toast-store';
import { errorMessage } from '../../lib/api';
import { useForm } from '../../lib/form';
import { usePageTitle } from '../../lib/page-title';
import { useLogin, type LoginInput } from './api';

export function LoginPage() {
  usePageTitle('Sign in');
  const navigate = useNavigate();
  const form = useForm<LoginInput>({ username: '', password: '' });
  const login = useLogin({
    onSuccess: (user) => {
      toast({ title: 'Login Successful', description: 'Welcome back!', variant: 'success' });
      void navigate(user.isAdmin ? '/admin' : '/dashboard', { replace: true });
    },
    onError: (error) => {
      toast({ title: 'Login Failed', description: errorMessage(error, 'Invalid credentials'), variant: 'destructive' });
    },
  });

  return (
    <AuthLayout title="Welcome Back" subtitle="Sign in to your account">
      <form className="form" onSubmit={form.handleSubmit(loginBody, (data) => login.mutate(data))} noValidate>
        <TextField label="Username" autoComplete="username" autoCapitalize="none" spellCheck={false} {...form.field('username')} />
        <PasswordField label="Password" autoComplete="current-password" {...form.field('password')} />
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
