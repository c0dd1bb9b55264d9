import type { PublicUser } from '@warmline/contracts/accounts';
import { AppShell } from '../../components/app-shell';
import { ButtonLink } from '../../components/button';
import { usePageTitle } from '../../lib/page-title';

/** The admin back office (spec §2); its tabs are built in the admin issues. */
export function AdminPage({ user }: { user: PublicUser }) {
  usePageTitle('Admin Panel');
  return (
    <AppShell user={user} area="Admin">
      <section className="card welcome">
        <h1 className="welcome__title">Admin Panel</h1>
        <p>
          Signed in as {user.firstName} {user.lastName} ({user.username}). Customer search, uploads, user management,
          partner applications and test campaigns will appear here soon.
        </p>
        <p>
          <ButtonLink to="/admin-orders">Transfer Orders</ButtonLink>{' '}
          <ButtonLink variant="secondary" to="/account-security">
            Account &amp; Security
          </ButtonLink>
        </p>
      </section>
    </AppShell>
  );
}
