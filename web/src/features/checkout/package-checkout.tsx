import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { CreatePaymentIntentResponse } from '@warmline/contracts/orders';
import { formatUsd, PACKAGE_CHECKOUTS } from '@warmline/contracts/pricing';
import { Logo } from '../../components/brand';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { CheckIcon, LockIcon } from '../../components/icons';
import { toast } from '../../components/toast-store';
import { errorMessage } from '../../lib/api';
import { usePageTitle } from '../../lib/page-title';
import { newIdempotencyKey, useCreatePaymentIntent, usePaymentConfig } from '../payments/api';
import { PaymentForm } from '../payments/payment-form';
import { accountBilling } from '../payments/billing-fields';
import { useCurrentUser } from '../auth/api';
import { BufferProtectionCard } from '../pricing/buffer-protection';
import { usePageConfetti } from '../pricing/use-page-confetti';
import { checkoutPageRatesNote, checkoutRateText } from '../pricing/rate-labels';
import { checkoutCount, type CheckoutSpec } from './checkout-specs';
import { readStoredCount, useStoredCountCleanup } from './stored-count';
import { saveOrderClaim } from './order-claim';
import './checkout.css';

const PLACEHOLDER = 'Configure your package and click "Proceed to Payment" to continue';

const transfers = (count: number) => `${count} ${count === 1 ? 'transfer' : 'transfers'}`;

/**
 * A package checkout (spec §2 "Checkout screens", §4): Package Details with the count, the
 * buffer note, the tier's benefits and the total; Proceed to Payment creates the payment
 * session; the Payment Information card then shows the card form with the Order Summary.
 */
