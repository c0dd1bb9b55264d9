import { createHash, randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { readOnlyMessage, VIEW_AS_ENDED_HEADER, VIEW_AS_ENDED_MESSAGE, VIEW_AS_HEADER } from '@warmline/contracts';
import { execMulti, forbidden, unauthorized, type Pool, type Redis } from '@warmline/platform';
import { findAccount } from '../domain/users';
import type { ViewAsGrantRecord, ViewAsGrantStore } from '../domain/view-as';
import type { CurrentUser } from './sessions';

/**
 * View-as at the door (issue 12, docs/adr/0014-view-as.md). An admin's grant lets one browser tab
 * — the one that carries its token in the X-View-As header — see the site as an agent, read
 * only. The grant is bound to the admin and to the admin's session: the token alone, without
 * that session's cookie, is worth nothing, and a request without the header is the admin's.
 */

/** What a request being viewed carries, for the routes that answer differently (current-user, DELETE view-as). */
interface ViewAsRequest {
  token: string;
  grant: ViewAsGrantRecord;
  /** The admin whose session sends the request. */
  admin: CurrentUser;
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set when the request carries a valid view-as grant; `req.user` is then the viewed agent. */
    viewAs?: ViewAsRequest;
  }
}

/**
 * An expired grant stays in Redis this much longer, so the first request after its end can
 * record the end in the audit log (once: the key is taken with GETDEL).
 */
const KEEP_AFTER_EXPIRY_MS = 60 * 60_000;

/** Grants in Redis: `<prefix>view-as:<hash of token>`, and each session's set of them for logout. */
export class ViewAsGrants implements ViewAsGrantStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** How long a grant lasts (VIEW_AS_SECONDS). */
    readonly lifetimeMs: number,
  ) {}

  /** Stores a new grant; the token goes to the admin once, only its hash is kept. */
  async create(grant: Omit<ViewAsGrantRecord, 'startedAt' | 'expiresAt'>, now = Date.now()): Promise<{ token: string; record: ViewAsGrantRecord }> {
    const token = randomBytes(32).toString('base64url');
    const record: ViewAsGrantRecord = { ...grant, startedAt: now, expiresAt: now + this.lifetimeMs };
    const keepMs = this.lifetimeMs + KEEP_AFTER_EXPIRY_MS;
    const sessionKey = this.sessionKey(grant.sessionId);
    await execMulti(
      this.redis,
      this.redis
        .multi()
        .set(this.grantKey(token), JSON.stringify(record), { expiration: { type: 'PX', value: keepMs } })
        .sAdd(sessionKey, hashOf(token))
        .pExpire(sessionKey, keepMs),
    );
    return { token, record };
  }

  async find(token: string): Promise<ViewAsGrantRecord | null> {
    return parseGrant(await this.redis.get(this.grantKey(token)));
  }

  /** Takes the grant away; answers it only to the one caller that removed it (so its end is recorded once). */
  async remove(token: string): Promise<ViewAsGrantRecord | null> {
    const grant = parseGrant(await this.redis.getDel(this.grantKey(token)));
    if (grant) await this.redis.sRem(this.sessionKey(grant.sessionId), hashOf(token));
    return grant;
  }

  /** Takes away every grant of an admin's session (logout), answering those still running. */
  async removeAllOfSession(sessionId: string, now = Date.now()): Promise<ViewAsGrantRecord[]> {
    const sessionKey = this.sessionKey(sessionId);
    const hashes = await this.redis.sMembers(sessionKey);
    if (hashes.length === 0) return [];
    const multi = this.redis.multi();
    for (const hash of hashes) multi.getDel(`${this.prefix}view-as:${hash}`);
    multi.del(sessionKey);
    const replies = await execMulti(this.redis, multi);
    return replies
      .slice(0, hashes.length)
      .map((reply) => parseGrant(typeof reply === 'string' ? reply : null))
      .filter((grant): grant is ViewAsGrantRecord => grant !== null && grant.expiresAt > now);
  }

  private grantKey(token: string): string {
    return `${this.prefix}view-as:${hashOf(token)}`;
  }

  private sessionKey(sessionId: string): string {
    return `${this.prefix}view-as-session:${hashOf(sessionId)}`;
  }
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function parseGrant(raw: string | null): ViewAsGrantRecord | null {
  if (!raw) return null;
  try {
    return JSON.parse(raw) as ViewAsGrantRecord;
  } catch {
    return null;
  }
}

/** The one route a viewing tab may write to: ending its own viewing. */
const VIEW_AS_PATH = '/api/admin/view-as';
const SAFE_METHODS = new Set(['GET', 'HEAD']);
/** GET routes that change something all the same: never reached from a viewing tab. */
const GETS_THAT_WRITE = new Set(['/api/logout']);
/** A token as create() makes them; anything else is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export interface ViewAsGateOptions {
  grants: ViewAsGrants;
  pool: Pool;
  /** Records the end of a grant found expired (view_as.ended in the audit log). */
  onExpired(grant: ViewAsGrantRecord): Promise<void>;
}

/**
 * For every /api request, after the session's user is loaded and before CSRF, the route
 * manifest's role check and forwarding: a request with X-View-As and a live grant of this admin
 * session becomes the viewed agent's (so every check after it, the gateway's own routes and the
 * identity forwarded to services are the agent's, marked read only); any write is refused here.
 * A request without the header is left as it is.
 */
export function viewAsGate(options: ViewAsGateOptions) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    // A cache must never answer one tab with what it kept for the other.
    res.vary(VIEW_AS_HEADER);
    const token = req.get(VIEW_AS_HEADER);
    if (token === undefined) return next();
    const path = req.originalUrl.split('?')[0]?.replace(/\/+$/, '') ?? '';

    const ended = (): never => {
      res.setHeader(VIEW_AS_ENDED_HEADER, '1');
      throw unauthorized(VIEW_AS_ENDED_MESSAGE);
    };
    const admin = req.user;
    if (!admin?.isAdmin || !TOKEN.test(token)) return ended();
    const grant = await options.grants.find(token);
    if (!grant || grant.sessionId !== req.sessionID || grant.adminId !== admin.id) return ended();

    // Ending the viewing is the admin's own act, allowed even when the grant has just run out.
    if (path === VIEW_AS_PATH && req.method === 'DELETE') {
      req.viewAs = { token, grant, admin };
      return next();
    }
    if (grant.expiresAt <= Date.now()) {
      const taken = await options.grants.remove(token);
      if (taken) await options.onExpired(taken);
      return ended();
    }
    if (!SAFE_METHODS.has(req.method) || GETS_THAT_WRITE.has(path)) throw forbidden(readOnlyMessage(grant.userName));

    const viewed = await findAccount(options.pool, grant.userId);
    if (!viewed) {
      // The agent was deleted meanwhile: nothing left to view.
      await options.grants.remove(token);
      return ended();
    }
    const { passwordHash: _hidden, ...agent } = viewed;
    req.user = { ...agent, isAdmin: false };
    req.viewAs = { token, grant, admin };
    next();
  };
}
