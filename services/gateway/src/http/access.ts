import type { NextFunction, Request, Response } from 'express';
import { forbidden, unauthorized } from '@warmline/platform';
import type { CurrentUser } from './sessions';

/** Checked on the server for every protected route, whatever the SPA shows (ARCHITECTURE §1). */
export function requireUser(req: Request, _res: Response, next: NextFunction): void {
  if (!req.user) throw unauthorized('Not authenticated');
  next();
}

export function requireAdmin(req: Request, _res: Response, next: NextFunction): void {
  if (!req.user) throw unauthorized('Not authenticated');
  if (!req.user.isAdmin) throw forbidden('Admin access required');
  next();
}

/** The signed-in user of a route behind requireUser / requireAdmin. */
export function currentUser(req: Request): CurrentUser {
  if (!req.user) throw unauthorized('Not authenticated');
  return req.user;
}
