import { Router } from 'express';
import { customerSearchQuery, customerSearchTerms, MAX_SEARCH_RESULTS, type CustomerSearchResult } from '@warmline/contracts';
import { parseInput } from '@warmline/platform/validation';
import { requireAdminIdentity, requireForwardedIdentity, type IdentityCheck } from '@warmline/platform/http/identity';
import { searchPartnerApplications, type PartnerApplicationMatch } from '../db/read-models/customer-search';
import type { PartnersContext } from '../domain/context';

/**
 * `GET /internal/search?q=`: the partners service's part of the admin's customer search —
 * partner applications as type 'partner' — asked by the gateway with the admin's signed identity.
 */
export function internalSearchRoutes(ctx: PartnersContext & { identity: IdentityCheck }): Router {
  const router = Router();
  router.get('/internal/search', requireForwardedIdentity(ctx.identity), requireAdminIdentity, async (req, res) => {
    const { q, limit } = parseInput(customerSearchQuery, req.query);
    const matches = await searchPartnerApplications(ctx.pool, customerSearchTerms(q), limit ?? MAX_SEARCH_RESULTS);
    res.setHeader('cache-control', 'no-store');
    res.json(matches.map(partnerResult));
  });
  return router;
}

/** The contract's partner fields: businessName, mainContact, contactEmail, contactPhone; the rest null. */
function partnerResult(m: PartnerApplicationMatch): CustomerSearchResult {
  return {
    type: 'partner',
    id: m.id,
    firstName: null,
    lastName: null,
    name: null,
    mainContact: m.contactName,
    agencyName: null,
    businessName: m.businessName,
    salesperson: null,
    email: null,
    contactEmail: m.email,
    phone: null,
    contactPhone: m.phone,
    leadType: null,
    role: null,
    username: null,
    createdAt: m.createdAt.toISOString(),
    exact: m.exact,
  };
}
