import { enqueue, type Handler } from '@warmline/platform/bus/index';
import { receiptEmail, salesNoticeEmail } from '../domain/payment-emails';

export const SOURCE = 'notifications';

/**
 * payment.succeeded → a receipt to the billing e-mail and a notice to the sales team.
 *
 * The e-mails are not sent from here: each becomes an email.send command in this service's
 * outbox, written in the consumer's transaction together with processed_events. So a
 * redelivered event adds nothing, and each e-mail then goes through the email.send consumer,
 * which sends every command exactly once (email_log). Sending both straight from this handler
 * would resend the first e-mail whenever the second one failed and the event was retried.
 */
export function paymentSucceededHandler(deps: { salesTeamEmail: string }): Handler<'payment.succeeded'> {
  return async (order, { envelope, db, log }) => {
    // A transfer order's agent and operations are told by transfer_order.paid (its details), once.
    if (order.kind === 'transfer') return;
    const receipt = receiptEmail(order, { salesTeamEmail: deps.salesTeamEmail });
    const outgoing = [receipt, salesNoticeEmail(order, deps.salesTeamEmail)].filter((m) => m !== undefined);
    for (const data of outgoing) {
      await enqueue(db, { type: 'email.send', data, correlationId: envelope.correlationId, source: SOURCE });
    }
    if (!receipt) log.info({ orderId: order.orderId }, 'paid order has no billing e-mail; no receipt sent');
    log.info({ orderId: order.orderId, emails: outgoing.map((m) => m.template) }, 'payment e-mails queued');
  };
}
