import { sign, verify, type KeyObject } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors';
import { ANONYMOUS, type Identity } from '../identity';
import { privateKeyOf, publicKeyOf, servicePublicKeysOf } from '../keys';

/**
 * The identity the gateway vouches for when it forwards a request to an internal service: a
 * short-lived token in one header, signed with the gateway's Ed25519 key and addressed to one
 * service. Internal services hold only the gateway's public key, so none of them can sign an
 * identity another accepts (docs/adr/0001-identity-forwarding.md, docs/adr/0042).
 *
 * A service calling another carries its own credential instead, in another header: a token
 * signed with that service's own key, naming it and the service it is for. A route accepts a
 * service call only when it names the caller (acceptServiceCallers); it is never an admin.
 */
export const IDENTITY_HEADER = 'x-warmline-identity';
export const SERVICE_CALL_HEADER = 'x-warmline-service';
export const IDENTITY_TTL_SECONDS = 30;

/** The services that call others with their own credential. */
export type ServiceCaller = 'catalog' | 'orders' | 'transfers';

/** A service call as its receiver sees it: who calls, and which user it acts for (never an admin). */
interface ServiceCall {
  caller: string;
  actingFor: { userId: string; username: string | null } | null;
}

/** What an internal service checks an identity or a service call against. */
export interface IdentityCheck {
  /** This service's name: a token addressed to another service is refused. */
  audience: string;
  gatewayKey: KeyObject;
  /** The services that may call this one, each by its own public key. */
  callers: ReadonlyMap<string, KeyObject>;
}

/** The check of `audience` from its configuration (IDENTITY_PUBLIC_KEY, SERVICE_PUBLIC_KEYS). */
export function identityCheck(config: { IDENTITY_PUBLIC_KEY: string; SERVICE_PUBLIC_KEYS?: string }, audience: string): IdentityCheck {
  return { audience, gatewayKey: publicKeyOf(config.IDENTITY_PUBLIC_KEY), callers: servicePublicKeysOf(config.SERVICE_PUBLIC_KEYS ?? '') };
}

/** A service's own signing key, for the calls it makes. */
export interface ServiceSigner {
  service: ServiceCaller;
  key: KeyObject;
}

export function serviceSigner(service: ServiceCaller, privateKey: string): ServiceSigner {
  return { service, key: privateKeyOf(privateKey) };
}

// What each signature covers starts with its kind, so neither token can pass for the other.
const IDENTITY_KIND = 'warmline-identity';
const SERVICE_KIND = 'warmline-service-call';

/**
 * Tokens already signed or verified, a few hundred each (docs/adr/0051): an Ed25519 signature
 * and its check cost more CPU than the rest of a vendor's call in the gateway. The same claims
 * in the same second give the same token, so the gateway signs a vendor's anonymous identity
 * once a second per address, and the service checks each distinct token once; its expiry is
 * still checked on every use.
 */
const MEMO_ENTRIES = 512;
const signedMemo = new WeakMap<KeyObject, Map<string, string>>();
const verifiedMemo = new WeakMap<IdentityCheck, Map<string, { identity: Identity; exp: number }>>();

function memoOf<K extends object, V>(memos: WeakMap<K, Map<string, V>>, owner: K): Map<string, V> {
  let memo = memos.get(owner);
  if (!memo || memo.size >= MEMO_ENTRIES) {
    // Dropped whole when full: the next second's tokens are new ones anyway.
    memo = new Map();
    memos.set(owner, memo);
  }
  return memo;
}

/** The gateway signs `identity` for the service `audience` (its name, e.g. 'orders'). */
export function signIdentity(gatewayKey: KeyObject, audience: string, identity: Identity, now = Date.now()): string {
  const { userId, username, isAdmin, readOnly, clientIp } = identity;
  const claims = {
    aud: audience,
    exp: Math.floor(now / 1000) + IDENTITY_TTL_SECONDS,
    userId,
    username,
    isAdmin,
    ...(readOnly ? { readOnly } : {}),
    ...(clientIp ? { clientIp } : {}),
  };
  const memo = memoOf(signedMemo, gatewayKey);
  const text = JSON.stringify(claims);
  const known = memo.get(text);
  if (known !== undefined) return known;
  const token = signed(IDENTITY_KIND, gatewayKey, claims);
  memo.set(text, token);
  return token;
}

