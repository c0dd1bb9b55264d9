import { queueOf } from '@warmline/contracts/bus/broker-manifest';
import { subscribe, type ServiceConsumer } from '@warmline/platform/bus/index';
import type { Pool } from '@warmline/platform/db/index';
import type { Mailer } from '../domain/mailer';
import { emailRequestSubscriptions, type SiteLinks, type TeamInboxes } from './email-requests';
import { sendEmailHandler } from './send-email';

/** The typed e-mail commands (email.password_reset, email.order_paid, …): rendered into email.send. */
export const EMAIL_REQUESTS_QUEUE = queueOf('notifications', 'notifications.email-requests');
/** The rendered e-mails (email.send), each sent once; its retry queue and DLQ are `<queue>.retry` and `<queue>.dlq`. */
export const EMAIL_QUEUE = queueOf('notifications', 'notifications.email');

export interface NotificationsDeps extends TeamInboxes, SiteLinks {
  mailer: Mailer;
  /** Connections for e-mail claims, which commit before the send (send-email.ts). */
  emailClaims: Pool;
}

/**
 * Everything the notifications worker consumes: one durable queue per purpose, and which
 * handler runs for each message type on it. The worker starts one consumer per entry; the
 * broker manifest (contracts' consumerQueues) binds the same types to the same queues.
 */
export function consumers(deps: NotificationsDeps): ServiceConsumer[] {
  return [
    {
      queue: EMAIL_REQUESTS_QUEUE,
      subscriptions: emailRequestSubscriptions(
        {
          salesTeamEmail: deps.salesTeamEmail,
          operationsEmail: deps.operationsEmail,
          partnersTeamEmail: deps.partnersTeamEmail,
          ...(deps.supportEmail ? { supportEmail: deps.supportEmail } : {}),
          ...(deps.ringcloudSupportEmail ? { ringcloudSupportEmail: deps.ringcloudSupportEmail } : {}),
        },
        { publicUrl: deps.publicUrl },
      ),
      // Batched (docs/adr/0050): each handler only renders and writes to the outbox, in the
      // batch's transaction; no lock, no call out. email.send below sends mail, so it is not.
      batch: { size: 20 },
    },
    { queue: EMAIL_QUEUE, subscriptions: [subscribe('email.send', sendEmailHandler(deps.mailer, deps.emailClaims))] },
  ];
}

/** Every queue name above, for tools and tests that clean a broker namespace up. */
export const NOTIFICATIONS_QUEUES = [EMAIL_REQUESTS_QUEUE, EMAIL_QUEUE];
