import type { PublicUser } from '@warmline/contracts/accounts';
import { AppShell } from '../../components/app-shell';
import { ButtonLink } from '../../components/button';
import { usePageTitle } from '../../lib/page-title';
import { AccountSecurity } from './account-security';

/** /account-security: the same settings as the dashboard's view, for admins (reached from /admin). */
export function AccountSecurityPage({ user }: { user: PublicUser }) {
  usePageTitle('Account & Security');
  return (
    <AppShell user={user} area={user.isAdmin ? 'Admin' : 'Dashboard'}>
      <div className="account-page">
        <p>
          <ButtonLink variant="ghost" to={user.isAdmin ? '/admin' : '/dashboard'}>
            ← Back to {user.isAdmin ? 'Admin Panel' : 'Dashboard'}
          </ButtonLink>
        </p>
        <h1 className="view-header__title">Account &amp; Security</h1>
        <AccountSecurity />
      </div>
    </AppShell>
  );
}
