import type { NextFunction, Request, Response } from 'express';
import { findPublicRoute } from '@warmline/contracts';
import { AppError, forbidden, notFound, unauthorized } from '@warmline/platform';
import { ANONYMOUS, type Identity } from '@warmline/platform/identity';
import type { CurrentUser } from './sessions';

/** Checked on the server for every protected route, whatever the SPA shows (ARCHITECTURE §1). */
function requireUser(req: Request, _res: Response, next: NextFunction): void {
  if (!req.user) throw unauthorized('Not authenticated');
  next();
}

function requireAdmin(req: Request, _res: Response, next: NextFunction): void {
  if (!req.user) throw unauthorized('Not authenticated');
  if (!req.user.isAdmin) throw forbidden('Admin access required');
  next();
}

/**
 * Who asks the gateway's own routes (the route kit's asker): the session's user — in a view-as
 * tab the viewed agent, read only — or nobody. A login waiting for its second factor has no user
 * yet: the two-factor routes read that pending login from the session themselves.
 */
export function sessionAsker(req: Request): Identity {
  const user = req.user;
  if (!user) return ANONYMOUS;
  return { userId: user.id, username: user.username, isAdmin: user.isAdmin, ...(req.viewAs ? { readOnly: true as const } : {}) };
}

/** The signed-in user's whole record, on a route the manifest gives to customers or admins. */
export function currentUser(req: Request): CurrentUser {
  if (!req.user) throw unauthorized('Not authenticated');
  return req.user;
}

/**
 * The route manifest at the door, for every /api request: a path the manifest does not know
 * is 404, a known path with another method 405, and a route's access (customer, admin) is
 * checked here, before the gateway answers it or forwards it, whatever the route's own code
 * checks again. `alsoForwarded` are prefixes of tests' stand-in services.
 */
export function routeManifestGate(alsoForwarded: readonly string[] = []) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const path = req.originalUrl.split('?')[0] ?? '';
    const { route, pathKnown } = findPublicRoute(req.method, path);
    if (!route) {
      if (alsoForwarded.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return next();
      if (pathKnown) throw new AppError('MethodNotAllowed', `Method not allowed: ${req.method} ${path}`, 405);
      throw notFound(`Not found: ${req.method} ${path}`);
    }
    if (route.access === 'customer') return requireUser(req, _res, next);
    if (route.access === 'admin') return requireAdmin(req, _res, next);
    // 'vendor-key': no session is asked for; the owning service checks the key it is forwarded
    // with (edge/vendor-webhook.ts). 'anonymous', 'stripe-signature': nothing to check here.
    next();
  };
}
