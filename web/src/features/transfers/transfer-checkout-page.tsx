import type { PublicUser } from '@warmline/contracts/accounts';
import { AppShell } from '../../components/app-shell';
import { ButtonLink } from '../../components/button';
import { usePageTitle } from '../../lib/page-title';

/** The call-transfer order's payment (spec §2); built in the transfer-order issue. */
export function TransferCheckoutPage({ user }: { user: PublicUser }) {
  usePageTitle('Transfer Checkout');
  return (
    <AppShell user={user} area="Transfer Checkout">
      <section className="card welcome">
        <h1 className="welcome__title">No Order Found</h1>
        <p>There is no pending transfer order to pay for.</p>
        <ButtonLink to="/dashboard">Back to Dashboard</ButtonLink>
      </section>
    </AppShell>
  );
}
