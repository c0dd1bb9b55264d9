import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { PublicUser } from '@warmline/contracts/accounts';
import type { CreatePaymentIntentResponse } from '@warmline/contracts/orders';
import { WARMLINE_CALLBACKS, centsToDollars, formatUsd } from '@warmline/contracts/pricing';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { OrderSummary } from '../../components/order-summary';
import { toast } from '../../components/toast-store';
import { errorMessage } from '../../lib/api';
import { newIdempotencyKey, useCreatePaymentIntent } from '../payments/api';
import { PaymentForm } from '../payments/payment-form';
import { myCallbackKeys } from './api';
import './callbacks.css';

const { minCount, maxCount, unitPriceCents, title } = WARMLINE_CALLBACKS;
const COUNT_MESSAGE = `Enter how many call-backs, a whole number from ${minCount} to ${maxCount.toLocaleString('en-US')}`;

/** The count typed, or null when it is not one the checkout sells. */
export function callbackCount(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,6}$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return n >= minCount && n <= maxCount ? n : null;
}

/**
 * Buy Call-backs (issue 15 §7): a number of WarmLine Call-Backs at the default callback price,
 * paid by card (issue 22: WarmLine's own product, tier 'callbacks' — never the second brand's
 * package; the server prices the order again and refuses any other amount). A paid order becomes
 * the agent's balance, shown in My Call-backs.
 */
export function BuyCallbacksView({ user, onPaid }: { user: PublicUser; onPaid: () => void }) {
  const queryClient = useQueryClient();
  const [countText, setCountText] = useState('10');
  const [error, setError] = useState<string | undefined>();
  // One key per order attempt: a retry after a lost answer makes one order, a changed count a new one.
  const [attempt, setAttempt] = useState<{ count: number; idempotencyKey: string } | null>(null);
  const [session, setSession] = useState<CreatePaymentIntentResponse | null>(null);
  const createIntent = useCreatePaymentIntent({ onSuccess: setSession });

  const count = callbackCount(countText);
  const totalCents = count === null ? null : count * unitPriceCents;

  const intentBody = (order: { count: number; idempotencyKey: string }) => ({
    amount: centsToDollars(order.count * unitPriceCents),
    callCount: order.count,
    tier: WARMLINE_CALLBACKS.tier,
    idempotencyKey: order.idempotencyKey,
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (count === null) {
      setError(COUNT_MESSAGE);
      return;
    }
    setError(undefined);
    const order = attempt && attempt.count === count ? attempt : { count, idempotencyKey: newIdempotencyKey() };
    setAttempt(order);
    setSession(null);
    createIntent.mutate(intentBody(order), {
      onError: (failure) => setError(errorMessage(failure, 'Failed to create payment intent')),
    });
  };

  const paying = session !== null && attempt !== null;

  return (
    <section className="dash-view" aria-labelledby="buy-callbacks-title">
      <div className="view-header">
        <h1 id="buy-callbacks-title" className="view-header__title">
          Buy Call-backs
        </h1>
        <p className="view-header__lead">
          Prospects who talked with our voice AI and asked to be called back, in the states you take. {formatUsd(unitPriceCents)} per
          call-back; each one is delivered to My Call-backs as it comes in.
        </p>
      </div>
      {paying ? (
        <div className="buy-callbacks__payment">
          <OrderSummary
            rows={[
              { term: 'Package', detail: title },
              { term: 'Quantity', detail: `${attempt.count.toLocaleString('en-US')} ${attempt.count === 1 ? 'call-back' : 'call-backs'}` },
              { term: 'Price', detail: `${formatUsd(unitPriceCents)} per call-back` },
            ]}
            total={formatUsd(session.amountCents)}
          />
          <PaymentForm
            clientSecret={session.clientSecret}
            amountCents={session.amountCents}
            defaultBilling={{ name: `${user.firstName} ${user.lastName}`.trim(), email: user.email }}
            onSuccess={() => {
              toast({ title: 'Payment Successful', description: 'Your call-backs will appear in My Call-backs as they are delivered.', variant: 'success' });
              void queryClient.invalidateQueries({ queryKey: myCallbackKeys.all });
              onPaid();
            }}
          />
          <Button variant="ghost" onClick={() => setSession(null)}>
            Change quantity
          </Button>
        </div>
      ) : (
        <form className="card buy-callbacks" onSubmit={submit} noValidate>
          <TextField
            label="How many call-backs?"
            name="count"
            inputMode="numeric"
            autoComplete="off"
            value={countText}
            error={error}
            hint={`From ${minCount} to ${maxCount.toLocaleString('en-US')}`}
            onChange={(e) => {
              setCountText(e.target.value);
              setError(undefined);
            }}
          />
          <p className="buy-callbacks__total" aria-live="polite">
            {count !== null && totalCents !== null ? (
              <>
                {count.toLocaleString('en-US')} × {formatUsd(unitPriceCents)} = <strong data-testid="callbacks-total">{formatUsd(totalCents)}</strong>
              </>
            ) : (
              'Enter a number to see the total.'
            )}
          </p>
          <Button type="submit" busy={createIntent.isPending}>
            Continue to Payment
          </Button>
        </form>
      )}
    </section>
  );
}
