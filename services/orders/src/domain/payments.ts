import { timingSafeEqual } from 'node:crypto';
import type Stripe from 'stripe';
import { z } from 'zod';
import { withTransaction, type PoolClient } from '@warmline/platform/db/index';
import { enqueue } from '@warmline/platform/bus/index';
import { AppError } from '@warmline/platform/errors';
import type { BillingDetails, EventData, PaymentProviderName, SandboxConfirmRequest, SandboxConfirmResponse } from '@warmline/contracts';
import { LEAD_PURCHASE_CANCELLED_MESSAGE } from '@warmline/contracts/catalog';
import {
  findIntent,
  findOrder,
  markOrderFailed,
  markOrderPaid,
  recordWebhookEvent,
  setIntentStatus,
  updateBilling,
  type PackageOrder,
  type PaymentIntentRow,
} from '../db/orders';
import { recordCardLast4 } from '../db/my-orders';
import { SOURCE, type OrdersContext } from './context';
import { orderFacts } from './package-orders';
import { intentIdOfClientSecret } from './payment-provider';
import { sandboxCardOutcome } from './sandbox-cards';
import { recordTransferOrderPaid } from './transfer-orders';
import { refundPaymentOfCancelledTransfer } from './transfer-status';
import { recordDispute, recordProviderRefunds, type ProviderReportOutcome } from './provider-reports';

/**
 * The outcome of a payment, whoever reports it: the sandbox's card form or Stripe's webhook.
 * Both providers go through these two functions, so an order is paid (and `payment.succeeded`
 * published) exactly once however many times and ways the news arrives.
 */

interface PaymentReport {
  intentId: string;
  provider: PaymentProviderName;
  /** The provider's event id; a repeat of a recorded one changes nothing. */
  eventId?: string;
  eventType?: string;
  /** Billing details given at payment time (the second brand's checkout sends them). */
  billing?: BillingDetails;
  correlationId: string;
}

/**
 * What the provider says it took, checked against the locked order before it is marked paid.
 * Stripe's event is signed, but it describes whatever intent it names: an intent created for
 * another amount or order (by someone with the API key, or a bug) must not pay this order.
 * The sandbox is its own provider and has nothing to compare.
 */
interface ChargeReport {
  amountReceivedCents: number;
  currency: string;
  /** The intent's metadata.orderId; undefined when it has none. */
  orderId: string | undefined;
}

interface PaymentSuccessReport extends PaymentReport {
  /**
   * The sandbox asks before it takes the card, so it can refuse a cancelled purchase; Stripe
   * reports money already taken, which is recorded (the catalog then refunds all of it).
   */
  refuseCancelled?: boolean;
  charge?: ChargeReport;
  /** The last four digits of the card that paid, for the buyer's receipt (My Orders), when known. */
  cardLast4?: string;
}

type PaymentOutcome =
  | { outcome: 'recorded'; order: PackageOrder }
  | { outcome: 'already-paid'; order: PackageOrder }
  | { outcome: 'duplicate-event' }
  | { outcome: 'unknown-intent' }
  /** An aged-lead purchase its buyer cancelled (issue 22): the sandbox refuses to take the card. */
  | { outcome: 'cancelled'; order: PackageOrder }
  /** The provider's charge does not match the order: not paid, an alert logged. */
  | { outcome: 'mismatch'; order: PackageOrder };

/**
 * The provider took the money: the order becomes paid and `payment.succeeded` is enqueued, once,
 * with the command for its e-mails in the same transaction.
 */
