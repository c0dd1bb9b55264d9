import { subscribe, type Subscription } from '@warmline/platform/bus/index';
import type { GatewayClient } from '../../clients/gateway-client';
import { noticeBuyerOfOptOut } from '../domain/suppressions';

export function leadSuppressionSubscriptions(deps: { gateway: GatewayClient }): Subscription[] {
  return [
    subscribe('lead_suppression.notify_buyer', async (notice, { envelope, db, log }) =>
      noticeBuyerOfOptOut(db, { gateway: deps.gateway, log }, notice, envelope.correlationId),
    ),
  ];
}
