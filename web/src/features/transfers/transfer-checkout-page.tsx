import { useState } from 'react';
import type { PublicUser } from '@warmline/contracts/accounts';
import { AppShell } from '../../components/app-shell';
import { ButtonLink } from '../../components/button';
import { usePageTitle } from '../../lib/page-title';
import { readPendingTransferOrder } from './pending-order';
import { TransferPayment } from './transfer-payment';
import './transfers.css';

/**
 * /transfer-checkout (spec §2): the pending transfer order kept in local storage — its summary
 * and the card form; after payment the order is forgotten and the agent goes to /thank-you.
 * Without one: 'No Order Found' and the way back to the dashboard.
 */
export function TransferCheckoutPage({ user }: { user: PublicUser }) {
  usePageTitle('Transfer Checkout');
  const [order] = useState(() => readPendingTransferOrder(user.id));

  if (!order) {
    return (
      <AppShell user={user} area="Transfer Checkout">
        <section className="card transfer-empty" aria-labelledby="no-order-title">
          <h1 id="no-order-title" className="transfer-empty__title">
            No Order Found
          </h1>
          <p>There is no transfer order waiting for payment. Order call transfers from your dashboard.</p>
          <ButtonLink to="/dashboard?view=buy-call-transfers">Back to Dashboard</ButtonLink>
        </section>
      </AppShell>
    );
  }

  return (
    <AppShell user={user} area="Transfer Checkout">
      <div className="transfer-checkout">
        <div className="transfer-checkout__header">
          <h1 className="transfer-checkout__title">Complete Your Transfer Order</h1>
          <ButtonLink to="/dashboard?view=buy-call-transfers" variant="ghost" className="btn--small">
            ← Back to Dashboard
          </ButtonLink>
        </div>
        <TransferPayment user={user} order={order} />
      </div>
    </AppShell>
  );
}