async function recordPaymentSucceeded(ctx: OrdersContext, report: PaymentSuccessReport): Promise<PaymentOutcome> {
  return withTransaction(ctx.pool, async (db) => {
    const payable = await lockPayableOrder(db, report, 'payment.succeeded');
    if ('outcome' in payable) return payable;
    if (payable.order.cancelledAt && report.refuseCancelled) return { outcome: 'cancelled', order: payable.order };
    const { intent } = payable;
    const mismatched = report.charge ? chargeMismatches(payable.order, report.charge) : [];
    if (mismatched.length > 0) {
      // Committed with the event id, so Stripe's retries of it change nothing; someone must look.
      ctx.log.error(
        {
          alert: 'stripe-payment-mismatch',
          orderId: payable.order.id,
          intentId: intent.id,
          eventId: report.eventId,
          mismatched,
          expected: { amountCents: payable.order.amountCents, currency: payable.order.currency, orderId: payable.order.id },
          reported: report.charge,
        },
        'a payment does not match its order; the order is not marked paid',
      );
      return { outcome: 'mismatch', order: payable.order };
    }
    if (report.billing) await updateBilling(db, payable.order.id, report.billing);
    if (report.cardLast4 && /^\d{4}$/.test(report.cardLast4)) await recordCardLast4(db, payable.order.id, report.cardLast4);
    await setIntentStatus(db, intent.id, 'succeeded', null);
    const order = await markOrderPaid(db, payable.order.id);
    const paid: EventData<'payment.succeeded'> = {
      ...orderFacts(order),
      provider: intent.provider,
      paymentIntentId: intent.id,
      paidAt: (order.paidAt ?? new Date()).toISOString(),
    };
    // The purchase's id (order.created's), so one id follows the purchase from order to payment.
    const correlationId = payable.order.correlationId ?? report.correlationId;
    await enqueue(db, { type: 'payment.succeeded', data: paid, correlationId, source: SOURCE });
    if (order.kind === 'transfer') {
      // A transfer order becomes paid in the same transaction; its e-mails say what it is for.
      await recordTransferOrderPaid(db, order, correlationId, ctx.log);
    } else {
      // The receipt (to the billing e-mail, which only this command carries) and the sales notice.
      const { hasBillingEmail: _fact, ...facts } = paid;
      await enqueue(db, {
        type: 'email.order_paid',
        data: { ...facts, ...(order.billingEmail ? { billingEmail: order.billingEmail } : {}) },
        correlationId,
        source: SOURCE,
      });
    }
    ctx.log.info({ orderId: order.id, intentId: intent.id, provider: intent.provider, amountCents: order.amountCents }, 'order paid');
    return { outcome: 'recorded', order };
  });
}

/** The fields of the provider's charge that differ from the order ('amount_received', …). */
function chargeMismatches(order: PackageOrder, charge: ChargeReport): string[] {
  const mismatched: string[] = [];
  if (charge.amountReceivedCents !== order.amountCents) mismatched.push('amount_received');
  if (charge.currency.toLowerCase() !== order.currency) mismatched.push('currency');
  if (charge.orderId !== order.id) mismatched.push('metadata.orderId');
  return mismatched;
}

interface PaymentFailureReport extends PaymentReport {
  /** For the buyer, e.g. 'Your card was declined.' */
  message: string;
  code?: string;
}

/**
 * The provider refused the card: the order is marked failed with the reason and stays
 * payable (the buyer may retry with another card); `payment.failed` is enqueued. A failure
 * reported after the order was paid (an earlier attempt arriving late) changes nothing.
 */
async function recordPaymentFailed(ctx: OrdersContext, report: PaymentFailureReport): Promise<PaymentOutcome> {
  return withTransaction(ctx.pool, async (db) => {
    const payable = await lockPayableOrder(db, report, 'payment.failed');
    if ('outcome' in payable) return payable;
    const { intent } = payable;
    if (report.billing) await updateBilling(db, payable.order.id, report.billing);
    await setIntentStatus(db, intent.id, 'requires_payment_method', report.message);
    const order = await markOrderFailed(db, payable.order.id, report.message);
    await enqueue(db, {
      type: 'payment.failed',
      data: {
        ...orderFacts(order),
        provider: intent.provider,
        paymentIntentId: intent.id,
        failureMessage: report.message,
        ...(report.code ? { failureCode: report.code } : {}),
      },
      correlationId: payable.order.correlationId ?? report.correlationId,
      source: SOURCE,
    });
    ctx.log.info({ orderId: order.id, intentId: intent.id, code: report.code }, 'payment failed');
    return { outcome: 'recorded', order };
  });
}

