import { Router, type Request } from 'express';
import { z } from 'zod';
import {
  adminTransfersQuery,
  DISPUTE_MESSAGES,
  transferCreditAdjustmentBody,
  transferDisputeDecisionBody,
  transferDisputeListQuery,
  type AdminTransferAgentsAnswer,
  type AdminTransferDisputesAnswer,
} from '@warmline/contracts';
import { notFound, unauthorized } from '@warmline/platform/errors';
import { requireAdminIdentity } from '@warmline/platform/http/identity';
import { parseInput } from '@warmline/platform/validation';
import type { TransfersContext } from '../domain/context';
import { adjustTransferCredits, adminTransferAgents, adminTransferDisputes, adminTransferRevenue, adminTransfers } from '../domain/admin-transfers';
import { decideDisputeByAdmin, type Admin } from '../domain/disputes';

const uuid = z.uuid();
const ADMIN_PATHS = ['/api/admin/transfers', '/api/admin/transfer-agents', '/api/admin/transfer-revenue', '/api/admin/transfer-disputes', '/api/admin/users/:id/transfer-credits'];

/**
 * The admin's Transfers tab (issue 23 §6, §7): transfers, agents, revenue, disputes and balance
 * adjustments. The gateway lets only admins reach these; the role is checked here again.
 */
export function adminTransferRoutes(ctx: TransfersContext): Router {
  const router = Router();
  router.use(ADMIN_PATHS, requireAdminIdentity);

  router.get('/api/admin/transfers', async (req, res) => {
    const query = parseInput(adminTransfersQuery, req.query);
    res.setHeader('Cache-Control', 'private, no-store');
    res.json(await adminTransfers(ctx, query));
  });

  router.get('/api/admin/transfer-agents', async (_req, res) => {
    const answer: AdminTransferAgentsAnswer = { agents: await adminTransferAgents(ctx) };
    res.setHeader('Cache-Control', 'private, no-store');
    res.json(answer);
  });

  router.get('/api/admin/transfer-revenue', async (_req, res) => {
    res.setHeader('Cache-Control', 'private, no-store');
    res.json(await adminTransferRevenue(ctx));
  });

  router.get('/api/admin/transfer-disputes', async (req, res) => {
    const { status } = parseInput(transferDisputeListQuery, req.query);
    const answer: AdminTransferDisputesAnswer = { disputes: await adminTransferDisputes(ctx, status) };
    res.setHeader('Cache-Control', 'private, no-store');
    res.json(answer);
  });

  router.post('/api/admin/transfer-disputes/:id', async (req, res) => {
    const id = uuid.safeParse(req.params.id);
    if (!id.success) throw notFound(DISPUTE_MESSAGES.notFound);
    const decision = parseInput(transferDisputeDecisionBody, req.body);
    res.json(await decideDisputeByAdmin(ctx, adminOf(req), id.data.toLowerCase(), decision, req.id));
  });

  router.post('/api/admin/users/:id/transfer-credits', async (req, res) => {
    const id = uuid.safeParse(req.params.id);
    if (!id.success) throw notFound('User not found');
    const adjustment = parseInput(transferCreditAdjustmentBody, req.body);
    res.json(await adjustTransferCredits(ctx, adminOf(req), id.data.toLowerCase(), adjustment, req.id));
  });

  return router;
}

function adminOf(req: Request): Admin {
  const identity = req.identity;
  if (!identity?.userId) throw unauthorized();
  return { userId: identity.userId, username: identity.username ?? identity.userId };
}
