import { Router } from 'express';
import { customerSearchQuery, MAX_SEARCH_RESULTS, type CustomerSearchResult } from '@warmline/contracts';
import { parseInput } from '@warmline/platform/http/validation';
import { requireAdminIdentity, requireForwardedIdentity } from '@warmline/platform/http/identity';
import { searchCheckoutCustomers } from '../db/customer-search';
import type { OrdersContext } from '../domain/context';

/**
 * `GET /internal/search?q=`: the orders service's part of the admin's customer search — paying
 * customers of the public checkouts — asked by the gateway with the admin's signed identity.
 */
export function internalSearchRoutes(ctx: OrdersContext & { identitySecret: string }): Router {
  const router = Router();
  router.get('/internal/search', requireForwardedIdentity(ctx.identitySecret), requireAdminIdentity, async (req, res) => {
    const { q } = parseInput(customerSearchQuery, req.query);
    const matches = await searchCheckoutCustomers(ctx.pool, q, MAX_SEARCH_RESULTS);
    const answer: CustomerSearchResult[] = matches.map((m) => ({
      type: 'customer',
      id: m.orderId,
      firstName: null,
      lastName: null,
      name: m.name,
      mainContact: null,
      agencyName: null,
      businessName: null,
      salesperson: m.tier === 'ringcloud' ? 'RingCloud' : null,
      email: m.email,
      contactEmail: null,
      phone: m.phone,
      contactPhone: null,
      leadType: null,
      role: null,
      username: null,
      createdAt: m.createdAt.toISOString(),
      exact: m.exact,
    }));
    res.setHeader('cache-control', 'no-store');
    res.json(answer);
  });
  return router;
}
