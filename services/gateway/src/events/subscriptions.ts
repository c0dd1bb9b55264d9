import { subscribe, type Subscription } from '@warmline/platform/bus/index';
import { storeReportedAction } from '../domain/audit-log';

/** The queue of admin actions other services report; `<queue>.retry` and `<queue>.dlq` beside it. */
export const AUDIT_QUEUE = 'gateway.audit';

/** Everything the gateway consumes: the audit reports of the other services. */
export function subscriptions(): Subscription[] {
  return [
    subscribe('audit.record', async (report, { envelope, db }) => {
      await storeReportedAction(db, report, { id: envelope.id, source: envelope.source });
    }),
  ];
}
