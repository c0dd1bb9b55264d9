import { useEffect, useState } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { RINGCLOUD_PRICING, formatUsd } from '@warmline/contracts/pricing';
import { SURVEY_FUNNELS, ringcloudPaymentIntentBody, type SurveyLeadType } from '@warmline/contracts/surveys';
import type { CreatePaymentIntentResponse } from '@warmline/contracts/orders';
import { Button } from '../../components/button';
import { OrderSummary } from '../../components/order-summary';
import { toast } from '../../components/toast-store';
import { saveOrderClaim } from '../checkout/order-claim';
import { newIdempotencyKey, useCreatePaymentIntent } from '../payments/api';
import { PaymentForm } from '../payments/payment-form';
import { SurveyLayout } from '../survey/survey-layout';
import { SurveyWizard } from '../survey/survey-wizard';
import { useSurveySubmission } from '../survey/use-survey-submission';
import {
  clearRingcloudSurvey,
  readRingcloudCheckoutToken,
  readRingcloudSurvey,
  ringcloudCheckoutKey,
  saveRingcloudCheckoutToken,
  saveRingcloudSurvey,
  type RingcloudCheckoutData,
} from './ringcloud-storage';
import { useBrandedPageTitle } from './ringcloud-title';
import './ringcloud.css';

const FUNNEL = SURVEY_FUNNELS.ringcloud;
const { perUnit, agedLeads } = RINGCLOUD_PRICING;

/** The second brand's prices beside its lead types (spec §9), from the contracts table. */
const LEAD_TYPE_HINTS: Partial<Record<SurveyLeadType, string>> = {
  'Live Transfers': `${formatUsd(perUnit['Live Transfers'].unitPriceCents)} per transfer`,
  'Call-Backs': `${formatUsd(perUnit['Call-Backs'].unitPriceCents)} per callback`,
  'Aged Leads': `From ${formatUsd(Math.min(...Object.values(agedLeads.unitPriceCents)))} per lead, ${agedLeads.leadCount} leads`,
};

/** /ringcloud: the second brand's survey; it creates the account, then on to the card checkout. */
export function RingcloudSurveyPage() {
  useBrandedPageTitle('Get Started', 'RingCloud');
  const navigate = useNavigate();
  const { submit, submitting, fieldError } = useSurveySubmission({ funnel: 'ringcloud' }, FUNNEL.salesperson!, (answers, result) => {
    saveRingcloudSurvey(answers);
    // Links the checkout that follows to the account the survey just created (never matched by e-mail).
    saveRingcloudCheckoutToken(result.checkoutToken);
    void navigate('/ringcloud-checkout');
  });
  return (
    <SurveyLayout brand="RingCloud" title="Get Started with RingCloud" subtitle="Tell us about your agency, choose your leads, and check out in minutes.">
      <SurveyWizard
        funnel={FUNNEL}
        leadTypeHints={LEAD_TYPE_HINTS}
        notice={<p>Next you will see your order summary and pay securely by card.</p>}
        submitLabel="Continue to Checkout"
        submitting={submitting}
        fieldError={fieldError}
        onSubmit={submit}
      />
    </SurveyLayout>
  );
}

/**
 * /ringcloud-checkout: the order the survey's answers make, priced from the contracts table
 * (the orders service prices it again and refuses any other amount), and the card payment
 * with billing name, e-mail and phone. Without saved answers it goes back to /ringcloud.
 */
export function RingcloudCheckoutPage() {
  useBrandedPageTitle('Checkout', 'RingCloud');
  const [data] = useState(readRingcloudSurvey);
  if (!data) return <Navigate to="/ringcloud" replace />;
  return <RingcloudCheckout data={data} />;
}

function RingcloudCheckout({ data }: { data: RingcloudCheckoutData }) {
  const navigate = useNavigate();
  const { answers, order } = data;
  // One key per survey answer: a retried or doubled request (StrictMode, a slow network) or a
  // reloaded page makes one order, the one the survey's checkout token linked to the account.
  const [idempotencyKey] = useState(() => ringcloudCheckoutKey(newIdempotencyKey));
  const [checkoutToken] = useState(readRingcloudCheckoutToken);
  const [session, setSession] = useState<CreatePaymentIntentResponse | null>(null);
  const createIntent = useCreatePaymentIntent({
    onSuccess: (answer) => {
      // Paid without an account (no session, the survey's token gone or expired): the thank-you
      // page offers to add the order to an account with this (ADR 0022).
      if (answer.claimToken) saveOrderClaim(answer.orderId, answer.claimToken);
      setSession(answer);
    },
  });
  const { mutate } = createIntent;

  // Aged Leads are filled only from the survey's working states (issue 22).
  const intentBody = { ...ringcloudPaymentIntentBody(order, answers.workingStates), idempotencyKey, ...(checkoutToken ? { checkoutToken } : {}) };
  const { workingStates } = answers;
  useEffect(() => {
    mutate({ ...ringcloudPaymentIntentBody(order, workingStates), idempotencyKey, ...(checkoutToken ? { checkoutToken } : {}) });
  }, [mutate, order, workingStates, idempotencyKey, checkoutToken]);

  const quantity =
    order.leadType === 'Aged Leads'
      ? `${order.quote.count} leads (${order.ageRange} days)`
      : `${order.quote.count} ${order.quote.count === 1 ? perUnit[order.leadType].unit : perUnit[order.leadType].units}`;

  const summary = (
    <OrderSummary
      rows={[
        { term: 'Package', detail: `RingCloud ${order.leadType}` },
        { term: 'Quantity', detail: quantity },
        {
          term: 'Price',
          detail: `${formatUsd(order.quote.unitPriceCents)} per ${order.leadType === 'Aged Leads' ? 'lead' : perUnit[order.leadType].unit}`,
        },
        {
          term: order.leadType === 'Aged Leads' ? 'Leads from' : 'Working states',
          detail: order.leadType === 'Aged Leads' ? `${answers.workingStates} only` : answers.workingStates,
        },
      ]}
      total={formatUsd(order.quote.amountCents)}
    />
  );

  return (
    <SurveyLayout brand="RingCloud" title="Complete Your Order" subtitle={`Thank you, ${answers.firstName}. Review your order and pay securely by card.`} footer={false}>
      <div className="ringcloud-checkout">
        {summary}
        <section className="ringcloud-checkout__payment" aria-labelledby="payment-title">
          <h2 id="payment-title" className="ringcloud-checkout__title">
            Payment Information
          </h2>
          {session ? (
            <PaymentForm
              clientSecret={session.clientSecret}
              amountCents={session.amountCents}
              billingFields={{ name: 'required', email: 'required', phone: 'required' }}
              defaultBilling={{
                name: `${answers.firstName} ${answers.lastName}`.trim(),
                email: answers.email,
                phone: answers.phone,
              }}
              onSuccess={() => {
                clearRingcloudSurvey();
                toast({ title: 'Payment Successful', description: 'Your order has been processed successfully.', variant: 'success' });
                void navigate(`/thank-you?order=${encodeURIComponent(session.orderId)}&brand=ringcloud`, { replace: true });
              }}
            />
          ) : createIntent.isError ? (
            <div className="payment-alert" role="alert">
              <p className="payment-alert__title">Failed to create payment intent</p>
              <p>Please try again in a moment.</p>
              <Button variant="secondary" onClick={() => mutate(intentBody)}>
                Try again
              </Button>
            </div>
          ) : (
            <div className="spinner-block payment-loading" role="status">
              <span className="spinner" aria-hidden="true" />
              <span>Preparing your payment…</span>
            </div>
          )}
        </section>
      </div>
    </SurveyLayout>
  );
}
