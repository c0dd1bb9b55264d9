import { useState } from 'react';
import type { PublicUser } from '@warmline/contracts/accounts';
import type { BulkPurchaseResponse, UnpaidLeadPurchase } from '@warmline/contracts/catalog';
import { formatUsd } from '@warmline/contracts/pricing';
import { Button } from '../../components/button';
import { toast } from '../../components/toast-store';
import { errorMessage } from '../../lib/api';
import { usTime } from '../../lib/us-date';
import { waitUntilSold } from '../aged-leads/api';
import { PurchaseDialog } from '../aged-leads/purchase-dialog';
import { useCancelPurchase, useResumePurchase, useUnpaidPurchases } from './api';


/**
 * The agent's unpaid aged-lead purchases (issue 22): a payment dialog closed without paying
 * leaves one behind, holding its leads until it ends. Pay opens the same payment again; Cancel
 * gives the leads back at once (and the purchase can no longer be paid). Nothing shows when there
 * is none.
 */
export function UnpaidPurchases({ user, onPaid }: { user: PublicUser; onPaid(orderId: string): void }) {
  const unpaid = useUnpaidPurchases();
  const resume = useResumePurchase();
  const cancel = useCancelPurchase();
  const [paying, setPaying] = useState<BulkPurchaseResponse | null>(null);
  const [finishing, setFinishing] = useState(false);

  if (unpaid.isError) {
    return (
      <p className="card my-orders__unpaid-error" role="status">
        We could not check for unpaid lead purchases just now. <Button variant="ghost" className="btn--small" onClick={() => void unpaid.refetch()}>Try again</Button>
      </p>
    );
  }
  const purchases = unpaid.data?.purchases ?? [];
  if (purchases.length === 0 && !paying) return null;

  const pay = (purchase: UnpaidLeadPurchase) =>
    resume.mutate(purchase.orderId, {
      onSuccess: setPaying,
      onError: (error) => {
        toast({ title: 'Could not open the payment', description: errorMessage(error, 'Please try again in a moment'), variant: 'destructive' });
        void unpaid.refetch();
      },
    });

  const giveUp = (purchase: UnpaidLeadPurchase) =>
    cancel.mutate(purchase.orderId, {
      onSuccess: (answer) =>
        toast({
          title: 'Purchase cancelled',
          description: `${answer.releasedLeadCount === 1 ? 'Its lead is' : `Its ${answer.releasedLeadCount} leads are`} back on the market. Nothing was charged.`,
          variant: 'success',
        }),
      onError: (error) => toast({ title: 'Could not cancel the purchase', description: errorMessage(error, 'Please try again in a moment'), variant: 'destructive' }),
    });

  const paid = async (purchase: BulkPurchaseResponse) => {
    setFinishing(true);
    await waitUntilSold(purchase.orderId);
    setFinishing(false);
    setPaying(null);
    onPaid(purchase.orderId);
  };

  return (
    <section className="card my-orders__unpaid" aria-labelledby="unpaid-title">
      <h2 id="unpaid-title" className="my-orders__unpaid-title">
        Unpaid lead purchases
      </h2>
      <p className="my-orders__unpaid-lead">Your leads stay reserved until the time shown. Pay to get them, or cancel to let them go now.</p>
      <ul className="my-orders__unpaid-list">
        {purchases.map((purchase) => {
          const what = `${purchase.leadCount.toLocaleString('en-US')} aged ${purchase.leadCount === 1 ? 'lead' : 'leads'}`;
          return (
            <li key={purchase.orderId} className="my-orders__unpaid-item" data-order-id={purchase.orderId}>
              <div className="my-orders__unpaid-text">
                <span className="orders-table__name">
                  {what} · {formatUsd(purchase.totalCents)}
                </span>
                <span className="orders-table__sub">
                  Reserved until {usTime(purchase.reservedUntil)}
                  {purchase.heldLeadCount < purchase.leadCount ? ` · ${purchase.heldLeadCount} still held (the others are in a newer purchase)` : ''}
                </span>
              </div>
              <div className="my-orders__unpaid-actions">
                <Button className="btn--small" busy={resume.isPending && resume.variables === purchase.orderId} onClick={() => pay(purchase)} aria-label={`Pay ${formatUsd(purchase.totalCents)} for ${what}`}>
                  Pay
                </Button>
                <Button
                  variant="secondary"
                  className="btn--small"
                  busy={cancel.isPending && cancel.variables === purchase.orderId}
                  onClick={() => giveUp(purchase)}
                  aria-label={`Cancel the purchase of ${what}`}
                >
                  Cancel
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
      {paying ? (
        <PurchaseDialog
          purchase={paying}
          user={user}
          finishing={finishing}
          onClose={() => {
            if (!finishing) setPaying(null);
          }}
          onPaid={() => void paid(paying)}
        />
      ) : null}
    </section>
  );
}
