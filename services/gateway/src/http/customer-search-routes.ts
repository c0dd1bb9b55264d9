import type { Router } from 'express';
import { MAX_SEARCH_RESULTS, SEARCH_MORE_HEADER, SEARCH_PARTIAL_HEADER } from '@warmline/contracts';
import { privateKeyOf } from '@warmline/platform';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import { internalSearchSource } from '../clients/search-client';
import type { GatewayConfig } from '../config';
import type { AccountsContext } from '../domain/context';
import { accountsSource, searchCustomers } from '../domain/customer-search';
import { sessionAsker } from '../edge/access';

/**
 * The services that own people besides the gateway, each asked at `GET /internal/search?q=`:
 * the orders service's paying customers and the partners service's applications (issue 14).
 */
const INTERNAL_SEARCH_OWNERS: readonly { name: string; baseUrl: (config: GatewayConfig) => string }[] = [
  { name: 'orders', baseUrl: (config) => config.ORDERS_URL },
  { name: 'partners', baseUrl: (config) => config.PARTNERS_URL },
];

/** `GET /api/search-customers?q=` (issue 12, admins only): find anyone, across every owner at once. */
export function customerSearchRoutes(ctx: AccountsContext, config: GatewayConfig): Router {
  const identityKey = privateKeyOf(config.IDENTITY_PRIVATE_KEY);
  return manifestRoutes('gateway', sessionAsker).on('GET /api/search-customers', async ({ caller, query, res, correlationId }) => {
    const { q, limit } = query;
    const identity = { userId: caller.userId, username: caller.username, isAdmin: true };
    const { results, partial, more } = await searchCustomers(
      {
        sources: [
          accountsSource(ctx.pool),
          ...INTERNAL_SEARCH_OWNERS.map((owner) =>
            internalSearchSource({ name: owner.name, baseUrl: owner.baseUrl(config), identityKey, admin: identity, correlationId }),
          ),
        ],
        timeoutMs: config.SEARCH_SOURCE_TIMEOUT_MS,
        log: ctx.log,
      },
      q,
      limit ?? MAX_SEARCH_RESULTS,
    );
    // Still the spec's array; which sources are missing from it goes in a header, for the screen to say so.
    if (partial.length) res.setHeader(SEARCH_PARTIAL_HEADER, partial.join(', '));
    if (more) res.setHeader(SEARCH_MORE_HEADER, 'true');
    res.setHeader('cache-control', 'no-store');
    return results;
  }).router;
}
