import { lazy, Suspense, type ReactNode } from 'react';
import type { BillingDetails } from '@warmline/contracts/orders';
import { Button } from '../../components/button';
import { errorMessage } from '../../lib/api';
import { usePaymentConfig } from './api';
import { DEFAULT_BILLING_FIELDS, type BillingFieldsSpec, type PaymentSuccess } from './payment-types';
import { SandboxCardForm } from './sandbox-card-form';
import './payments.css';


/**
 * The card payment form every checkout uses (package checkouts, the second brand's checkout,
 * the transfer checkout). It asks `GET /api/config` which provider the site runs:
 * - `sandbox`: a card form posting to `/api/payments/sandbox/confirm` (Stripe's test cards);
 * - `stripe`: Stripe Elements with the publishable key, loaded only here, on demand.
 *
 * The caller creates the payment session first and passes its client secret; the form calls
 * `onSuccess` once the provider has taken the money. When it has not, the form says why once,
 * beside the pay button (issue 17: no toast as well, which could cover the button).
 */
export interface PaymentFormProps {
  clientSecret: string;
  /** The amount the session charges, in cents (shown on the button). */
  amountCents: number;
  /** Which billing fields to ask for; default: name and e-mail required (the receipt goes there), phone hidden. */
  billingFields?: Partial<BillingFieldsSpec>;
  /** Values to start the billing fields with (e.g. from a survey). */
  defaultBilling?: BillingDetails;
  /** Shown above the card fields, e.g. the Order Summary. */
  summary?: ReactNode;
  /** Default 'Complete Payment - $amount'. */
  submitLabel?: string;
  onSuccess(result: PaymentSuccess): void;
}

/** Props of one provider's card form (everything resolved). */
export interface CardFormProps extends Omit<PaymentFormProps, 'billingFields'> {
  billingFields: BillingFieldsSpec;
}

// Stripe's SDK is ~40 KB and talks to js.stripe.com: only sites that take real payments load it.
const StripeCardForm = lazy(async () => ({ default: (await import('./stripe-card-form')).StripeCardForm }));

export function PaymentForm({ billingFields, ...props }: PaymentFormProps) {
  const config = usePaymentConfig();
  const formProps: CardFormProps = { ...props, billingFields: { ...DEFAULT_BILLING_FIELDS, ...billingFields } };

  if (config.isPending) return <PaymentFormLoading />;
  if (config.isError) {
    return (
      <div className="payment-alert" role="alert">
        <p>
          The payment form could not be loaded: {errorMessage(config.error, 'the payment service did not answer')}.
        </p>
        <Button variant="secondary" onClick={() => void config.refetch()}>
          Retry
        </Button>
      </div>
    );
  }
  if (config.data.paymentProvider === 'stripe' && config.data.stripePublishableKey) {
    return (
      <Suspense fallback={<PaymentFormLoading />}>
        <StripeCardForm {...formProps} publishableKey={config.data.stripePublishableKey} />
      </Suspense>
    );
  }
  return <SandboxCardForm {...formProps} />;
}

function PaymentFormLoading() {
  return (
    <div className="spinner-block payment-loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>Loading secure payment form…</span>
    </div>
  );
}
