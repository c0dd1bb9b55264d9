import { subscribe, type Subscription } from '@warmline/platform/bus/index';
import type { Mailer } from '../domain/mailer';
import { sendEmailHandler } from './send-email';

/** The queue the worker consumes; its retry queue and DLQ are `<queue>.retry` and `<queue>.dlq`. */
export const EMAIL_QUEUE = 'notifications.email';

/** Everything the notifications worker consumes, and which handler runs for it. */
export function subscriptions(deps: { mailer: Mailer }): Subscription[] {
  return [subscribe('email.send', sendEmailHandler(deps.mailer))];
}
