import { DEFAULT_BODY_LIMIT_BYTES, findPublicRoute } from '@warmline/contracts';

/**
 * The largest request body, in bytes, for `method path`: the route manifest's own limit for
 * the route (the bulk purchase: 2 MB), else `fallback` (100 KB). The gateway counts forwarded
 * bodies against it and every service's JSON parser uses it, so both ends agree.
 */
export function bodyLimitFor(method: string, path: string, fallback: number = DEFAULT_BODY_LIMIT_BYTES): number {
  return findPublicRoute(method, path).route?.bodyLimit ?? fallback;
}

export const BODY_TOO_LARGE_MESSAGE = 'Request body is too large';
