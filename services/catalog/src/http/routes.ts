import { Router, type Request } from 'express';
import { z } from 'zod';
import { badRequest, unauthorized } from '@warmline/platform/errors';
import { requireUserIdentity } from '@warmline/platform/http/identity';
import { type Identity } from '@warmline/platform/identity';
import { parseInput } from '@warmline/platform/validation';
import { availableLeadsQuery, bulkPurchaseBody, leadExportQuery, leadListQuery, matchingLeadsQuery, myLeadsQuery } from '@warmline/contracts/catalog';
import type { CatalogContext } from '../domain/context';
import { availableLeads, listMarketLeads, matchingLeads } from '../domain/market';
import { exportMyLeadsCsv, listMyLeads } from '../domain/my-leads';
import { cancelPurchase, purchaseLeads, purchaseStatus, resumePurchase, unpaidPurchases } from '../domain/purchase';

/**
 * The aged-lead market's API, reached through the gateway with a signed identity. Every route
 * is for logged-in users only; My Leads answers only the caller's own leads.
 */
const uuid = z.uuid();

export function catalogRoutes(ctx: CatalogContext): Router {
  const router = Router();
  router.use(['/api/aged-leads', '/api/bulk-purchase-leads', '/api/my-leads'], requireUserIdentity);

  router.get('/api/aged-leads', async (req, res) => {
    const query = parseInput(leadListQuery, req.query);
    res.json(await listMarketLeads(ctx, buyerOf(req).userId, query));
  });

  // The cart's questions (issue 17): both read only, so a view-as tab may ask them too.
  router.get('/api/aged-leads/matching', async (req, res) => {
    const { filter, hideDncMatches } = parseInput(matchingLeadsQuery, req.query);
    res.json(await matchingLeads(ctx, buyerOf(req).userId, filter, hideDncMatches));
  });

  router.get('/api/aged-leads/available', async (req, res) => {
    const { ids } = parseInput(availableLeadsQuery, req.query);
    res.json(await availableLeads(ctx, buyerOf(req).userId, ids));
  });

  router.post('/api/bulk-purchase-leads', async (req, res) => {
    const { leadIds } = parseInput(bulkPurchaseBody, req.body);
    const purchase = await purchaseLeads(ctx, buyerOf(req), leadIds, req.id);
    // The same leads again resume the unpaid purchase (issue 22): 200, nothing new was made.
    res.status(purchase.resumed ? 200 : 201).json(purchase);
  });

  // My Orders' unpaid purchases, with Pay (resume) and Cancel (issue 22).
  router.get('/api/bulk-purchase-leads', async (req, res) => {
    res.setHeader('Cache-Control', 'private, no-store');
    res.json(await unpaidPurchases(ctx, buyerOf(req).userId));
  });

  router.get('/api/bulk-purchase-leads/:orderId', async (req, res) => {
    res.json(await purchaseStatus(ctx, buyerOf(req).userId, orderIdOf(req)));
  });

  router.post('/api/bulk-purchase-leads/:orderId/resume', async (req, res) => {
    res.json(await resumePurchase(ctx, buyerOf(req), orderIdOf(req), req.id));
  });

  router.post('/api/bulk-purchase-leads/:orderId/cancel', async (req, res) => {
    res.json(await cancelPurchase(ctx, buyerOf(req), orderIdOf(req), req.id));
  });

  router.get('/api/my-leads', async (req, res) => {
    const query = parseInput(myLeadsQuery, req.query);
    res.json(await listMyLeads(ctx, buyerOf(req).userId, query));
  });

  router.get('/api/my-leads/export.csv', async (req, res) => {
    const { filter } = parseInput(leadExportQuery, req.query);
    const csv = await exportMyLeadsCsv(ctx, buyerOf(req).userId, filter);
    const day = ctx.clock().toISOString().slice(0, 10);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="warmline-my-leads-${day}.csv"`);
    // Contact details: never kept by a shared cache.
    res.setHeader('Cache-Control', 'private, no-store');
    res.send(csv);
  });

  return router;
}

function orderIdOf(req: Request): string {
  const orderId = uuid.safeParse(req.params.orderId);
  if (!orderId.success) throw badRequest('Order id must be a UUID');
  return orderId.data.toLowerCase();
}

function buyerOf(req: Request): Identity & { userId: string } {
  const identity = req.identity;
  if (!identity?.userId) throw unauthorized();
  return { ...identity, userId: identity.userId };
}
