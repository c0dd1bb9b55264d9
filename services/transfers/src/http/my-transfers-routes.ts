import type { Router } from 'express';
import { forwardedAsker } from '@warmline/platform/http/identity';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import type { TransfersContext } from '../domain/context';
import { disputeTransfer } from '../domain/disputes';
import { myTransfers, myTransfersCsv } from '../domain/my-transfers';
import { mySettings, pauseMyTransfers, saveMySettings } from '../domain/settings';

/**
 * The agent's My Transfers (issue 23 §2, §5, §6): the log, balance, settings, pause and disputes,
 * mounted from the route manifest (the logged-in caller, the transfer's id, bodies and queries checked there).
 */
export function myTransfersRoutes(ctx: TransfersContext): Router {
  return manifestRoutes('transfers', forwardedAsker)
    .on('GET /api/my-transfers', async ({ caller, query, res }) => {
      // Prospects' names and phones: never kept by a shared cache.
      res.setHeader('Cache-Control', 'private, no-store');
      return myTransfers(ctx, caller, query);
    })
    .on('GET /api/my-transfers/export.csv', async ({ caller, query, res }) => {
      const { csv, total, rows } = await myTransfersCsv(ctx, caller, query);
      const day = ctx.clock().toISOString().slice(0, 10);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="warmline-my-transfers-${day}.csv"`);
      res.setHeader('X-Total-Count', String(total));
      if (rows < total) res.setHeader('X-Truncated', 'true');
      res.setHeader('Cache-Control', 'private, no-store');
      res.send(csv);
    })
    .on('GET /api/my-transfers/settings', async ({ caller, res, correlationId }) => {
      res.setHeader('Cache-Control', 'private, no-store');
      return mySettings(ctx, caller, correlationId);
    })
    .on('PUT /api/my-transfers/settings', ({ caller, body, correlationId }) => saveMySettings(ctx, caller, body, correlationId))
    .on('PATCH /api/my-transfers/pause', ({ caller, body, correlationId }) => pauseMyTransfers(ctx, caller, body.paused, correlationId))
    .on('POST /api/my-transfers/{id}/dispute', async ({ caller, params, body, res, correlationId }) => {
      const dispute = await disputeTransfer(ctx, caller, params.id, body, correlationId);
      res.status(201);
      return dispute;
    }).router;
}
