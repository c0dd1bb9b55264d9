import { subscribe, type Subscription } from '@warmline/platform/bus/index';
import type { Mailer } from '../domain/mailer';
import { paymentSucceededHandler } from './payment-succeeded';
import { sendEmailHandler } from './send-email';
import { transferOrderPaidHandler } from './transfer-order-paid';

/** The email.send commands; its retry queue and DLQ are `<queue>.retry` and `<queue>.dlq`. */
export const EMAIL_QUEUE = 'notifications.email';
/** Payment events that turn into e-mails (receipts, the sales team's notice). */
export const PAYMENT_EMAILS_QUEUE = 'notifications.payment-emails';
/** Paid call-transfer orders: the agent's confirmation and the operations notice. */
export const TRANSFER_ORDER_EMAILS_QUEUE = 'notifications.transfer-order-emails';

export interface NotificationsDeps {
  mailer: Mailer;
  salesTeamEmail: string;
  operationsEmail: string;
}

export interface Consumer {
  queue: string;
  subscriptions: Subscription[];
}

/**
 * Everything the notifications worker consumes: one durable queue per purpose, and which
 * handler runs for each message type on it. The worker starts one consumer per entry.
 */
export function consumers(deps: NotificationsDeps): Consumer[] {
  return [
    { queue: EMAIL_QUEUE, subscriptions: [subscribe('email.send', sendEmailHandler(deps.mailer))] },
    {
      queue: PAYMENT_EMAILS_QUEUE,
      subscriptions: [subscribe('payment.succeeded', paymentSucceededHandler({ salesTeamEmail: deps.salesTeamEmail }))],
    },
    {
      queue: TRANSFER_ORDER_EMAILS_QUEUE,
      subscriptions: [subscribe('transfer_order.paid', transferOrderPaidHandler({ operationsEmail: deps.operationsEmail }))],
    },
  ];
}

/** Every queue name above, for tools and tests that clean a broker namespace up. */
export const NOTIFICATIONS_QUEUES = [EMAIL_QUEUE, PAYMENT_EMAILS_QUEUE, TRANSFER_ORDER_EMAILS_QUEUE];
