import type { ReactNode } from 'react';
import { formatUsd } from '@warmline/contracts/pricing';
import { Button } from '../../components/button';
import { LockIcon } from '../../components/icons';
import type { PaymentFailure } from './payment-types';

/**
 * The end of every card form: why the last attempt failed, the pay button with the amount, and
 * how the card is kept safe. The failure is said here only, once, beside the button (issue 17),
 * with spec §8's titles: 'Payment Failed' with the provider's message, or 'Payment Error'.
 */
export function PaymentSubmit({
  failure,
  processing,
  disabled,
  amountCents,
  label,
  secureNote,
}: {
  failure: PaymentFailure | null;
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
          <p className="payment-alert__title">{failure.kind === 'declined' ? 'Payment Failed' : 'Payment Error'}</p>
          <p>{failure.message}</p>
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
