import type { NextFunction, Request, Response } from 'express';
import { forbidden } from '@warmline/platform';

/** Paths that authenticate by signature or API key, not by the session cookie. */
const WEBHOOK_PREFIXES = ['/api/webhooks/', '/api/callbacks/'];

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery defence (docs/adr/0002-csrf.md). A write must either be JSON or
 * carry `X-Requested-With`: a cross-site form or image cannot set either without a CORS
 * preflight, which the gateway never grants. A present Origin must be ours.
 */
export function csrfProtection(publicUrl: string) {
  const publicOrigin = new URL(publicUrl).origin;
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (SAFE_METHODS.has(req.method)) return next();
    if (WEBHOOK_PREFIXES.some((prefix) => req.originalUrl.startsWith(prefix))) return next();

    const origin = req.get('origin');
    if (origin !== undefined) {
      const ownOrigin = `${req.protocol}://${req.get('host') ?? ''}`;
      const given = normalizeOrigin(origin);
      if (given === null || (given !== publicOrigin && given !== normalizeOrigin(ownOrigin))) {
        throw forbidden('Cross-site request refused');
      }
    }
    if (!isJson(req.get('content-type')) && !req.get('x-requested-with')) {
      throw forbidden('Cross-site request refused: send JSON or the X-Requested-With header');
    }
    next();
  };
}

function normalizeOrigin(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null; // e.g. the literal 'null' sent by sandboxed frames and file: pages
  }
}

function isJson(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json' || (type?.startsWith('application/') === true && type.endsWith('+json'));
}
