import { subscribe, type Subscription } from '@warmline/platform/bus/index';
import type { GatewayClient } from '../clients/gateway-client';
import { noticeBuyerOfOptOut } from '../domain/suppressions';

/** The catalog's own commands to tell buyers of a suppressed phone; `<queue>.retry` and `<queue>.dlq` beside it. */
export const LEAD_SUPPRESSIONS_QUEUE = 'catalog.lead-suppressions';

export function leadSuppressionSubscriptions(deps: { gateway: GatewayClient }): Subscription[] {
  return [
    subscribe('lead_suppression.notify_buyer', async (notice, { envelope, db, log }) =>
      noticeBuyerOfOptOut(db, { gateway: deps.gateway, log }, notice, envelope.correlationId),
    ),
  ];
}
