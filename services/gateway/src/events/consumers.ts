import { queueOf } from '@warmline/contracts/bus/broker-manifest';
import { subscribe, type ServiceConsumer } from '@warmline/platform/bus/index';
import { storeReportedAction } from '../domain/audit-log';

/** The queue of admin actions other services report; `<queue>.retry` and `<queue>.dlq` beside it. */
const AUDIT_QUEUE = queueOf('gateway', 'gateway.audit');

/** Everything the gateway consumes: the audit reports of the other services. */
export function consumers(): ServiceConsumer[] {
  return [
    {
      queue: AUDIT_QUEUE,
      subscriptions: [
        subscribe('audit.record', async (report, { envelope, db }) => {
          await storeReportedAction(db, report, { id: envelope.id, source: envelope.source });
        }),
      ],
      // Batched (docs/adr/0050): a report is one insert in the batch's transaction; no lock, no call out.
      batch: { size: 20 },
    },
  ];
}
