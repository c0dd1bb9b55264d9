import { Router } from 'express';
import type { TransfersContext } from '../domain/context';

/** The vendor's two calls (issue 23 §3, §4): POST /api/transfers/route and POST /api/transfers/{id}/outcome, with a vendor key. */
export function vendorRoutes(_ctx: TransfersContext): Router {
  const router = Router();
  return router;
}