/** The identity in a token, or null when it is malformed, not the gateway's, for another service or expired. */
export function verifyIdentity(check: IdentityCheck, token: string | undefined, now = Date.now()): Identity | null {
  if (!token) return null;
  const known = verifiedMemo.get(check)?.get(token);
  if (known) return known.exp * 1000 >= now ? known.identity : null;
  const identity = verifiedIdentity(check, token, now);
  if (identity) memoOf(verifiedMemo, check).set(token, { identity, exp: peek(token)?.exp as number });
  return identity;
}

function verifiedIdentity(check: IdentityCheck, token: string, now: number): Identity | null {
  const body = opened(IDENTITY_KIND, check.gatewayKey, token);
  if (!body || body.aud !== check.audience || !fresh(body, now)) return null;
  if (typeof body.isAdmin !== 'boolean') return null;
  const clientIp = typeof body.clientIp === 'string' && body.clientIp.length <= 64 ? { clientIp: body.clientIp } : {};
  if (body.userId === null) return { ...ANONYMOUS, ...clientIp };
  if (typeof body.userId !== 'string' || (typeof body.username !== 'string' && body.username !== null)) return null;
  return { userId: body.userId, username: body.username, isAdmin: body.isAdmin, ...(body.readOnly === true ? { readOnly: true as const } : {}), ...clientIp };
}

/** A service's credential for one call to `audience`, acting for a user when the call concerns one. */
export function signServiceCall(
  signer: ServiceSigner,
  audience: string,
  actingFor: { userId: string | null; username: string | null } | null = null,
  now = Date.now(),
): string {
  return signed(SERVICE_KIND, signer.key, {
    iss: signer.service,
    aud: audience,
    exp: Math.floor(now / 1000) + IDENTITY_TTL_SECONDS,
    ...(actingFor?.userId ? { actingFor: { userId: actingFor.userId, username: actingFor.username } } : {}),
  });
}

/** The call in a token, or null when it is malformed, from a service this one does not know, for another service or expired. */
export function verifyServiceCall(check: IdentityCheck, token: string | undefined, now = Date.now()): ServiceCall | null {
  const claimed = peek(token);
  const key = typeof claimed?.iss === 'string' ? check.callers.get(claimed.iss) : undefined;
  if (!key) return null;
  const body = opened(SERVICE_KIND, key, token);
  if (!body || typeof body.iss !== 'string' || body.aud !== check.audience || !fresh(body, now)) return null;
  const acting = body.actingFor as { userId?: unknown; username?: unknown } | undefined;
  if (acting === undefined) return { caller: body.iss, actingFor: null };
  if (typeof acting?.userId !== 'string' || (typeof acting.username !== 'string' && acting.username !== null)) return null;
  return { caller: body.iss, actingFor: { userId: acting.userId, username: acting.username } };
}

type Claims = Record<string, unknown>;

