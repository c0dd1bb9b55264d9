import { useState, type FormEvent } from 'react';
import { TextField } from '../../components/field';
import { ApiError } from '../../lib/api';
import { useForm } from '../../lib/form';
import { confirmSandboxPayment } from './api';
import { BillingFields, billingDetailsOf, billingInputName, initialBilling, validateBilling, type BillingValues } from './billing-fields';
import type { CardFormProps } from './payment-form';
import { PaymentSubmit } from './payment-submit';
import type { PaymentFailure } from './payment-types';

interface CardValues {
  cardNumber: string;
  expiry: string;
  cvc: string;
}

/** '4242424242424242' → '4242 4242 4242 4242' while typing. */
function groupCardNumber(text: string): string {
  return text
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** '1228' / '12/28' / '12 / 2028' → 'MM / YY…' while typing. */
function formatExpiry(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, 6);
  return digits.length <= 2 ? digits : `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}

/** Month and year as the server reads them; incomplete parts go as they are so the server says what is missing. */
function expiryParts(expiry: string): { expMonth: string; expYear: string } {
  const digits = expiry.replace(/\D/g, '');
  return { expMonth: digits.slice(0, 2), expYear: digits.slice(2) };
}

/** Which card field a server issue is about ('expMonth' and 'expYear' are one input here). */
function cardFieldOf(path: string): keyof CardValues | keyof BillingValues | undefined {
  if (path === 'cardNumber') return 'cardNumber';
  if (path === 'expMonth' || path === 'expYear') return 'expiry';
  if (path === 'cvc') return 'cvc';
  if (path === 'billing.email') return 'email';
  if (path === 'billing.name') return 'name';
  if (path === 'billing.phone') return 'phone';
  return undefined;
}

/**
 * The sandbox provider's card form (ARCHITECTURE §4): the orders service confirms Stripe's
 * test card numbers and answers with Stripe's messages. A decline (402) and a malformed card
 * (400) are the buyer's to fix; anything else is "something went wrong, try again".
 */
export function SandboxCardForm({
  clientSecret,
  amountCents,
  billingFields,
  defaultBilling,
  summary,
  submitLabel,
  onSuccess,
}: CardFormProps) {
  // Billing and card in one form: the server's messages may be about either.
  const { values, errors, setErrors, setValue } = useForm<BillingValues & CardValues>(() => ({
    ...initialBilling(defaultBilling),
    cardNumber: '',
    expiry: '',
    cvc: '',
  }));
  const [failure, setFailure] = useState<PaymentFailure | null>(null);
  const [processing, setProcessing] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (processing) return;
    const form = event.currentTarget;
    const billingErrors = validateBilling(billingFields, values);
    if (Object.keys(billingErrors).length > 0) {
      setErrors(billingErrors);
      focusField(form, Object.keys(billingErrors)[0]!);
      return;
    }
    setErrors({});
    setFailure(null);
    setProcessing(true);
    const details = billingDetailsOf(billingFields, values);
    try {
      const answer = await confirmSandboxPayment({
        clientSecret,
        cardNumber: values.cardNumber,
        ...expiryParts(values.expiry),
        cvc: values.cvc,
        ...(Object.keys(details).length > 0 ? { billing: details } : {}),
      });
      setProcessing(false);
      onSuccess({ paymentIntentId: answer.paymentIntentId, orderId: answer.orderId, billing: details });
    } catch (err) {
      setProcessing(false);
      if (err instanceof ApiError && (err.status === 400 || err.status === 402 || err.status === 404)) {
        const body = parseBody(err.bodyText);
        const message = err.serverMessage ?? 'There was an error processing your payment.';
        const fieldErrors: Record<string, string> = {};
        for (const issue of body?.issues ?? []) {
          const field = cardFieldOf(issue.path);
          if (field && !fieldErrors[field]) fieldErrors[field] = issue.message;
        }
        setErrors(fieldErrors);
        const firstField = Object.keys(fieldErrors)[0];
        if (firstField) focusField(form, firstField);
        setFailure({ kind: 'declined', message, ...(body?.declineCode || body?.code ? { code: body.declineCode ?? body.code } : {}) });
      } else {
        setFailure({ kind: 'unexpected', message: 'Something went wrong. Please try again.' });
      }
    }
  };

  return (
    <form className="payment-form" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Card payment">
      {summary}
      <p className="payment-test-mode">
        <strong>Test mode.</strong> No real money is charged: pay with card 4242 4242 4242 4242, any future expiry
        date and any 3-digit CVC.
      </p>
      <BillingFields spec={billingFields} values={values} errors={errors} disabled={processing} onChange={setValue} />
      <fieldset className="payment-card" disabled={processing}>
        <legend className="payment-card__legend">Card details</legend>
        <TextField
          label="Card number"
          name="cardNumber"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          value={values.cardNumber}
          onChange={(e) => setValue('cardNumber', groupCardNumber(e.target.value))}
          error={errors.cardNumber}
        />
        <div className="payment-card__row">
          <TextField
            label="Expiry (MM / YY)"
            name="expiry"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM / YY"
            value={values.expiry}
            onChange={(e) => setValue('expiry', formatExpiry(e.target.value))}
            error={errors.expiry}
          />
          <TextField
            label="CVC"
            name="cvc"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            maxLength={4}
            value={values.cvc}
            onChange={(e) => setValue('cvc', e.target.value.replace(/\D/g, '').slice(0, 4))}
            error={errors.cvc}
          />
        </div>
      </fieldset>
      <PaymentSubmit
        failure={failure}
        processing={processing}
        amountCents={amountCents}
        label={submitLabel}
        secureNote="Payments are encrypted and processed securely."
      />
    </form>
  );
}

function parseBody(text: string): { issues?: Array<{ path: string; message: string }>; code?: string; declineCode?: string } | undefined {
  try {
    return JSON.parse(text) as { issues?: Array<{ path: string; message: string }>; code?: string; declineCode?: string };
  } catch {
    return undefined;
  }
}

function focusField(form: HTMLFormElement, field: string): void {
  const name = field === 'name' || field === 'email' || field === 'phone' ? billingInputName(field) : field;
  const element = form.elements.namedItem(name);
  if (element instanceof HTMLElement) element.focus();
}
