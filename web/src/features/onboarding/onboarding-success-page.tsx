import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { BUFFER_SECONDS } from '@warmline/contracts/pricing';
import { ButtonLink } from '../../components/button';
import { CheckIcon, MailIcon } from '../../components/icons';
import { SiteFooter, SiteHeader } from '../../components/site-header';
import { burstConfetti } from '../../lib/confetti';
import { usePageTitle } from '../../lib/page-title';
import { useSiteConfig } from '../../lib/site-config';
import { OrderReceipt, noPaidOrderText, usePaidOrder } from '../thank-you/paid-order';
import { useCurrentUser } from '../auth/api';
import '../thank-you/thank-you.css';
import { ClaimOrderOffer } from './claim-order';
import './onboarding.css';

/**
 * Where a package checkout ends (spec §2: after payment the buyer reaches /onboarding-success,
 * with a burst of 100 particles, spread 70, origin y 0.6). `?order=<id>` names the order just
 * paid; what was bought is read from the server, and only a paid order is welcomed with
 * 'Your payment was successful' (a missing, made-up, unpaid or declined one is said so plainly).
 */
export function OnboardingSuccessPage() {
  const [params] = useSearchParams();
  const view = usePaidOrder(params.get('order'));
  const paid = view.state === 'paid';
  usePageTitle(paid ? 'Welcome aboard' : 'Your Order');
  const site = useSiteConfig().data;

  useEffect(() => {
    if (paid) void burstConfetti({ particleCount: 100, spread: 70, origin: { y: 0.6 } });
  }, [paid]);

  const notPaid = paid ? null : noPaidOrderText(view);
  // A signed-in buyer (issue 22) is offered their dashboard and My Orders, never a login or the survey.
  const me = useCurrentUser();
  const signedIn = Boolean(me.data);

  return (
    <div className="public-page">
      <SiteHeader signedIn={signedIn} />
      <main id="main" className="onboarding-main">
        <section className="card onboarding-card" aria-labelledby="onboarding-title">
          {paid ? (
            <span className="onboarding-card__icon" aria-hidden="true">
              <CheckIcon />
            </span>
          ) : null}
          <h1 id="onboarding-title" className="onboarding-card__title">
            {paid ? 'Welcome to WarmLine!' : notPaid!.title}
          </h1>
          <p className="onboarding-card__lead" role={paid ? undefined : 'status'}>
            {paid ? 'Your payment was successful and your package is confirmed. Thank you for your purchase!' : notPaid!.message}
          </p>

          {'order' in view ? <OrderReceipt order={view.order} /> : null}
          {paid ? <ClaimOrderOffer orderId={view.order.orderId} /> : null}

          {paid ? (
            <>
              <h2 className="onboarding-card__subtitle">What happens next</h2>
              <ol className="onboarding-steps">
                <li>
                  <strong>Your receipt is on its way</strong> to the e-mail address you paid with.
                </li>
                <li>
                  <strong>Your account manager calls you within 24 hours</strong> to confirm your states, transfer hours and
                  the number transfers should ring.
                </li>
                <li>
                  <strong>Live transfers start</strong> as soon as your campaign is set up — qualified prospects, handed to your
                  agents in real time.
                </li>
                <li>
                  <strong>You only pay for real conversations:</strong> a call shorter than {BUFFER_SECONDS} seconds is never
                  charged.
                </li>
              </ol>
            </>
          ) : null}

          <div className="onboarding-support">
            <MailIcon />
            <p>
              Questions in the meantime? Write to{' '}
              {site ? (
                <>
                  <a href={`mailto:${site.supportEmail}`} className="link">
                    {site.supportEmail}
                  </a>{' '}
                  or call{' '}
                  <a href={`tel:${site.supportPhone.replace(/[^\d+]/g, '')}`} className="link">
                    {site.supportPhone}
                  </a>
                </>
              ) : (
                'our support team'
              )}
              .
            </p>
          </div>

          <div className="onboarding-actions">
            {signedIn ? (
              <>
                <ButtonLink to="/dashboard">Go to Dashboard</ButtonLink>
                {paid ? (
                  <Link to="/dashboard?view=my-orders" className="link">
                    See your orders in My Orders
                  </Link>
                ) : null}
              </>
            ) : (
              <>
                <ButtonLink to="/">Return to Home</ButtonLink>
                {/* Until the session is known, no survey offer that might be wrong for this buyer. */}
                {me.isPending ? null : (
                  <Link to="/survey" className="link">
                    No account yet? Complete our survey
                  </Link>
                )}
              </>
            )}
          </div>
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}
