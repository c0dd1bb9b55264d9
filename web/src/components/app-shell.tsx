import type { ReactNode } from 'react';
import type { PublicUser } from '@warmline/contracts/accounts';
import { logout } from '../features/auth/api';
import { Logo } from './brand';
import { Button } from './button';

/**
 * The logged-in header: who is signed in and a Logout that ends the session on the server.
 * `sidebarLogout`: the page's sidebar has its own Logout, shown from 900 px up (the dashboard,
 * spec §2), so this one is shown only below that width: one Logout on every screen (issue 17).
 */
export function AppShell({
  user,
  area,
  sidebarLogout = false,
  children,
}: {
  user: PublicUser;
  area: string;
  sidebarLogout?: boolean;
  children: ReactNode;
}) {
  const fullName = `${user.firstName} ${user.lastName}`.trim() || user.username;
  return (
    <div className="app-shell">
      <header className="top-bar app-header">
        <div className="top-bar__inner">
          <div className="app-header__brand">
            <Logo to={user.isAdmin ? '/admin' : '/dashboard'} />
            <span className="app-header__area">{area}</span>
          </div>
          <div className="app-header__user">
            <span className="app-header__name" data-testid="current-user-name">
              {fullName}
            </span>
            <Button variant="secondary" className={sidebarLogout ? 'btn--small app-header__logout--narrow' : 'btn--small'} onClick={logout}>
              Logout
            </Button>
          </div>
        </div>
      </header>
      <main id="main" className="app-shell__main">
        {children}
      </main>
    </div>
  );
}
