import type { BulkPurchaseResponse } from '@warmline/contracts/catalog';
import type { PublicUser } from '@warmline/contracts/accounts';
import { formatUsd } from '@warmline/contracts/pricing';
import { Dialog } from '../../components/dialog';
import { Spinner } from '../../components/spinner';
import { PaymentForm } from '../payments/payment-form';
import { usTime } from '../../lib/us-date';

/**
 * The card form for reserved leads. The leads are held for this buyer until `reservedUntil`;
 * the server priced them, so the amount here is the server's.
 */
export function PurchaseDialog({
  purchase,
  user,
  finishing,
  onClose,
  onPaid,
}: {
  purchase: BulkPurchaseResponse;
  user: PublicUser;
  finishing: boolean;
  onClose(): void;
  onPaid(): void;
}) {
  const until = usTime(purchase.reservedUntil);
  const fullName = `${user.firstName} ${user.lastName}`.trim();
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Complete your purchase"
      description={`Your ${purchase.leadCount === 1 ? 'lead is' : `${purchase.leadCount} leads are`} reserved for you until ${until}.`}
    >
      {finishing ? (
        <Spinner label="Payment received. Delivering your leads…" showLabel />
      ) : (
        <PaymentForm
          clientSecret={purchase.clientSecret}
          amountCents={purchase.totalCents}
          // The agent's account already has their e-mail; the leads are in My Leads, not in a receipt.
          billingFields={{ name: 'optional', email: 'hidden', phone: 'hidden' }}
          {...(fullName ? { defaultBilling: { name: fullName } } : {})}
          summary={
            <dl className="purchase-summary" aria-label="Order Summary">
              <div className="purchase-summary__row">
                <dt>Aged leads</dt>
                <dd>{purchase.leadCount}</dd>
              </div>
              <div className="purchase-summary__row purchase-summary__row--total">
                <dt>Total</dt>
                <dd>{formatUsd(purchase.totalCents)}</dd>
              </div>
            </dl>
          }
          onSuccess={onPaid}
        />
      )}
    </Dialog>
  );
}
