import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { PageSpinner } from '../../components/spinner';
import { Button } from '../../components/button';
import { useCurrentUser, type CurrentUser } from './api';
import { loginPathFor } from './return-path';

/**
 * Route guards. They only spare people a screen they cannot use: the gateway checks the
 * session and the admin flag on every API call itself.
 */
export function RequireSession({ children }: { children: (user: CurrentUser) => ReactNode }) {
  const currentUser = useCurrentUser();
  const location = useLocation();
  if (currentUser.isPending) return <PageSpinner label="Checking your session…" />;
  if (currentUser.isError) {
    return (
      <div className="page-message" role="alert">
        <h1>We could not check your session</h1>
        <p>{currentUser.error.message}</p>
        <Button onClick={() => void currentUser.refetch()}>Try again</Button>
      </div>
    );
  }
  // Signed out: /login, and back here after it (an e-mail's link to a view keeps its view).
  if (!currentUser.data) return <Navigate to={loginPathFor(location)} replace />;
  return <>{children(currentUser.data)}</>;
}

export function RequireAdmin({ children }: { children: (user: CurrentUser) => ReactNode }) {
  return (
    <RequireSession>{(user) => (user.isAdmin ? children(user) : <Navigate to="/dashboard" replace />)}</RequireSession>
  );
}
