import { Router } from 'express';
import type { TransfersContext } from '../domain/context';

/** The admin's Transfers tab (issue 23 §6, §7): transfers, agents, revenue, disputes and balance adjustments. */
export function adminTransferRoutes(_ctx: TransfersContext): Router {
  const router = Router();
  return router;
}
