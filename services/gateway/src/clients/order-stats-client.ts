import { orderStats, type OrderStats } from '@warmline/contracts';
import type { KeyObject } from 'node:crypto';
import { IDENTITY_HEADER, signIdentity } from '@warmline/platform/http/identity';
import { type Identity } from '@warmline/platform/identity';

/**
 * The orders service's numbers for the admin cards (`GET /internal/admin-stats`), asked for with
 * the admin's signed identity. A short timeout: the cards must not wait on a slow service.
 */
export async function fetchOrderStats(
  options: { ordersUrl: string; identityKey: KeyObject; timeoutMs: number },
  admin: Identity,
  correlationId: string,
): Promise<OrderStats> {
  const response = await fetch(new URL('/internal/admin-stats', options.ordersUrl), {
    headers: { [IDENTITY_HEADER]: signIdentity(options.identityKey, 'orders', admin), 'x-request-id': correlationId },
    signal: AbortSignal.timeout(options.timeoutMs),
  });
  if (!response.ok) throw new Error(`orders answered ${response.status} to /internal/admin-stats`);
  return orderStats.parse(await response.json());
}
