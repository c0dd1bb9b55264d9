import type { Router } from 'express';
import type { AdminTransferAgentsAnswer, AdminTransferDisputesAnswer } from '@warmline/contracts';
import { forwardedAsker } from '@warmline/platform/http/identity';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import type { TransfersContext } from '../domain/context';
import { adjustTransferCredits, adminTransferAgents, adminTransferDisputes, adminTransferRevenue, adminTransfers } from '../domain/admin-transfers';
import { decideDisputeByAdmin } from '../domain/disputes';

/**
 * The admin's Transfers tab (issue 23 §6, §7): transfers, agents, revenue, disputes and balance
 * adjustments. The gateway lets only admins reach these; the route kit checks the role here again.
 */
export function adminTransferRoutes(ctx: TransfersContext): Router {
  return manifestRoutes('transfers', forwardedAsker)
    .on('GET /api/admin/transfers', async ({ query, res }) => {
      res.setHeader('Cache-Control', 'private, no-store');
      return adminTransfers(ctx, query);
    })
    .on('GET /api/admin/transfer-agents', async ({ res }) => {
      const answer: AdminTransferAgentsAnswer = { agents: await adminTransferAgents(ctx) };
      res.setHeader('Cache-Control', 'private, no-store');
      return answer;
    })
    .on('GET /api/admin/transfer-revenue', async ({ res }) => {
      res.setHeader('Cache-Control', 'private, no-store');
      return adminTransferRevenue(ctx);
    })
    .on('GET /api/admin/transfer-disputes', async ({ query, res }) => {
      const answer: AdminTransferDisputesAnswer = { disputes: await adminTransferDisputes(ctx, query.status) };
      res.setHeader('Cache-Control', 'private, no-store');
      return answer;
    })
    .on('POST /api/admin/transfer-disputes/{id}', ({ caller, params, body, correlationId }) =>
      decideDisputeByAdmin(ctx, caller, params.id, body, correlationId),
    )
    .on('POST /api/admin/users/{id}/transfer-credits', ({ caller, params, body, correlationId }) =>
      adjustTransferCredits(ctx, caller, params.id, body, correlationId),
    ).router;
}