/**
 * How both outcomes begin, inside their transaction: a provider event seen before, an unknown
 * intent or an order already paid ends here with that outcome. Otherwise the intent and its
 * order are locked for the rest of the transaction (the caller stores the billing details
 * given at payment time once it accepts the report).
 */
async function lockPayableOrder(
  db: PoolClient,
  report: PaymentReport,
  /** Recorded with the provider's event id when the report names no event type. */
  defaultEventType: string,
): Promise<PaymentOutcome | { intent: PaymentIntentRow; order: PackageOrder }> {
  if (report.eventId && !(await recordWebhookEvent(db, report.provider, report.eventId, report.eventType ?? defaultEventType))) {
    return { outcome: 'duplicate-event' };
  }
  const intent = await findIntent(db, report.intentId, { forUpdate: true });
  if (!intent) return { outcome: 'unknown-intent' };
  const order = await findOrder(db, intent.orderId, { forUpdate: true });
  if (!order) throw new Error(`Payment intent ${intent.id} points at missing order ${intent.orderId}`);
  if (order.status === 'paid') return { outcome: 'already-paid', order };
  return { intent, order };
}

/* ------------------------------------------------------------------- sandbox ---------- */

/**
 * The sandbox card form was submitted. A test card that succeeds takes the same path as
 * Stripe's `payment_intent.succeeded`; a declined one records the failure and answers 402
 * with Stripe's message. Confirming an intent that is already paid changes nothing.
 */
export async function confirmSandboxPayment(
  ctx: OrdersContext,
  card: SandboxConfirmRequest,
  correlationId: string,
): Promise<SandboxConfirmResponse> {
  if (ctx.provider.name !== 'sandbox') {
    throw new AppError('SandboxDisabled', 'Sandbox payments are not enabled on this site', 404);
  }
  const intentId = intentIdOfClientSecret(card.clientSecret);
  const intent = intentId ? await findIntent(ctx.pool, intentId) : null;
  if (!intent || intent.provider !== 'sandbox' || !sameSecret(intent.clientSecret, card.clientSecret)) {
    throw new AppError('PaymentSessionNotFound', 'Payment session not found; please start the payment again', 404);
  }
  const answer: SandboxConfirmResponse = { status: 'succeeded', orderId: intent.orderId, paymentIntentId: intent.id };
  if (intent.status === 'succeeded') return answer;

  const outcome = sandboxCardOutcome(card.cardNumber);
  const report = { intentId: intent.id, provider: 'sandbox' as const, correlationId, ...(card.billing ? { billing: card.billing } : {}) };
  if (outcome.succeeded) {
    const paid = await recordPaymentSucceeded(ctx, { ...report, cardLast4: card.cardNumber.slice(-4), refuseCancelled: true });
    if (paid.outcome === 'cancelled') throw new AppError('PurchaseCancelled', LEAD_PURCHASE_CANCELLED_MESSAGE, 409, { orderId: intent.orderId });
    if (paid.outcome === 'recorded' && paid.order.kind === 'transfer') await refundPaymentOfCancelledTransfer(ctx, paid.order.id, correlationId);
    return answer;
  }
  const failed = await recordPaymentFailed(ctx, { ...report, message: outcome.message, code: outcome.declineCode ?? outcome.code });
  // A concurrent confirmation with a good card won: the order is paid after all.
  if (failed.outcome === 'already-paid') return answer;
  throw new AppError('CardDeclined', outcome.message, 402, {
    code: outcome.code,
    ...(outcome.declineCode ? { declineCode: outcome.declineCode } : {}),
    orderId: intent.orderId,
  });
}

