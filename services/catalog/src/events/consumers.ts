import { queueOf } from '@warmline/contracts/bus/broker-manifest';
import { subscribe, type ServiceConsumer, type Subscription } from '@warmline/platform/bus/index';
import type { GatewayClient } from '../clients/gateway-client';
import type { OrdersClient } from '../clients/orders-client';
import { creditCallBacksOrder, takeBackRefundedCallBacks } from '../callbacks/domain/my-callbacks';
import { recordLeadReturnRefunded } from '../market/domain/lead-returns';
import { leadOrderFailedHandler, leadOrderPaidHandler } from '../market/events/lead-payments';
import { leadPackagePaidHandler } from '../market/events/lead-packages';
import { callbackSubscriptions } from '../callbacks/events/callbacks';
import { leadSuppressionSubscriptions } from '../suppressions/events/lead-suppressions';

/** The queue of payment outcomes the catalog acts on; `<queue>.retry` and `<queue>.dlq` beside it. */
export const LEAD_PAYMENTS_QUEUE = queueOf('catalog', 'catalog.lead-payments');
/** Call-backs the vendor posted (from ingestion), assigned to agents. */
export const CALLBACKS_QUEUE = queueOf('catalog', 'catalog.callbacks');
/** Buyers told that a phone they bought opted out. */
export const LEAD_SUPPRESSIONS_QUEUE = queueOf('catalog', 'catalog.lead-suppressions');
/** The importer's queues: an import or a registry file to load (the command only wakes its runner). */
const LEAD_IMPORTS_QUEUE = queueOf('importer', 'importer.lead-imports');
const DNC_REGISTRY_QUEUE = queueOf('importer', 'importer.dnc-registry');

interface CatalogDeps {
  clock: () => Date;
  gateway: GatewayClient;
  orders: OrdersClient;
}

/**
 * Everything the catalog consumes: one queue per purpose, and which handler runs for each message
 * type on it — the market's payments, the call-backs, the suppression notices. The service starts
 * one consumer per entry; the broker manifest binds the same types to the same queues.
 */
export function consumers(deps: CatalogDeps): ServiceConsumer[] {
  return [
    { queue: LEAD_PAYMENTS_QUEUE, subscriptions: paymentSubscriptions(deps) },
    { queue: CALLBACKS_QUEUE, subscriptions: callbackSubscriptions(deps) },
    { queue: LEAD_SUPPRESSIONS_QUEUE, subscriptions: leadSuppressionSubscriptions(deps) },
  ];
}

/**
 * What the importer (the catalog's second process) consumes: each command only wakes its runner,
 * since an import or a registry load takes minutes, longer than a message should stay
 * unacknowledged or a transaction open.
 */
export function importerConsumers(runners: { imports: { wake(): void }; registry: { wake(): void } }): ServiceConsumer[] {
  return [
    { queue: LEAD_IMPORTS_QUEUE, subscriptions: [subscribe('import.run', async () => runners.imports.wake())] },
    { queue: DNC_REGISTRY_QUEUE, subscriptions: [subscribe('dnc_registry.load', async () => runners.registry.wake())] },
  ];
}

/** The payment outcomes of lead orders, Aged Leads packages and Call-Backs orders. */
function paymentSubscriptions(deps: CatalogDeps): Subscription[] {
  const leadOrderPaid = leadOrderPaidHandler(deps);
  const leadPackagePaid = leadPackagePaidHandler(deps);
  return [
    // One handler per type and queue: each passes over the orders that are not its kind.
    subscribe('payment.succeeded', async (payment, handler) => {
      await leadOrderPaid(payment, handler);
      await leadPackagePaid(payment, handler);
      await creditCallBacksOrder(handler.db, { log: handler.log, clock: deps.clock, gateway: deps.gateway, orders: deps.orders }, payment, handler.envelope.correlationId);
    }),
    subscribe('payment.failed', leadOrderFailedHandler(deps)),
    // A Call-Backs order paid without an account is credited once its buyer claims it (ADR 0022).
    subscribe('order.claimed', async (claim, handler) => {
      await creditCallBacksOrder(handler.db, { log: handler.log, clock: deps.clock, gateway: deps.gateway, orders: deps.orders }, claim, handler.envelope.correlationId);
    }),
    // A Call-Backs order's refund changes its buyer's balance; a lead return's refund is noted on the return.
    subscribe('payment.refunded', async (refund, { db, log }) => {
      await takeBackRefundedCallBacks(db, { log, clock: deps.clock }, refund);
      await recordLeadReturnRefunded(db, { log }, refund);
    }),
  ];
}
