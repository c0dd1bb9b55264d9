import { queueOf } from '@warmline/contracts/bus/broker-manifest';
import { subscribe, type ServiceConsumer } from '@warmline/platform/bus/index';
import type { UsersClient } from '../clients/users-client';
import type { OrdersContext } from '../domain/context';
import { settleLeadOrder } from '../domain/lead-settlement';
import { settleLeadPackage } from '../domain/lead-package-settlement';
import { refundReturnedLead } from '../domain/lead-return-refunds';

/** The catalog's settled lead orders and Aged Leads packages, and its accepted lead returns; `<queue>.retry` and `<queue>.dlq` beside it. */
const LEAD_SALES_QUEUE = queueOf('orders', 'orders.lead-sales');

/** Everything the orders service consumes, and which handler runs for it. */
export function consumers(ctx: OrdersContext, deps: { users: UsersClient }): ServiceConsumer[] {
  return [{ queue: LEAD_SALES_QUEUE, subscriptions: leadSalesSubscriptions(ctx, deps) }];
}

function leadSalesSubscriptions(ctx: OrdersContext, deps: { users: UsersClient }) {
  return [
    subscribe('lead_order.settle', async (settle, { envelope, db, log }) =>
      settleLeadOrder(ctx, deps, settle, { db, log, correlationId: envelope.correlationId }),
    ),
    subscribe('lead_package.settle', async (settle, { envelope, db, log }) =>
      settleLeadPackage(ctx, deps, settle, { db, log, correlationId: envelope.correlationId }),
    ),
    // An accepted lead return (issue 24): its price refunded once.
    subscribe('lead_return.refund', async (command, { envelope, db, log }) =>
      refundReturnedLead(ctx, command, { db, log, correlationId: envelope.correlationId }),
    ),
  ];
}
