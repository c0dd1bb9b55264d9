import type { Handler } from '@warmline/platform/bus/index';
import { fillLeadPackage, paidLeadPackage } from '../domain/lead-packages';

/**
 * payment.succeeded of a RingCloud Aged Leads package → it is filled from stock, from the states
 * the order names (every state when it names none). Other orders are not its business.
 */
export function leadPackagePaidHandler(deps: { clock: () => Date }): Handler<'payment.succeeded'> {
  return async (payment, { envelope, db, log }) => {
    const paid = paidLeadPackage(payment, envelope.correlationId);
    if (!paid) return;
    const filled = await fillLeadPackage(db, { log, clock: deps.clock }, paid);
    if (filled.outcome === 'already-filled') log.info({ orderId: paid.orderId }, 'aged-lead package paid again; it was filled before');
  };
}
