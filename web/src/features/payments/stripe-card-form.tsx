import { useState, type FormEvent } from 'react';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { formatUsd } from '@warmline/contracts/pricing';
import { Button } from '../../components/button';
import { LockIcon } from '../../components/icons';
import { BillingFields, billingDetailsOf, validateBilling, type BillingErrors, type BillingValues } from './billing-fields';
import type { CardFormProps } from './payment-form';

/**
 * The stripe provider's card form: Stripe Elements' card field (card data never touches
 * WarmLine's servers) confirmed with `confirmCardPayment`. The order becomes paid when
 * Stripe's webhook reaches the orders service; the buyer moves on as soon as Stripe says the
 * payment succeeded. This module is loaded only when the site runs the stripe provider.
 */

// One Stripe.js instance per publishable key for the life of the page (Stripe's advice).
const stripeByKey = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripeByKey.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey);
    stripeByKey.set(publishableKey, stripe);
  }
  return stripe;
}

export function StripeCardForm({ publishableKey, ...props }: CardFormProps & { publishableKey: string }) {
  return (
    <Elements stripe={stripeFor(publishableKey)}>
      <StripeCardFields {...props} />
    </Elements>
  );
}

function StripeCardFields({
  clientSecret,
  amountCents,
  billingFields,
  defaultBilling,
  summary,
  submitLabel,
  onSuccess,
  onError,
}: CardFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [billing, setBilling] = useState<BillingValues>({
    name: defaultBilling?.name ?? '',
    email: defaultBilling?.email ?? '',
    phone: defaultBilling?.phone ?? '',
  });
  const [errors, setErrors] = useState<BillingErrors>({});
  const [cardComplete, setCardComplete] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [processing, setProcessing] = useState(false);
  const ready = Boolean(stripe && elements);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Spec §5: submitting does nothing until the provider and its elements are ready.
    if (!stripe || !elements || processing) return;
    const card = elements.getElement(CardElement);
    if (!card) {
      setFailure('Card element not found');
      onError?.({ kind: 'unexpected', message: 'Card element not found' });
      return;
    }
    const billingErrors = validateBilling(billingFields, billing);
    setErrors(billingErrors);
    if (Object.keys(billingErrors).length > 0) return;

    setFailure(null);
    setProcessing(true);
    const details = billingDetailsOf(billingFields, billing);
    try {
      const result = await stripe.confirmCardPayment(clientSecret, {
        payment_method: { card, billing_details: details },
        ...(details.email ? { receipt_email: details.email } : {}),
      });
      setProcessing(false);
      if (result.error) {
        const message = result.error.message ?? 'There was an error processing your payment.';
        setFailure(message);
        const buyersToFix = result.error.type === 'card_error' || result.error.type === 'validation_error';
        const code = result.error.decline_code ?? result.error.code;
        onError?.({ kind: buyersToFix ? 'declined' : 'unexpected', message, ...(code ? { code } : {}) });
        return;
      }
      onSuccess({ paymentIntentId: result.paymentIntent.id, billing: details });
    } catch {
      setProcessing(false);
      setFailure('Something went wrong. Please try again.');
      onError?.({ kind: 'unexpected', message: 'Something went wrong. Please try again.' });
    }
  };

  return (
    <form className="payment-form" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Card payment">
      {summary}
      <BillingFields
        spec={billingFields}
        values={billing}
        errors={errors}
        disabled={processing}
        onChange={(field, value) => {
          setBilling((v) => ({ ...v, [field]: value }));
          if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
        }}
      />
      <div className="field">
        <span className="field__label">Card details</span>
        <div className="payment-stripe-card">
          <CardElement
            options={{ hidePostalCode: false, style: { base: { fontSize: '16px', color: '#17202a' } } }}
            onChange={(e) => setCardComplete(e.complete)}
          />
        </div>
      </div>
      {failure ? (
        <div className="payment-alert" role="alert">
          <p className="payment-alert__title">Your payment did not go through</p>
          <p>{failure}</p>
        </div>
      ) : null}
      <Button type="submit" block busy={processing} disabled={!ready || !cardComplete} className="payment-submit">
        {processing ? 'Processing...' : (submitLabel ?? `Complete Payment - ${formatUsd(amountCents)}`)}
      </Button>
      <p className="payment-secure">
        <LockIcon /> Card details go straight to Stripe and never touch our servers.
      </p>
    </form>
  );
}
