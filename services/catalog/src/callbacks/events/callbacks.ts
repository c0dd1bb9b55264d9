import { subscribe, type Subscription } from '@warmline/platform/bus/index';
import type { Logger } from '@warmline/platform/log';
import type { GatewayClient } from '../../clients/gateway-client';
import { createVendorOpportunity, suppressVendorPhone } from '../domain/callbacks';

/** A vendor call that asked for a call-back becomes an opportunity; a do-not-call one suppresses the phone. */
export function callbackSubscriptions(deps: { gateway: GatewayClient; clock: () => Date }): Subscription[] {
  const context = (log: Logger) => ({ log, clock: deps.clock, gateway: deps.gateway });
  return [
    subscribe('callback_opportunity.create', async (command, { envelope, db, log }) => {
      await createVendorOpportunity(db, context(log), command, envelope.correlationId);
    }),
    subscribe('lead_suppression.add', async (command, { envelope, db, log }) => {
      await suppressVendorPhone(db, context(log), command, envelope.correlationId);
    }),
  ];
}
