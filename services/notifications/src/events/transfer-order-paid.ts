import { enqueue, type Handler } from '@warmline/platform/bus/index';
import { operationsNoticeEmail, transferConfirmationEmail } from '../domain/transfer-order-emails';
import { SOURCE } from './payment-succeeded';

/**
 * transfer_order.paid → the agent's confirmation and the operations team's notice. As with
 * payment receipts, each e-mail is an email.send command written in this consumer's
 * transaction with processed_events, so a redelivered event sends nothing twice.
 */
export function transferOrderPaidHandler(deps: { operationsEmail: string }): Handler<'transfer_order.paid'> {
  return async (order, { envelope, db, log }) => {
    const outgoing = [transferConfirmationEmail(order, deps), operationsNoticeEmail(order, deps.operationsEmail)];
    for (const data of outgoing) {
      await enqueue(db, { type: 'email.send', data, correlationId: envelope.correlationId, source: SOURCE });
    }
    log.info({ orderId: order.orderId, emails: outgoing.map((m) => m.template) }, 'transfer order e-mails queued');
  };
}
