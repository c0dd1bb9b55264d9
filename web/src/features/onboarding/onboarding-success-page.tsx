import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { BUFFER_SECONDS, formatUsd } from '@warmline/contracts/pricing';
import { ButtonLink } from '../../components/button';
import { CheckIcon, MailIcon } from '../../components/icons';
import { SiteFooter, SiteHeader } from '../../components/site-header';
import { burstConfetti } from '../../lib/confetti';
import { usePageTitle } from '../../lib/page-title';
import { useSiteConfig } from '../../lib/site-config';
import { useOrderStatus } from '../payments/api';
import './onboarding.css';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Where a package checkout ends (spec §2: after payment the buyer reaches /onboarding-success,
 * with a burst of 100 particles, spread 70, origin y 0.6). It says what was bought, what
 * happens next and how to reach support. `?order=<id>` names the order just paid.
 */
export function OnboardingSuccessPage() {
  usePageTitle('Welcome aboard');
  const [params] = useSearchParams();
  const orderParam = params.get('order');
  const orderId = orderParam && UUID.test(orderParam) ? orderParam : null;
  const order = useOrderStatus(orderId);
  const site = useSiteConfig().data;

  useEffect(() => {
    void burstConfetti({ particleCount: 100, spread: 70, origin: { y: 0.6 } });
  }, []);

  return (
    <div className="public-page">
      <SiteHeader />
      <main id="main" className="onboarding-main">
        <section className="card onboarding-card" aria-labelledby="onboarding-title">
          <span className="onboarding-card__icon" aria-hidden="true">
            <CheckIcon />
          </span>
          <h1 id="onboarding-title" className="onboarding-card__title">
            Welcome to WarmLine!
          </h1>
          <p className="onboarding-card__lead">
            Your payment was successful and your package is confirmed. Thank you for your purchase!
          </p>

          {order.data ? (
            <dl className="onboarding-order" aria-label="Your order">
              <div>
                <dt>Package</dt>
                <dd>{order.data.description}</dd>
              </div>
              <div>
                <dt>Total</dt>
                <dd>{formatUsd(order.data.amountCents)}</dd>
              </div>
              <div>
                <dt>Status</dt>
                <dd>{order.data.status === 'paid' ? 'Paid' : 'Confirming your payment…'}</dd>
              </div>
              <div>
                <dt>Order number</dt>
                <dd className="onboarding-order__id">{order.data.orderId}</dd>
              </div>
            </dl>
          ) : null}

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
            <ButtonLink to="/">Return to Home</ButtonLink>
            <Link to="/survey" className="link">
              No account yet? Complete our survey
            </Link>
          </div>
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}
