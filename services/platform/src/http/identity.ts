import { createHmac, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors';

/**
 * The identity the gateway vouches for when it forwards a request to an internal service:
 * a short-lived, HMAC-signed token in one header. Internal services trust nothing else
 * (docs/adr/0001-identity-forwarding.md).
 */
export const IDENTITY_HEADER = 'x-warmline-identity';
export const IDENTITY_TTL_SECONDS = 30;

/**
 * Who the gateway says is asking. A visitor without a session is forwarded too (public
 * pages such as checkouts call internal services), with `userId: null`.
 */
export interface Identity {
  userId: string | null;
  username: string | null;
  isAdmin: boolean;
  /**
   * An admin viewing this user's dashboard (view-as, docs/adr/0014): the gateway already refuses
   * every write, and a service refuses them again (requireForwardedIdentity).
   */
  readOnly?: true;
}

export const ANONYMOUS: Identity = { userId: null, username: null, isAdmin: false };

interface SignedIdentity extends Identity {
  exp: number;
}

export function signIdentity(secret: string, identity: Identity, now = Date.now()): string {
  const body: SignedIdentity = { ...identity, exp: Math.floor(now / 1000) + IDENTITY_TTL_SECONDS };
  const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
  return `${payload}.${mac(secret, payload)}`;
}

/** The identity in a token, or null when it is malformed, forged or expired. */
export function verifyIdentity(secret: string, token: string | undefined, now = Date.now()): Identity | null {
  if (!token) return null;
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SignedIdentity;
    if (typeof body.exp !== 'number' || body.exp * 1000 < now) return null;
    if (typeof body.isAdmin !== 'boolean') return null;
    if (body.userId === null) return ANONYMOUS;
    // A service acting for a user (orders asking the gateway for a buyer's address) may not know
    // the username: null is allowed there, any other non-string is not.
    if (typeof body.userId !== 'string' || (typeof body.username !== 'string' && body.username !== null)) return null;
    return { userId: body.userId, username: body.username, isAdmin: body.isAdmin, ...(body.readOnly === true ? { readOnly: true as const } : {}) };
  } catch {
    return null;
  }
}

function mac(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

declare module 'express-serve-static-core' {
  interface Request {
    identity?: Identity;
  }
}

/**
 * For internal services: every /api request must carry a valid identity from the gateway.
 * Routes that are public to users (a webhook) are still reached through the gateway, which
 * signs a service identity for them.
 */
export function requireForwardedIdentity(secret: string) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const identity = verifyIdentity(secret, req.header(IDENTITY_HEADER));
    if (!identity) throw new AppError('Unauthorized', 'Missing or invalid forwarded identity', 401);
    // Defence in depth: the gateway refuses writes while an admin views as a user; so does every service.
    if (identity.readOnly && req.method !== 'GET' && req.method !== 'HEAD') throw new AppError('Forbidden', 'Read only while viewing as this user', 403);
    req.identity = identity;
    next();
  };
}

/** A logged-in user (any role) is required. */
export function requireUserIdentity(req: Request, _res: Response, next: NextFunction) {
  if (!req.identity?.userId) throw new AppError('Unauthorized', 'Not authenticated', 401);
  next();
}

export function requireAdminIdentity(req: Request, _res: Response, next: NextFunction) {
  if (!req.identity?.userId) throw new AppError('Unauthorized', 'Not authenticated', 401);
  if (!req.identity.isAdmin) throw new AppError('Forbidden', 'Admin access required', 403);
  next();
}
