import { withTransaction, type PoolClient } from '@warmline/platform/db/index';
import { enqueue } from '@warmline/platform/bus/index';
import type { PaymentProviderName } from '@warmline/contracts';
import { findIntent, findOrder, recordWebhookEvent, type PackageOrder } from '../db/orders';
import { flagOrderDisputed } from '../db/disputes';
import { findRefundByProviderId, insertRefund } from '../db/refunds';
import { SOURCE, type OrdersContext } from './context';
import { announceRefund } from './refunds';

/**
 * What the payment provider reports about a paid order after the fact (issue 12): a refund made
 * in its own dashboard (Stripe's `charge.refunded`) and a dispute the buyer opened with their
 * bank (`charge.dispute.created`). Each provider event is handled once (webhook_events), and a
 * refund is recorded once by the provider's refund id, so a refund we made ourselves and then
 * hear about again is never counted twice.
 */

export type ProviderReportOutcome =
  | { outcome: 'recorded'; orderId: string }
  | { outcome: 'nothing-new'; orderId: string }
  | { outcome: 'duplicate-event' }
  | { outcome: 'unknown-intent' };

interface ProviderRefund {
  id: string;
  amountCents: number;
  /** The provider's reason ('requested_by_customer', …), when one was chosen. */
  reason: string | null;
}

export interface ProviderRefundsReport {
  provider: PaymentProviderName;
  eventId: string;
  eventType: string;
  intentId: string;
  chargeId: string;
  /** The charge's whole refunded amount as the provider counts it. */
  amountRefundedCents: number;
  /** The refunds the event lists (the provider may list only the latest ones, or none). */
  refunds: ProviderRefund[];
  correlationId: string;
}

/**
 * The provider says a charge was refunded. Each refund it lists that we have not recorded is
 * recorded as initiated by the provider, announced with `payment.refunded` and the buyer told;
 * if the provider's total is still above ours (it listed only some), the difference is recorded
 * under an id made of the charge and that total, so a repeat of the same report adds nothing.
 * The order's row is locked first: a refund of ours still on its way to the provider finishes
 * (and is recorded) before this looks.
 */
export async function recordProviderRefunds(ctx: OrdersContext, report: ProviderRefundsReport): Promise<ProviderReportOutcome> {
  return withTransaction(ctx.pool, async (db) => {
    const locked = await lockOrderOfEvent(db, report);
    if ('outcome' in locked) return locked;
    let order = locked.order;
    if (order.status !== 'paid') {
      // Refunds count against a paid order only; an order whose payment we never recorded needs a person.
      ctx.log.error({ orderId: order.id, status: order.status, eventId: report.eventId, alert: 'refund-of-unpaid-order' }, 'the provider reports a refund of an order not recorded as paid');
      return { outcome: 'nothing-new', orderId: order.id };
    }
    let recorded = 0;
    const record = async (providerRefundId: string, wantedCents: number, reason: string) => {
      const left = order.amountCents - order.refundedCents;
      const amountCents = Math.min(wantedCents, left);
      if (amountCents <= 0) {
        ctx.log.warn({ orderId: order.id, providerRefundId, wantedCents }, 'the provider reports a refund beyond what was paid; not recorded');
        return;
      }
      const { refundedTotalCents } = await insertRefund(db, {
        orderId: order.id,
        amountCents,
        reason,
        initiatedBy: 'provider',
        actorId: null,
        providerRefundId,
        idempotencyKey: null,
      });
      await announceRefund(db, { order, amountCents, refundedTotalCents, initiatedBy: 'provider', correlationId: report.correlationId });
      if (order.billingEmail) {
        await enqueue(db, {
          type: 'email.refund_issued',
          source: SOURCE,
          correlationId: report.correlationId,
          data: {
            to: order.billingEmail,
            name: order.billingName ?? '',
            orderId: order.id,
            description: order.description,
            amountCents,
            refundedTotalCents,
            orderAmountCents: order.amountCents,
            reason,
            refundedAt: new Date().toISOString(),
          },
        });
      }
      order = { ...order, refundedCents: refundedTotalCents };
      recorded += 1;
    };

    for (const refund of report.refunds) {
      if (await findRefundByProviderId(db, refund.id)) continue;
      await record(refund.id, refund.amountCents, refundReason(refund.reason));
    }
    if (report.amountRefundedCents > order.refundedCents) {
      const id = `${report.chargeId}:refunded-to:${report.amountRefundedCents}`;
      if (!(await findRefundByProviderId(db, id))) await record(id, report.amountRefundedCents - order.refundedCents, refundReason(null));
    }
    if (recorded > 0) ctx.log.info({ orderId: order.id, refundedCents: order.refundedCents, eventId: report.eventId }, 'refund made at the provider recorded');
    return { outcome: recorded > 0 ? 'recorded' : 'nothing-new', orderId: order.id };
  });
}

/** 'Refunded in Stripe (requested by customer)'. */
function refundReason(providerReason: string | null): string {
  return providerReason ? `Refunded in Stripe (${providerReason.replaceAll('_', ' ')})` : 'Refunded in Stripe';
}

export interface ProviderDisputeReport {
  provider: PaymentProviderName;
  eventId: string;
  eventType: string;
  intentId: string;
  disputeId: string;
  amountCents: number;
  reason: string;
  evidenceDueBy: Date | null;
  correlationId: string;
}

/**
 * A buyer disputed a payment with their bank: the order is flagged as disputed and the team
 * e-mailed (they have a deadline to answer), once per dispute. Not an admin action: no audit entry.
 */
export async function recordDispute(ctx: OrdersContext, report: ProviderDisputeReport): Promise<ProviderReportOutcome> {
  return withTransaction(ctx.pool, async (db) => {
    const locked = await lockOrderOfEvent(db, report);
    if ('outcome' in locked) return locked;
    const { order } = locked;
    const flagged = await flagOrderDisputed(db, { orderId: order.id, disputeId: report.disputeId, reason: report.reason, disputedCents: report.amountCents });
    if (!flagged) return { outcome: 'nothing-new', orderId: order.id };
    await enqueue(db, {
      type: 'email.dispute_opened',
      source: SOURCE,
      correlationId: report.correlationId,
      data: {
        orderId: order.id,
        description: order.description,
        orderAmountCents: order.amountCents,
        disputedCents: report.amountCents,
        reason: report.reason,
        disputeId: report.disputeId,
        buyerName: order.billingName,
        buyerEmail: order.billingEmail,
        evidenceDueBy: report.evidenceDueBy ? report.evidenceDueBy.toISOString() : null,
        openedAt: new Date().toISOString(),
      },
    });
    ctx.log.warn({ orderId: order.id, disputeId: report.disputeId, reason: report.reason, amountCents: report.amountCents }, 'payment disputed');
    return { outcome: 'recorded', orderId: order.id };
  });
}

/** The event seen before ends here; otherwise the order of the intent it names, locked. */
async function lockOrderOfEvent(
  db: PoolClient,
  report: { provider: PaymentProviderName; eventId: string; eventType: string; intentId: string },
): Promise<ProviderReportOutcome | { order: PackageOrder }> {
  if (!(await recordWebhookEvent(db, report.provider, report.eventId, report.eventType))) return { outcome: 'duplicate-event' };
  const intent = await findIntent(db, report.intentId);
  if (!intent) return { outcome: 'unknown-intent' };
  const order = await findOrder(db, intent.orderId, { forUpdate: true });
  if (!order) throw new Error(`Payment intent ${intent.id} points at missing order ${intent.orderId}`);
  return { order };
}
