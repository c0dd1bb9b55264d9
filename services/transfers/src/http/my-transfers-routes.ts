import { Router, type Request } from 'express';
import { z } from 'zod';
import { myTransfersQuery, TRANSFER_NOT_FOUND_MESSAGE, transferDisputeBody, transferPauseBody, transferSettingsBody } from '@warmline/contracts';
import { notFound, unauthorized } from '@warmline/platform/errors';
import { requireUserIdentity } from '@warmline/platform/http/identity';
import { parseInput } from '@warmline/platform/validation';
import type { TransfersContext } from '../domain/context';
import { disputeTransfer } from '../domain/disputes';
import { myTransfers, myTransfersCsv } from '../domain/my-transfers';
import { mySettings, pauseMyTransfers, saveMySettings, type Agent } from '../domain/settings';

const transferId = z.uuid();

/** The agent's My Transfers (issue 23 §2, §5, §6): the log, balance, settings, pause and disputes. */
export function myTransfersRoutes(ctx: TransfersContext): Router {
  const router = Router();
  router.use('/api/my-transfers', requireUserIdentity);

  router.get('/api/my-transfers', async (req, res) => {
    const query = parseInput(myTransfersQuery, req.query);
    // Prospects' names and phones: never kept by a shared cache.
    res.setHeader('Cache-Control', 'private, no-store');
    res.json(await myTransfers(ctx, agentOf(req), query));
  });

  router.get('/api/my-transfers/export.csv', async (req, res) => {
    const query = parseInput(myTransfersQuery, req.query);
    const { csv, total, rows } = await myTransfersCsv(ctx, agentOf(req), query);
    const day = ctx.clock().toISOString().slice(0, 10);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="warmline-my-transfers-${day}.csv"`);
    res.setHeader('X-Total-Count', String(total));
    if (rows < total) res.setHeader('X-Truncated', 'true');
    res.setHeader('Cache-Control', 'private, no-store');
    res.send(csv);
  });

  router.get('/api/my-transfers/settings', async (req, res) => {
    res.setHeader('Cache-Control', 'private, no-store');
    res.json(await mySettings(ctx, agentOf(req), req.id));
  });

  router.put('/api/my-transfers/settings', async (req, res) => {
    const settings = parseInput(transferSettingsBody, req.body);
    res.json(await saveMySettings(ctx, agentOf(req), settings, req.id));
  });

  router.patch('/api/my-transfers/pause', async (req, res) => {
    const { paused } = parseInput(transferPauseBody, req.body);
    res.json(await pauseMyTransfers(ctx, agentOf(req), paused, req.id));
  });

  router.post('/api/my-transfers/:id/dispute', async (req, res) => {
    const id = transferId.safeParse(req.params.id);
    if (!id.success) throw notFound(TRANSFER_NOT_FOUND_MESSAGE);
    const input = parseInput(transferDisputeBody, req.body);
    res.status(201).json(await disputeTransfer(ctx, agentOf(req), id.data.toLowerCase(), input, req.id));
  });

  return router;
}

function agentOf(req: Request): Agent {
  const identity = req.identity;
  if (!identity?.userId) throw unauthorized();
  return { userId: identity.userId, username: identity.username };
}
