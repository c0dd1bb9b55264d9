import type { PublicUser } from '@warmline/contracts/accounts';
import { AppShell } from '../../components/app-shell';
import { usePageTitle } from '../../lib/page-title';

/** Transfer orders for admins (spec §2 /admin-orders); built in the orders issue. */
export function AdminOrdersPage({ user }: { user: PublicUser }) {
  usePageTitle('Transfer Orders');
  return (
    <AppShell user={user} area="Admin">
      <section className="card welcome">
        <h1 className="welcome__title">Transfer Orders</h1>
        <p>No transfer orders yet.</p>
      </section>
    </AppShell>
  );
}
