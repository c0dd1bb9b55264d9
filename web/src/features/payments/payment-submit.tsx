import type { ReactNode } from 'react';
import { formatUsd } from '@warmline/contracts/pricing';
import { Button } from '../../components/button';
import { LockIcon } from '../../components/icons';

/**
 * The end of every card form: why the last attempt failed (beside the button, so a dismissed
 * toast loses nothing), the pay button with the amount, and how the card is kept safe.
 */
export function PaymentSubmit({
  failure,
  processing,
  disabled,
  amountCents,
  label,
  secureNote,
}: {
  failure: string | null;
  processing: boolean;
  disabled?: boolean;
  amountCents: number;
  /** Default 'Complete Payment - $amount'. */
  label: string | undefined;
  secureNote: ReactNode;
}) {
  return (
    <>
      {failure ? (
        <div className="payment-alert" role="alert">
          <p className="payment-alert__title">Your payment did not go through</p>
          <p>{failure}</p>
        </div>
      ) : null}
      <Button type="submit" block busy={processing} disabled={disabled} className="payment-submit">
        {processing ? 'Processing...' : (label ?? `Complete Payment - ${formatUsd(amountCents)}`)}
      </Button>
      <p className="payment-secure">
        <LockIcon /> {secureNote}
      </p>
    </>
  );
}