function signed(kind: string, key: KeyObject, claims: Claims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${sign(null, Buffer.from(`${kind}.${payload}`), key).toString('base64url')}`;
}

function opened(kind: string, key: KeyObject, token: string | undefined): Claims | null {
  if (!token) return null;
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  try {
    if (!verify(null, Buffer.from(`${kind}.${payload}`), key, Buffer.from(signature, 'base64url'))) return null;
    return peek(token);
  } catch {
    return null;
  }
}

/** The claims of a token, unverified: only to pick the key that verifies it. */
function peek(token: string | undefined): Claims | null {
  try {
    const body: unknown = JSON.parse(Buffer.from(token?.split('.')[0] ?? '', 'base64url').toString('utf8'));
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Claims) : null;
  } catch {
    return null;
  }
}

function fresh(body: Claims, now: number): boolean {
  return typeof body.exp === 'number' && body.exp * 1000 >= now;
}

declare module 'express-serve-static-core' {
  interface Request {
    identity?: Identity;
    /** Set when a service, not the gateway, calls: the route must name it (acceptServiceCallers). */
    serviceCall?: ServiceCall & { accepted: boolean };
  }
}

/** Service calls reach only internal routes, which the gateway never forwards. */
const INTERNAL_PATH = /^\/(api\/)?internal\//;

/**
 * For internal services: every /api request must carry a valid identity from the gateway,
 * addressed to this service, or a service's own credential on an internal route (which then
 * counts as no one until the route accepts its caller). Routes that are public to users (a
 * webhook) are still reached through the gateway, which forwards them with the anonymous identity.
 */
export function requireForwardedIdentity(check: IdentityCheck) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const serviceToken = req.header(SERVICE_CALL_HEADER);
    if (serviceToken !== undefined && req.header(IDENTITY_HEADER) === undefined) {
      const call = verifyServiceCall(check, serviceToken);
      if (!call) throw new AppError('Unauthorized', 'Missing or invalid service credential', 401);
      if (!INTERNAL_PATH.test(req.originalUrl)) throw new AppError('Forbidden', `The ${call.caller} service may call internal routes only`, 403);
      req.serviceCall = { ...call, accepted: false };
      req.identity = ANONYMOUS;
      next();
      return;
    }
    const identity = verifyIdentity(check, req.header(IDENTITY_HEADER));
    if (!identity) throw new AppError('Unauthorized', 'Missing or invalid forwarded identity', 401);
    // Defence in depth: the gateway refuses writes while an admin views as a user; so does every service.
    if (identity.readOnly && req.method !== 'GET' && req.method !== 'HEAD') throw new AppError('Forbidden', 'Read only while viewing as this user', 403);
    req.identity = identity;
    next();
  };
}

/**
 * For a route that services call (after requireForwardedIdentity): only the named services, each
 * acting for the user its credential names (an ordinary user, never an admin); anyone else 403.
 */
export function acceptServiceCallers(...callers: ServiceCaller[]) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const call = req.serviceCall;
    if (!call) throw new AppError('Forbidden', `Only the ${callers.join(' or ')} service calls this route`, 403);
    if (!(callers as string[]).includes(call.caller)) throw new AppError('Forbidden', `This route does not accept calls from the ${call.caller} service`, 403);
    call.accepted = true;
    req.identity = call.actingFor ? { userId: call.actingFor.userId, username: call.actingFor.username, isAdmin: false } : ANONYMOUS;
    next();
  };
}

/** A service call on a route that did not name its caller. */
function refuseUnlistedService(req: Request): void {
  if (req.serviceCall && !req.serviceCall.accepted) throw new AppError('Forbidden', `This route does not accept calls from the ${req.serviceCall.caller} service`, 403);
}

/** A logged-in user (any role) is required. */
export function requireUserIdentity(req: Request, _res: Response, next: NextFunction) {
  refuseUnlistedService(req);
  if (!req.identity?.userId) throw new AppError('Unauthorized', 'Not authenticated', 401);
  next();
}

export function requireAdminIdentity(req: Request, _res: Response, next: NextFunction) {
  refuseUnlistedService(req);
  if (!req.identity?.userId) throw new AppError('Unauthorized', 'Not authenticated', 401);
  if (!req.identity.isAdmin) throw new AppError('Forbidden', 'Admin access required', 403);
  next();
}

/**
 * Who is asking an internal service, for its manifest routes (http/manifest-routes.ts): the
 * gateway's signed identity that requireForwardedIdentity verified.
 */
export function forwardedAsker(req: Request): Identity {
  return req.identity ?? ANONYMOUS;
}
