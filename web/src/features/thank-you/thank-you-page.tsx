import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { RINGCLOUD_SUPPORT_EMAIL_DEFAULT } from '@warmline/contracts/brands';
import type { LeadPackageDelivery, OrderBrand, OrderStatusResponse } from '@warmline/contracts/orders';
import { RINGCLOUD_PACKAGE_PREFIX } from '@warmline/contracts/pricing';
import { ButtonLink } from '../../components/button';
import { CheckIcon } from '../../components/icons';
import { confettiFor } from '../../lib/confetti';
import { useSiteConfig } from '../../lib/site-config';
import { useBrandedPageTitle } from '../ringcloud/ringcloud-title';
import { SupportEmail } from '../survey/support-email';
import { SurveyLayout } from '../survey/survey-layout';
import { ClaimOrderOffer } from '../onboarding/claim-order';
import { OrderReceipt, noPaidOrderText, usePaidOrder, type PaidOrderView } from './paid-order';
import './thank-you.css';

const CONFETTI_MS = 3000;

/**
 * /thank-you (spec §2): where the second brand's checkout and the call-transfer orders end.
 * `?order=<id>` names the order; what was paid is read from the server, so a made-up or unpaid
 * id never reads 'Your payment was received'. A RingCloud order is shown under its own brand,
 * with its support address and its way home; a transfer order leads back to the dashboard.
 * `?brand=ringcloud` (set by the RingCloud checkout) only chooses the look while no order is known.
 */
export function ThankYouPage() {
  const [params] = useSearchParams();
  const site = useSiteConfig();
  const view = usePaidOrder(params.get('order'));
  const order = 'order' in view ? view.order : null;
  const brand: OrderBrand = order?.brand ?? (params.get('brand') === 'ringcloud' ? 'RingCloud' : 'WarmLine');
  const paid = view.state === 'paid';
  useBrandedPageTitle(paid ? 'Thank You' : 'Your Order', brand);
  useEffect(() => (paid ? confettiFor(CONFETTI_MS) : undefined), [paid]);

  // RingCloud's address as configured (the one its receipt e-mail names); a page served before
  // the setting existed falls back to the default.
  const ringcloudSupport = site.data?.ringcloudSupportEmail ?? RINGCLOUD_SUPPORT_EMAIL_DEFAULT;
  const support =
    brand === 'RingCloud' ? (
      <a className="link" href={`mailto:${ringcloudSupport}`}>
        {ringcloudSupport}
      </a>
    ) : (
      <SupportEmail />
    );
  const notPaid = paid ? null : noPaidOrderText(view);

  return (
    <SurveyLayout
      brand={brand}
      title={paid ? 'Thank You!' : notPaid!.title}
      subtitle={paid ? 'Your payment was received and your order is confirmed.' : notPaid!.message}
      wide={false}
      footer={false}
    >
      {paid ? (
        <div className="result-icon">
          <CheckIcon />
        </div>
      ) : null}
      {order ? <OrderReceipt order={order} /> : null}
      {/* A RingCloud package paid without an account (e.g. its survey's checkout token had
          expired): kept in an account with the claim token this browser received (ADR 0022). */}
      {paid && view.order.kind === 'package' ? (
        <ClaimOrderOffer orderId={view.order.orderId} brand={brand} callBacks={isCallBacksOrder(view.order)} />
      ) : null}
      {paid && view.order.leadPackage ? (
        <LeadPackageCallout delivery={view.order.leadPackage} />
      ) : paid ? (
        <div className="result-callout">
          <p>An account manager will contact you soon to set up your campaign.</p>
        </div>
      ) : null}
      <p className="result-support">Questions in the meantime? Email us at {support}</p>
      <WayOn view={view} brand={brand} />
    </SurveyLayout>
  );
}

/**
 * A pack of aged leads is delivered at once, from the states the buyer chose (issue 22): how many
 * arrived and where to see them, instead of an account manager's call.
 */
function LeadPackageCallout({ delivery }: { delivery: LeadPackageDelivery }) {
  if (delivery.delivered === null) {
    return (
      <div className="result-callout" role="status">
        <p>We are picking your leads from stock now; this page updates in a moment.</p>
      </div>
    );
  }
  const { delivered, ordered } = delivery;
  return (
    <div className="result-callout" role="status">
      <p>
        {delivered === 0
          ? 'None of your leads were in stock in the states you chose; your payment is refunded in full.'
          : `${delivered.toLocaleString('en-US')} of your ${ordered.toLocaleString('en-US')} leads ${delivered === 1 ? 'is' : 'are'} in My Leads, with full contact details.`}
        {delivered > 0 && delivered < ordered ? ' The rest were not in stock in your states and are refunded to your card.' : ''}
      </p>
      {delivered > 0 ? (
        <p>
          <Link to="/dashboard?view=my-leads" className="link">
            See them in My Leads
          </Link>
        </p>
      ) : null}
    </div>
  );
}

/** The second brand's Call-Backs package: its call-backs go to the account that claims it. */
function isCallBacksOrder(order: OrderStatusResponse): boolean {
  return order.brand === 'RingCloud' && order.description.startsWith(`${RINGCLOUD_PACKAGE_PREFIX}Call-Backs`);
}

/** Where to go from here: a transfer order's agent back to the dashboard, a RingCloud buyer to RingCloud. */
function WayOn({ view, brand }: { view: PaidOrderView; brand: OrderBrand }) {
  if ('order' in view && view.order.kind === 'transfer') {
    return (
      <>
        <ButtonLink to="/dashboard?view=buy-call-transfers" block>
          Back to Dashboard
        </ButtonLink>
        <p className="paid-order-links">
          <Link to="/dashboard?view=my-orders" className="link">
            See it in My Orders
          </Link>
        </p>
      </>
    );
  }
  if (brand === 'RingCloud') {
    return (
      // RingCloud's home is its own start page; the WarmLine site is never offered to its buyers.
      <ButtonLink to="/ringcloud" block>
        Return to Home
      </ButtonLink>
    );
  }
  return (
    <ButtonLink to="/" block>
      Return to Home
    </ButtonLink>
  );
}
