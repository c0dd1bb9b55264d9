import { useState, type FormEvent } from 'react';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { useForm } from '../../lib/form';
import { BillingFields, billingDetailsOf, initialBilling, validateBilling } from './billing-fields';
import type { CardFormProps } from './payment-form';
import { PaymentSubmit } from './payment-submit';
import type { PaymentFailure } from './payment-types';

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
}: CardFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const billing = useForm(() => initialBilling(defaultBilling));
  const [cardComplete, setCardComplete] = useState(false);
  const [failure, setFailure] = useState<PaymentFailure | null>(null);
  const [processing, setProcessing] = useState(false);
  const ready = Boolean(stripe && elements);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Spec §5: submitting does nothing until the provider and its elements are ready.
    if (!stripe || !elements || processing) return;
    const card = elements.getElement(CardElement);
    if (!card) {
      setFailure({ kind: 'unexpected', message: 'Card element not found' });
      return;
    }
    const billingErrors = validateBilling(billingFields, billing.values);
    billing.setErrors(billingErrors);
    if (Object.keys(billingErrors).length > 0) return;

    setFailure(null);
    setProcessing(true);
    const details = billingDetailsOf(billingFields, billing.values);
    try {
      const result = await stripe.confirmCardPayment(clientSecret, {
        payment_method: { card, billing_details: details },
        ...(details.email ? { receipt_email: details.email } : {}),
      });
      setProcessing(false);
      if (result.error) {
        const message = result.error.message ?? 'There was an error processing your payment.';
        const buyersToFix = result.error.type === 'card_error' || result.error.type === 'validation_error';
        const code = result.error.decline_code ?? result.error.code;
        setFailure({ kind: buyersToFix ? 'declined' : 'unexpected', message, ...(code ? { code } : {}) });
        return;
      }
      onSuccess({ paymentIntentId: result.paymentIntent.id, billing: details });
    } catch {
      setProcessing(false);
      setFailure({ kind: 'unexpected', message: 'Something went wrong. Please try again.' });
    }
  };

  return (
    <form className="payment-form" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Card payment">
      {summary}
      <BillingFields spec={billingFields} values={billing.values} errors={billing.errors} disabled={processing} onChange={billing.setValue} />
      <div className="field">
        <span className="field__label">Card details</span>
        <div className="payment-stripe-card">
          <CardElement
            options={{ hidePostalCode: false, style: { base: { fontSize: '16px', color: '#17202a' } } }}
            onChange={(e) => setCardComplete(e.complete)}
          />
        </div>
      </div>
      <PaymentSubmit
        failure={failure}
        processing={processing}
        disabled={!ready || !cardComplete}
        amountCents={amountCents}
        label={submitLabel}
        secureNote="Card details go straight to Stripe and never touch our servers."
      />
    </form>
  );
}
