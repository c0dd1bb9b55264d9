import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { WEBHOOK_ANSWER_EXAMPLES, WEBHOOK_CALLS_PER_MINUTE, WEBHOOK_FAILED_MESSAGE, findPublicRoute } from '@warmline/contracts';
import { originOf } from './request-origin';
import type { Throttle, ThrottleRule } from './throttle';

/**
 * Routes of access 'vendor-key' (issue 15: POST /api/callbacks/brightcall) at the door. A
 * voice-AI vendor is a server, not a browser: it has no session and no CSRF token, and its key
 * is checked by the service that owns the keys (ingestion), never here. The gateway only:
 * - asks for no session (edge/access.ts) and no CSRF proof (edge/csrf.ts, WEBHOOK_PREFIXES);
 *   a call without a cookie never touches the session store, so it is not refused while Redis
 *   is away. The session layer still runs for a call that carries a cookie, so a view-as tab's
 *   write is refused here as everywhere (edge/view-as.ts),
 * - forwards with the anonymous identity whoever is signed in, the key header untouched and the
 *   cookie dropped (edge/forwarding.ts),
 * - counts calls per presented key and key-less calls per address (this file),
 * - answers its own refusals in the webhook's shape, `{ success: false, message }`, which is
 *   what /brightcalldocs promises the vendor.
 */

function isVendorKeyRoute(req: Request): boolean {
  return findPublicRoute(req.method, req.originalUrl.split('?')[0] ?? '').route?.access === 'vendor-key';
}

/** The 429 message /brightcalldocs shows (contracts' example of the answer is the one text). */
export const VENDOR_THROTTLED_MESSAGE = WEBHOOK_ANSWER_EXAMPLES[429].message;

/** Calls per presented key a minute (VENDOR_WEBHOOK_CALLS_PER_MINUTE overrides the limit). */
const VENDOR_CALLS_PER_KEY: ThrottleRule = { name: 'vendor-webhook-key', limit: WEBHOOK_CALLS_PER_MINUTE, windowSeconds: 60 };
/**
 * Calls without any key a minute per address: each is certain to be refused (401) by the
 * service, so a flood of them is cut here; a handful of mistakes a minute still reach the
 * service and get its 401, which tells the vendor what is wrong.
 */
const VENDOR_KEYLESS_CALLS_PER_IP: ThrottleRule = { name: 'vendor-webhook-keyless-ip', limit: 60, windowSeconds: 60 };

/**
 * The key a caller presents: `X-API-Key`, else the token of `Authorization: Bearer`. Undefined
 * when neither holds one (an Authorization of another scheme is no vendor key either).
 */
function presentedVendorKey(headers: IncomingHttpHeaders): string | undefined {
  const apiKey = headers['x-api-key'];
  const fromHeader = (Array.isArray(apiKey) ? apiKey[0] : apiKey)?.trim();
  if (fromHeader) return fromHeader;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
  return bearer || undefined;
}

/** An answer in the webhook's own shape (spec §8), with Retry-After when given. */
export function sendWebhookAnswer(res: Response, status: number, message: string, retryAfterSeconds?: number): void {
  if (retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(retryAfterSeconds));
  res.status(status).json({ success: false, message });
}

/** The answer when the ingestion service could not be reached or did not answer in time. */
export function sendWebhookUnavailable(res: Response, status: 503 | 504, retryAfterSeconds: number): void {
  sendWebhookAnswer(res, status, WEBHOOK_FAILED_MESSAGE, retryAfterSeconds);
}

/**
 * The limit a caller is held to, on every answer (the IETF draft's `RateLimit` and
 * `RateLimit-Policy`, and the older `RateLimit-Limit`, `-Remaining`, `-Reset` many clients read):
 * a vendor sees how close it is before it is refused.
 */
function setRateLimitHeaders(res: Response, rule: ThrottleRule, used: number, resetSeconds: number): void {
  const remaining = Math.max(0, rule.limit - used);
  res.setHeader('RateLimit-Policy', `${rule.limit};w=${rule.windowSeconds}`);
  res.setHeader('RateLimit', `limit=${rule.limit}, remaining=${remaining}, reset=${resetSeconds}`);
  res.setHeader('RateLimit-Limit', String(rule.limit));
  res.setHeader('RateLimit-Remaining', String(remaining));
  res.setHeader('RateLimit-Reset', String(resetSeconds));
}

/**
 * 429 `{ success: false, message }` with Retry-After once a key has made `perKeyPerMinute`
 * calls in the minute, or an address `keylessPerIpPerMinute` calls without a key; every answer
 * carries the RateLimit headers. Mount after the route manifest's gate and before forwarding.
 *
 * The key is counted under the SHA-256 of its text (the Throttle hashes that again into the
 * Redis key), so neither the key nor anything that reveals it is stored in Redis. A caller
 * rotating made-up keys is not slowed by the per-key count; the service answers each with a
 * 401 from one indexed look-up of the key's hash.
 *
 * While Redis is away this throttle lets calls through (and logs it), unlike the login, reset
 * and purchase throttles, which answer 503: those guard passwords and inventory, where an
 * uncounted attempt is the harm; this one only guards capacity, the service still checks every
 * key, and a vendor's call refused here is a prospect's call-back lost or delayed.
 */
export function vendorWebhookThrottle(
  throttle: Throttle,
  limits: { perKeyPerMinute: number; keylessPerIpPerMinute?: number } = { perKeyPerMinute: VENDOR_CALLS_PER_KEY.limit },
): RequestHandler {
  const count = vendorCallCounter(throttle, limits);
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!isVendorKeyRoute(req)) return next();
    if (await count(req, res)) next();
  };
}

/**
 * Counts one vendor call (the throttle above, for the vendor calls' edge path too): true when
 * it may go on, false when it was answered 429.
 */
export function vendorCallCounter(
  throttle: Throttle,
  limits: { perKeyPerMinute: number; keylessPerIpPerMinute?: number } = { perKeyPerMinute: VENDOR_CALLS_PER_KEY.limit },
): (req: Request, res: Response) => Promise<boolean> {
  const perKey: ThrottleRule = { ...VENDOR_CALLS_PER_KEY, limit: limits.perKeyPerMinute };
  const keyless: ThrottleRule = { ...VENDOR_KEYLESS_CALLS_PER_IP, limit: limits.keylessPerIpPerMinute ?? VENDOR_KEYLESS_CALLS_PER_IP.limit };
  // The SHA-256 of the last keys seen: a vendor sends the same key call after call.
  const digests = new Map<string, string>();
  const digestOf = (key: string): string => {
    let digest = digests.get(key);
    if (digest === undefined) {
      if (digests.size >= 1000) digests.clear();
      digest = createHash('sha256').update(key).digest('hex');
      digests.set(key, digest);
    }
    return digest;
  };
  return async (req: Request, res: Response) => {
    const key = presentedVendorKey(req.headers);
    const hit: [ThrottleRule, string] = key === undefined ? [keyless, originOf(req).ip] : [perKey, digestOf(key)];
    let counted: { count: number; resetSeconds: number };
    try {
      counted = await throttle.count(...hit);
    } catch (err) {
      // Fail open (see above): the call goes on uncounted, and without RateLimit headers.
      req.log.warn({ err, rule: hit[0].name }, 'vendor webhook throttle unavailable; call let through uncounted');
      return true;
    }
    setRateLimitHeaders(res, hit[0], counted.count, counted.resetSeconds);
    if (counted.count > hit[0].limit) {
      sendWebhookAnswer(res, 429, VENDOR_THROTTLED_MESSAGE, counted.resetSeconds);
      return false;
    }
    return true;
  };
}