/** The card's last four digits when the event carries its charge expanded (webhooks usually name it only). */
function cardLast4Of(intent: Stripe.PaymentIntent): { cardLast4?: string } {
  const charge = intent.latest_charge;
  const last4 = charge && typeof charge === 'object' ? charge.payment_method_details?.card?.last4 : undefined;
  return last4 ? { cardLast4: last4 } : {};
}

function sameSecret(stored: string, given: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/* -------------------------------------------------------------------- stripe ---------- */

export type StripeEventOutcome = PaymentOutcome | ProviderReportOutcome | { outcome: 'ignored' };

const emailSchema = z.email();

/**
 * A verified Stripe event. Payment intents' outcomes go through the same functions as the
 * sandbox's; refunds and disputes reported by Stripe are recorded (provider-reports.ts); other
 * event types are acknowledged and ignored (the endpoint should subscribe only to
 * `payment_intent.succeeded`, `payment_intent.payment_failed`, `charge.refunded` and
 * `charge.dispute.created`).
 */
export async function handleStripeEvent(ctx: OrdersContext, event: Stripe.Event, correlationId: string): Promise<StripeEventOutcome> {
  switch (event.type) {
    case 'payment_intent.succeeded': {
      const intent = event.data.object;
      const email = emailSchema.safeParse(intent.receipt_email);
      const paid = await recordPaymentSucceeded(ctx, {
        intentId: intent.id,
        provider: 'stripe',
        eventId: event.id,
        eventType: event.type,
        correlationId,
        charge: { amountReceivedCents: intent.amount_received, currency: intent.currency, orderId: intent.metadata?.orderId },
        ...(email.success ? { billing: { email: email.data } } : {}),
        ...cardLast4Of(intent),
      });
      if (paid.outcome === 'recorded' && paid.order.kind === 'transfer') await refundPaymentOfCancelledTransfer(ctx, paid.order.id, correlationId);
      return paid;
    }
    case 'payment_intent.payment_failed': {
      const intent = event.data.object;
      const error = intent.last_payment_error;
      const code = error?.decline_code ?? error?.code;
      return recordPaymentFailed(ctx, {
        intentId: intent.id,
        provider: 'stripe',
        eventId: event.id,
        eventType: event.type,
        correlationId,
        message: error?.message || 'Your payment could not be processed.',
        ...(code ? { code } : {}),
      });
    }
    case 'charge.refunded': {
      // A refund made in Stripe's dashboard (or one of ours, heard about again: recorded once).
      const charge = event.data.object;
      const intentId = idOf(charge.payment_intent);
      if (!intentId) return { outcome: 'ignored' };
      return recordProviderRefunds(ctx, {
        provider: 'stripe',
        eventId: event.id,
        eventType: event.type,
        intentId,
        chargeId: charge.id,
        amountRefundedCents: charge.amount_refunded,
        refunds: (charge.refunds?.data ?? [])
          .filter((r) => r.status !== 'failed' && r.status !== 'canceled')
          .map((r) => ({ id: r.id, amountCents: r.amount, reason: r.reason ?? null })),
        correlationId,
      });
    }
    case 'charge.dispute.created': {
      const dispute = event.data.object;
      const intentId = idOf(dispute.payment_intent);
      if (!intentId) return { outcome: 'ignored' };
      const dueBy = dispute.evidence_details?.due_by;
      return recordDispute(ctx, {
        provider: 'stripe',
        eventId: event.id,
        eventType: event.type,
        intentId,
        disputeId: dispute.id,
        amountCents: dispute.amount,
        reason: dispute.reason,
        evidenceDueBy: dueBy ? new Date(dueBy * 1000) : null,
        correlationId,
      });
    }
    default:
      return { outcome: 'ignored' };
  }
}

/** The id of an expandable Stripe field (a string, or the object when expanded). */
function idOf(field: string | { id: string } | null | undefined): string | null {
  if (!field) return null;
  return typeof field === 'string' ? field : field.id;
}
