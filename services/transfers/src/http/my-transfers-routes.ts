import { Router } from 'express';
import type { TransfersContext } from '../domain/context';

/** The agent's My Transfers (issue 23 §2, §5, §6): the log, balance, settings, pause and disputes. */
export function myTransfersRoutes(_ctx: TransfersContext): Router {
  const router = Router();
  return router;
}
