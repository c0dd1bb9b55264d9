import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { PublicUser } from '@warmline/contracts/accounts';
import { BUFFER_SECONDS, formatUsd } from '@warmline/contracts/pricing';
import {
  TRANSFER_LEAD_TYPE,
  centsToDecimal,
  priceTextToCents,
  type CallTransferOrderFormValues,
} from '@warmline/contracts/transfers';
import { Button, ButtonLink } from '../../components/button';
import { Spinner } from '../../components/spinner';
import { toast } from '../../components/toast-store';
import { ApiError, errorMessage } from '../../lib/api';
import { authKeys } from '../auth/api';
import { OfferPoints } from '../dashboard/offer-points';
import { TransferBalanceNote } from '../my-transfers/transfer-balance-note';
import { useUserSurvey } from '../survey/api';
import { useCreateTransferOrder } from './api';
import { readPendingTransferOrder, savePendingTransferOrder, type PendingTransferOrder } from './pending-order';
import {
  TransferOrderForm,
  prefilledTransferForm,
  type TransferFormErrors,
  type ValidTransferOrder,
} from './transfer-order-form';
import { TransferPayment } from './transfer-payment';
import './transfers.css';

type Step = 'intro' | 'form' | 'payment';

/** The order a payment session was opened for, so the same details submitted again reuse it. */
interface OpenOrder {
  pending: PendingTransferOrder;
  submitted: string;
}

const POINTS = [
  {
    title: 'Qualified Live Transfers',
    text: 'TCPA-compliant prospects, pre-screened and warmed by our AI voice service before they reach you.',
  },
  {
    title: 'Real-Time Delivery',
    text: 'Each prospect is transferred to your phone the moment they qualify, only during your working hours.',
  },
  {
    title: '120-Second Buffer Protection',
    text: `If a prospect does not stay on the call for more than ${BUFFER_SECONDS} seconds, that transfer is not charged.`,
  },
];

const FIELDS = ['totalTransfers', 'callsPerDay', 'transferHours', 'transferPhone', 'workingStates'] as const;

/**
 * Buy Call Transfers (spec §2, §4): intro → order form → (the order is created) embedded
 * payment. 'Back' returns to the intro and 'Back to Form' to the form, both keeping what was
 * typed. The order is priced by the server at the agent's own per-transfer price.
 */
