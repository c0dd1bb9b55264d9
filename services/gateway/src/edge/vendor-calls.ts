import type { NextFunction, Request, Response } from 'express';
import { findPublicRoute } from '@warmline/contracts';
import type { ForwardingTarget } from './forwarding';

/**
 * The voice-AI vendors' keyed calls at the edge (issue 27, docs/adr/0051): the call-back webhook,
 * and the transfers service's route and outcome. A vendor is a server: it sends its key, never a
 * cookie, so the session layer, the view-as gate, the CSRF check and the browser routes' throttles
 * have nothing to say about its calls. Such a call leaves the gateway's middleware here, right
 * after the security headers: counted (edge/vendor-webhook.ts) and streamed to its service
 * (edge/forwarding.ts), its body never parsed in the gateway.
 *
 * A call that carries a cookie takes the ordinary path (sessions, view-as, CSRF, the manifest's
 * gate, the same throttle and forwarding): a view-as tab's write is refused there as everywhere.
 */
export function vendorCallsEdge(options: {
  /** The internal service of each owner of the route manifest. */
  targets: Record<string, string>;
  /** Counts the call; false when it was answered (429). */
  count: (req: Request, res: Response) => Promise<boolean>;
  forward: (req: Request, res: Response, to: ForwardingTarget) => void;
}) {
  const targets = new Map(Object.entries(options.targets).map(([owner, url]) => [owner, new URL(url)]));
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.headers.cookie !== undefined) return next();
    const path = req.originalUrl.split('?')[0] ?? '';
    const { route } = findPublicRoute(req.method, path);
    const target = route?.access === 'vendor-key' ? targets.get(route.owner) : undefined;
    if (!route || !target) return next();
    options.count(req, res).then(
      (goOn) => {
        if (goOn) options.forward(req, res, { target, audience: route.owner, route, path });
      },
      next,
    );
  };
}

