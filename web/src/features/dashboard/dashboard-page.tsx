import type { PublicUser } from '@warmline/contracts/accounts';
import { AppShell } from '../../components/app-shell';
import { usePageTitle } from '../../lib/page-title';

/** The customer dashboard (spec §2); its views are built in the dashboard issue. */
export function DashboardPage({ user }: { user: PublicUser }) {
  usePageTitle('Dashboard');
  return (
    <AppShell user={user} area="Dashboard">
      <section className="card welcome">
        <h1 className="welcome__title">Welcome, {user.firstName || user.username}</h1>
        <p>
          Buying aged leads, ordering call transfers, training and recruiting help will appear here soon. For anything you
          need now, contact our support team.
        </p>
      </section>
    </AppShell>
  );
}