export function BuyCallTransfersView({ user, onMyTransfers }: { user: PublicUser; onMyTransfers: () => void }) {
  const queryClient = useQueryClient();
  const survey = useUserSurvey();
  const [step, setStep] = useState<Step>('intro');
  const [values, setValues] = useState<CallTransferOrderFormValues | null>(null);
  const [serverErrors, setServerErrors] = useState<TransferFormErrors>({});
  const [open, setOpen] = useState<OpenOrder | null>(null);
  const [stored] = useState(() => readPendingTransferOrder(user.id));

  // The price an admin set may have changed since this page loaded: ask again.
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: authKeys.currentUser() });
  }, [queryClient]);

  const createOrder = useCreateTransferOrder();
  const unitCents = priceTextToCents(user.liveTransferPrice);
  const formValues = values ?? (survey.isPending ? null : prefilledTransferForm(user, survey.data ?? null));

  const showStep = (next: Step) => {
    setStep(next);
    window.scrollTo({ top: 0 });
  };

  const submit = (order: ValidTransferOrder) => {
    if (unitCents === null) return;
    const priceCents = order.totalTransfers * unitCents;
    const body = {
      totalTransfers: order.totalTransfers,
      callsPerDay: order.callsPerDay,
      transferHours: order.transferHours,
      transferPhone: order.transferPhone,
      workingStates: order.workingStates,
      leadType: TRANSFER_LEAD_TYPE,
      price: centsToDecimal(priceCents),
    };
    const submitted = JSON.stringify(body);
    // The agent went back to the form and changed nothing: pay for the order already made.
    if (open && open.submitted === submitted) {
      showStep('payment');
      return;
    }
    setServerErrors({});
    createOrder.mutate(body, {
      onSuccess: (answer) => {
        const pending: PendingTransferOrder = {
          orderId: answer.orderId,
          clientSecret: answer.clientSecret,
          totalPrice: answer.totalPrice,
          unitPrice: answer.unitPrice,
          transferDetails: { totalTransfers: order.totalTransfers, transfersPerDay: order.callsPerDay, states: order.workingStates },
          userId: user.id,
        };
        savePendingTransferOrder(pending);
        setOpen({ pending, submitted });
        showStep('payment');
      },
      onError: (error) => {
        setServerErrors(fieldErrorsOf(error));
        toast({ title: 'Error', description: errorMessage(error, 'Failed to create order'), variant: 'destructive' });
        // A price mismatch means our copy of the agent's price is out of date.
        if (error instanceof ApiError && error.status === 400) {
          void queryClient.invalidateQueries({ queryKey: authKeys.currentUser() });
        }
      },
    });
  };

  if (step === 'payment' && open) {
    return (
      <section className="dash-view" aria-labelledby="transfer-payment-title">
        <h1 id="transfer-payment-title" className="view-header__title">
          Complete Your Order
        </h1>
        <TransferPayment user={user} order={open.pending}>
          <Button variant="secondary" block className="transfer-pay__back" onClick={() => showStep('form')}>
            Back to Form
          </Button>
        </TransferPayment>
      </section>
    );
  }

  if (step === 'form' || step === 'payment') {
    return (
      <section className="dash-view" aria-label="Buy Call Transfers">
        <h1 className="view-header__title">Buy Call Transfers</h1>
        {formValues ? (
          <TransferOrderForm
            values={formValues}
            onChange={setValues}
            unitPrice={user.liveTransferPrice}
            serverErrors={serverErrors}
            submitting={createOrder.isPending}
            onBack={() => showStep('intro')}
            onSubmit={submit}
          />
        ) : (
          <Spinner label="Loading your preferences…" showLabel />
        )}
      </section>
    );
  }

  return <TransfersIntro user={user} stored={stored} onOrder={() => showStep('form')} onMyTransfers={onMyTransfers} />;
}

function TransfersIntro({ user, stored, onOrder, onMyTransfers }: { user: PublicUser; stored: PendingTransferOrder | null; onOrder(): void; onMyTransfers(): void }) {
  const unitCents = priceTextToCents(user.liveTransferPrice);
  return (
    <section className="dash-view" aria-labelledby="transfers-title">
      <div className="view-header">
        <h1 id="transfers-title" className="view-header__title">
          Buy Call Transfers
        </h1>
        <p className="view-header__lead">
          Qualified prospects handed to you live by phone, in the states and hours you choose.
        </p>
        <TransferBalanceNote onOpen={onMyTransfers} />
      </div>
      <OfferPoints points={POINTS} />
      <div className="card offer-cta transfer-price">
        <div>
          <p className="transfer-price__label">Your price</p>
          <p className="transfer-price__amount" data-testid="live-transfer-price">
            {unitCents === null ? user.liveTransferPrice : formatUsd(unitCents)}
            <span className="transfer-price__unit"> per transfer</span>
          </p>
          <p className="transfer-price__note">Set for your account; your total is this price × the transfers you order.</p>
        </div>
        <Button onClick={onOrder}>Order Call Transfers</Button>
      </div>
      {stored ? (
        <div className="transfer-resume" role="status">
          <p>
            You have an unpaid order of {stored.transferDetails.totalTransfers} transfers.{' '}
            <ButtonLink to="/transfer-checkout" variant="ghost" className="btn--small">
              Complete payment
            </ButtonLink>
          </p>
        </div>
      ) : null}
    </section>
  );
}

/** The server's field messages (400 `issues`), by form field. */
function fieldErrorsOf(error: unknown): TransferFormErrors {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  try {
    const body = JSON.parse(error.bodyText) as { issues?: Array<{ path: string; message: string }> };
    const errors: TransferFormErrors = {};
    for (const issue of body.issues ?? []) {
      const field = FIELDS.find((f) => f === issue.path);
      if (field && !errors[field]) errors[field] = issue.message;
    }
    return errors;
  } catch {
    return {};
  }
}
