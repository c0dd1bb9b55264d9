import type { ReactNode } from 'react';
import type { BulkPurchaseStatusResponse } from '@warmline/contracts/catalog';
import type { PublicUser } from '@warmline/contracts/accounts';
import { formatUsd } from '@warmline/contracts/pricing';
import { ButtonLink } from '../../components/button';
import { Spinner } from '../../components/spinner';
import { ApiError } from '../../lib/api';
import { usDateTime } from '../../lib/us-date';
import { SupportEmail } from '../survey/support-email';
import { usePurchaseReceipt } from './api';
import { PhoneText } from './phone-text';
import './aged-leads.css';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const MY_LEADS = '/dashboard?view=my-leads';
const MARKET = '/dashboard?view=buy-aged-leads';

/**
 * The receipt after an aged-lead purchase (issue 17 item 3): the order number, the leads bought
 * with the contact details the buyer now owns (issue 22), the total, and the way on to My Leads. It lives in the
 * URL (`/dashboard?view=lead-receipt&order=<id>`) and reads the purchase from the server, so a
 * reload shows the same receipt, and an id that is made up or someone else's never says paid.
 */
export function LeadReceiptView({ orderParam, user }: { orderParam: string | null; user: PublicUser }) {
  const orderId = orderParam && UUID.test(orderParam) ? orderParam.toLowerCase() : null;
  const receipt = usePurchaseReceipt(orderId);

  if (orderId === null) return <NoReceipt />;
  if (receipt.isPending) {
    return (
      <ReceiptFrame title="Your receipt">
        <Spinner label="Looking up your purchase…" showLabel />
      </ReceiptFrame>
    );
  }
  if (receipt.isError) {
    const error = receipt.error;
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return <NoReceipt />;
    return (
      <ReceiptFrame title="We could not check your purchase">
        <p role="alert">Please reload this page in a moment. If you have paid, your receipt e-mail has your order number.</p>
      </ReceiptFrame>
    );
  }
  const purchase = receipt.data;
  if (purchase.status === 'held') {
    return (
      <ReceiptFrame title="Confirming your payment">
        <p role="status">Your leads are reserved for you while your payment is confirmed. This page updates as soon as it arrives.</p>
        <OrderNumber orderId={purchase.orderId} />
      </ReceiptFrame>
    );
  }
  if (purchase.status !== 'paid') {
    return (
      <ReceiptFrame title="This purchase was not paid">
        <p>The payment did not go through, so the leads went back on the market. You have not been charged.</p>
        <OrderNumber orderId={purchase.orderId} />
        <div className="lead-receipt__actions">
          <ButtonLink to={MARKET}>Back to the lead market</ButtonLink>
        </div>
      </ReceiptFrame>
    );
  }
  return <PaidReceipt purchase={purchase} email={user.email} />;
}

function PaidReceipt({ purchase, email }: { purchase: BulkPurchaseStatusResponse; email: string }) {
  const count = purchase.leads.length;
  const missing = purchase.leadCount - count;
  return (
    <ReceiptFrame title="Thank you! Your leads are ready">
      {/* The spec's success words (§5), here on the receipt rather than in a toast over its buttons. */}
      <p className="view-header__lead" role="status">
        <strong>Bulk Purchase Successful</strong> <span>Successfully purchased {count} {count === 1 ? 'lead' : 'leads'}.</span>{' '}
        {count === 1 ? 'It is' : 'They are'} in My Leads now, with full contact details.
        {email ? ` A receipt is on its way to ${email}.` : null}
      </p>
      <dl className="lead-receipt__summary" aria-label="Your order">
        <div className="lead-receipt__row">
          <dt>Order number</dt>
          <dd className="lead-receipt__id" data-testid="order-number">
            {purchase.orderId}
          </dd>
        </div>
        <div className="lead-receipt__row">
          <dt>Leads bought</dt>
          <dd>{count}</dd>
        </div>
        <div className="lead-receipt__row">
          <dt>Total paid</dt>
          <dd data-testid="receipt-total">{formatUsd(purchase.totalCents)}</dd>
        </div>
        <div className="lead-receipt__row">
          <dt>Paid on</dt>
          <dd>{purchase.paidAt ? usDateTime(purchase.paidAt) : '—'}</dd>
        </div>
      </dl>
      {missing > 0 ? (
        <p className="lead-receipt__note" role="note">
          {missing === 1 ? 'One lead was' : `${missing} leads were`} sold to another buyer before your payment arrived; {missing === 1 ? 'its' : 'their'} price
          is refunded to your card.
        </p>
      ) : null}
      <div className="lead-receipt__table-wrap">
        <table className="lead-receipt__leads">
          <caption>Leads bought</caption>
          <thead>
            <tr>
              <th scope="col">Lead</th>
              <th scope="col">State</th>
              <th scope="col">Age</th>
              <th scope="col" className="lead-receipt__price">
                Price
              </th>
            </tr>
          </thead>
          <tbody>
            {purchase.leads.map((lead) => (
              <tr key={lead.leadId}>
                <td>
                  {/* The name with the phone and e-mail under it: one column that fits a phone. */}
                  <div className="lead-receipt__lead">
                    <span className="lead-receipt__name">{lead.name}</span>
                    <a className="link" href={`tel:+1${lead.phone.replace(/\D/g, '')}`}>
                      <PhoneText phone={lead.phone} />
                    </a>
                    {lead.email ? (
                      <a className="link lead-receipt__email" href={`mailto:${lead.email}`}>
                        <EmailText email={lead.email} />
                      </a>
                    ) : null}
                  </div>
                </td>
                <td className="lead-receipt__place">{lead.zip ? `${lead.state} ${lead.zip}` : lead.state}</td>
                <td className="lead-receipt__age">{lead.ageRange} days</td>
                <td className="lead-receipt__price">{formatUsd(lead.priceCents)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={3}>
                Total
              </th>
              <td className="lead-receipt__price">{formatUsd(purchase.totalCents)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
      <div className="lead-receipt__actions">
        <ButtonLink to={MY_LEADS}>Go to My Leads</ButtonLink>
        <ButtonLink to={MARKET} variant="secondary">
          Buy more leads
        </ButtonLink>
      </div>
      <p className="lead-receipt__support">
        Questions about your leads? Email us at <SupportEmail /> and quote your order number.
      </p>
    </ReceiptFrame>
  );
}

/** 'name@example.com' that may wrap after the '@' first, so a narrow column keeps the domain whole. */
function EmailText({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at <= 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </>
  );
}

function NoReceipt() {
  return (
    <ReceiptFrame title="No purchase found">
      <p>We could not find a purchase of yours with this order number. Your leads bought are always in My Leads.</p>
      <div className="lead-receipt__actions">
        <ButtonLink to={MY_LEADS}>Go to My Leads</ButtonLink>
        <ButtonLink to={MARKET} variant="secondary">
          Back to the lead market
        </ButtonLink>
      </div>
    </ReceiptFrame>
  );
}

function OrderNumber({ orderId }: { orderId: string }) {
  return (
    <p>
      Order number: <span className="lead-receipt__id">{orderId}</span>
    </p>
  );
}

function ReceiptFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="dash-view lead-receipt" aria-labelledby="receipt-title">
      <h1 id="receipt-title" className="view-header__title">
        {title}
      </h1>
      {children}
    </section>
  );
}
