import { Router } from 'express';
import { customerSearchQuery, customerSearchTerms, MAX_SEARCH_RESULTS, type CustomerSearchResult } from '@warmline/contracts';
import { parseInput } from '@warmline/platform/validation';
import { requireAdminIdentity, requireForwardedIdentity, type IdentityCheck } from '@warmline/platform/http/identity';
import { searchCheckoutCustomers, type CheckoutCustomerMatch } from '../db/read-models/customer-search';
import type { OrdersContext } from '../domain/context';

/**
 * `GET /internal/search?q=`: the orders service's part of the admin's customer search — paying
 * customers of the public checkouts as type 'customer' (id: their newest paid order) — asked by
 * the gateway with the admin's signed identity.
 */
export function internalSearchRoutes(ctx: OrdersContext & { identity: IdentityCheck }): Router {
  const router = Router();
  router.get('/internal/search', requireForwardedIdentity(ctx.identity), requireAdminIdentity, async (req, res) => {
    const { q, limit } = parseInput(customerSearchQuery, req.query);
    const matches = await searchCheckoutCustomers(ctx.pool, customerSearchTerms(q), limit ?? MAX_SEARCH_RESULTS);
    res.setHeader('cache-control', 'no-store');
    res.json(matches.map(customerResult));
  });
  return router;
}

function customerResult(m: CheckoutCustomerMatch): CustomerSearchResult {
  return {
    type: 'customer',
    id: m.orderId,
    firstName: null,
    lastName: null,
    name: m.name,
    mainContact: null,
    agencyName: null,
    businessName: null,
    // The second brand's checkout is the RingCloud campaign's; the main checkouts have none.
    salesperson: m.tier === 'ringcloud' ? 'RingCloud' : null,
    email: m.email,
    contactEmail: null,
    phone: m.phone,
    contactPhone: null,
    leadType: m.leadType,
    role: null,
    username: null,
    createdAt: m.createdAt.toISOString(),
    exact: m.exact,
  };
}