export function PackageCheckout({ spec }: { spec: CheckoutSpec }) {
  usePageTitle(spec.title);
  usePageConfetti('standard');
  const navigate = useNavigate();
  const highVolume = spec.tier === 'high-volume';
  const [countText, setCountText] = useState(() => String(readStoredCount(highVolume) ?? spec.defaultCount));
  useStoredCountCleanup(highVolume);
  // Ask early which card form the site uses, so it is ready when the session is.
  usePaymentConfig();
  // A signed-in buyer's billing name and e-mail start filled in from their account (issue 22).
  const me = useCurrentUser();

  // The server's price for a whole count in range; anything else has a message and no total.
  const quote = checkoutCount(countText, spec);

  const [session, setSession] = useState<(CreatePaymentIntentResponse & { count: number }) | null>(null);
  // One idempotency key per payment attempt: kept while retrying the same count, new for a new count.
  const attempt = useRef<{ count: number; key: string } | null>(null);
  const createIntent = useCreatePaymentIntent({
    onSuccess: (answer, body) => {
      // Bought without a session: this browser may later attach the paid order to an account.
      if (answer.claimToken) saveOrderClaim(answer.orderId, answer.claimToken);
      setSession({ ...answer, count: Number(body.callCount) });
    },
  });
  const preparing = createIntent.isPending;
  const canProceed = quote.ok && !preparing && !session;

  const paymentHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // On a phone the payment card is below the fold: take the buyer there.
    if (session) paymentHeading.current?.focus();
  }, [session]);

  const proceed = () => {
    if (!quote.ok || preparing) return;
    const { count } = quote;
    if (attempt.current?.count !== count) attempt.current = { count, key: newIdempotencyKey() };
    createIntent.mutate({
      amount: quote.amountCents / 100,
      callCount: count,
      // Spec §7: the special-pricing checkout sends no tier.
      ...(spec.tier === 'special' ? {} : { tier: spec.tier }),
      idempotencyKey: attempt.current.key,
    });
  };

  const changeCount = (text: string) => {
    setCountText(text);
    // A new count is a new purchase: the session made for the old one is dropped.
    if (session || createIntent.isError) {
      setSession(null);
      createIntent.reset();
    }
  };

  // An empty field is not an error yet; a count the server would refuse says why.
  const countError = quote.ok ? undefined : quote.message;

  return (
    <div className="public-page">
      <header className="top-bar checkout-header">
        <div className="top-bar__inner">
          <Logo />
          <Link to={spec.backPath} className="checkout-back">
            <span aria-hidden="true">←</span> Back
          </Link>
        </div>
      </header>
      <main id="main" className="public-page__main checkout-main">
        <header className="checkout-intro">
          <h1>{spec.title}</h1>
          <p>Choose how many transfers you want, then pay securely by card.</p>
          {spec.tier !== 'high-volume' ? <CheckoutRate tier={spec.tier} /> : null}
        </header>
        <div className="checkout-grid">
          <section className="card checkout-card" aria-labelledby="package-details-title">
            <h2 id="package-details-title" className="checkout-card__title">
              Package Details
            </h2>
            <TextField
              label="How many transfers would you like to purchase?"
              name="count"
              type="number"
              inputMode="numeric"
              min={spec.minCount}
              max={spec.maxCount}
              step={1}
              value={countText}
              onChange={(e) => changeCount(e.target.value)}
              disabled={preparing}
              hint={spec.countHint}
              error={countError}
            />
            {spec.bandLabel ? (
              <p className="checkout-band" aria-live="polite">
                {quote.ok ? spec.bandLabel(quote.count) : null}
              </p>
            ) : null}
            <BufferProtectionCard compact />
            <ul className="checkout-benefits" aria-label="Included with this package">
              {spec.benefits.map((benefit) => (
                <li key={benefit}>
                  <CheckIcon /> {benefit}
                </li>
              ))}
            </ul>
            <div className="checkout-total" aria-live="polite">
              <span className="checkout-total__label">Total</span>
              {/* A total only for a count the server would charge: never one for '2.5' or 99999. */}
              <span className="checkout-total__line">
                {quote.ok ? `${transfers(quote.count)} × ${formatUsd(quote.unitPriceCents)}` : `Enter ${spec.minCount} to ${spec.maxCount} transfers`}
              </span>
              <strong className="checkout-total__amount" data-testid="checkout-total">
                {quote.ok ? formatUsd(quote.amountCents) : '—'}
              </strong>
            </div>
            <Button block busy={preparing} disabled={!canProceed} onClick={proceed} className="checkout-proceed">
              {preparing ? 'Preparing Payment...' : 'Proceed to Payment'}
            </Button>
          </section>

          <section className="card checkout-card" aria-labelledby="payment-information-title">
            <h2 id="payment-information-title" className="checkout-card__title" tabIndex={-1} ref={paymentHeading}>
              Payment Information
            </h2>
            <p className="checkout-card__subtitle">Complete your purchase securely</p>
            {session ? (
              <PaymentForm
                key={session.clientSecret}
                clientSecret={session.clientSecret}
                amountCents={session.amountCents}
                summary={<PackageSummary count={session.count} amountCents={session.amountCents} />}
                defaultBilling={me.data ? accountBilling(me.data) : undefined}
                onSuccess={() => {
                  toast({ title: 'Payment Successful', description: spec.successDescription, variant: 'success' });
                  void navigate(`/onboarding-success?order=${encodeURIComponent(session.orderId)}`);
                }}
              />
            ) : createIntent.isError ? (
              <div className="payment-alert" role="alert">
                <p className="payment-alert__title">We could not start your payment</p>
                <p>{errorMessage(createIntent.error, 'Failed to create payment intent')}</p>
                <Button variant="secondary" onClick={proceed} disabled={!quote.ok}>
                  Retry
                </Button>
              </div>
            ) : (
              <div className="checkout-placeholder">
                <LockIcon />
                <p>{preparing ? 'Preparing your secure payment…' : PLACEHOLDER}</p>
              </div>
            )}
          </section>
        </div>
      </main>
    </div>
  );
}

/**
 * 'Checkout rate $37.00 per transfer — the Premium page's $35 is the volume rate for agencies
 * with 151-199 calls per day': the pricing page's label repeated where the buyer pays (issue 17).
 */
function CheckoutRate({ tier }: { tier: Exclude<CheckoutSpec['tier'], 'high-volume'> }) {
  return (
    <p className="checkout-rate" data-testid="checkout-rate">
      <strong>Checkout rate {checkoutRateText(PACKAGE_CHECKOUTS[tier])}</strong> — {checkoutPageRatesNote(tier)}.
    </p>
  );
}

function PackageSummary({ count, amountCents }: { count: number; amountCents: number }) {
  return (
    <section className="package-summary" aria-labelledby="package-summary-title">
      <h3 id="package-summary-title" className="package-summary__title">
        Order Summary
      </h3>
      <dl>
        <div>
          <dt>Call transfers</dt>
          <dd>{count}</dd>
        </div>
        <div>
          <dt>Rate per transfer</dt>
          <dd>{formatUsd(Math.round(amountCents / count))}</dd>
        </div>
        <div className="package-summary__total">
          <dt>Total</dt>
          <dd>{formatUsd(amountCents)}</dd>
        </div>
      </dl>
    </section>
  );
}
