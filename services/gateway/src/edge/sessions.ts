import type { NextFunction, Request, RequestHandler, Response } from 'express';
import session from 'express-session';
import { RedisStore } from 'connect-redis';
import { execMulti, type Pool, type Redis } from '@warmline/platform';
import { findAccount, type UserRecord } from '../domain/users';
import type { SessionTerminator } from '../domain/context';

const SESSION_COOKIE = 'warmline.sid';
/**
 * The production name: a `__Host-` cookie is only accepted by browsers when Secure, on path /
 * and without a Domain, so a sibling subdomain or a plain-http page cannot plant or overwrite it.
 */
const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

declare module 'express-session' {
  interface SessionData {
    userId: string;
    /** Epoch ms of the login that opened this session, for the absolute expiry. */
    loginAt: number;
    /**
     * A password that was right, waiting for the second factor (a code, or a first enrolment
     * when it is required): not a login yet, so no userId and nothing a user may do.
     */
    pendingLogin: PendingLogin;
  }
}

export interface PendingLogin {
  userId: string;
  /** Epoch ms; the second step must come within PENDING_LOGIN_MS. */
  startedAt: number;
  /** The user must enrol a second factor before the login completes (admins in production). */
  mustEnrol: boolean;
}

/** How long a right password waits for its second factor. */
export const PENDING_LOGIN_MS = 10 * 60_000;

/** The signed-in user of a request, as loaded from the database (never the password hash). */
export type CurrentUser = Omit<UserRecord, 'passwordHash'>;

declare module 'express-serve-static-core' {
  interface Request {
    user?: CurrentUser;
  }
}

export interface SessionSettings {
  secret: string;
  redisPrefix: string;
  idleMinutes: number;
  absoluteHours: number;
  /**
   * Production: the cookie is Secure always and named SECURE_SESSION_COOKIE, so it is never sent
   * over plain http (behind a TLS proxy, TRUST_PROXY lets the gateway see the https). Elsewhere
   * it is Secure whenever the request came over https, so `make start` works on plain http.
   */
  secureCookie: boolean;
}

/**
 * Sessions live in Redis under `<prefix>sess:<id>`. Each user also has a set
 * `<prefix>user-sessions:<userId>` of their session ids, so that a password reset, an admin
 * password change or a deletion can end every session of that user at once.
 *
 * While Redis is away, a request that needs its session (any request carrying the cookie,
 * login, logout) fails fast with a 503: the client has no offline queue and a command
 * timeout. Once Redis is back, sessions work again by themselves.
 */
export class Sessions implements SessionTerminator {
  readonly middleware: RequestHandler;
  readonly cookieName: string;
  private readonly sessionPrefix: string;

  constructor(
    private readonly redis: Redis,
    private readonly settings: SessionSettings,
  ) {
    this.sessionPrefix = `${settings.redisPrefix}sess:`;
    this.cookieName = settings.secureCookie ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
    this.middleware = session({
      name: this.cookieName,
      secret: settings.secret,
      store: new RedisStore({ client: redis, prefix: this.sessionPrefix }),
      resave: false,
      saveUninitialized: false,
      // Every answer pushes the idle expiry forward (cookie maxAge and the Redis TTL).
      rolling: true,
      unset: 'destroy',
      cookie: {
        httpOnly: true,
        sameSite: 'lax',
        secure: settings.secureCookie ? true : 'auto',
        path: '/',
        maxAge: settings.idleMinutes * 60_000,
      },
    });
  }

  /** Logs the user in on a brand-new session id (no session fixation). */
  async start(req: Request, userId: string): Promise<void> {
    await new Promise<void>((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())));
    req.session.userId = userId;
    req.session.loginAt = Date.now();
    await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
    const key = this.userKey(userId);
    await execMulti(
      this.redis,
      this.redis
        .multi()
        .sAdd(key, req.sessionID)
        .expire(key, Math.ceil(this.settings.absoluteHours * 3600)),
    );
  }

  /**
   * The password was right and a second factor is due: a brand-new session id that holds
   * only the pending login (no fixation, and no user until the second step completes).
   */
  async startPending(req: Request, pending: Omit<PendingLogin, 'startedAt'>): Promise<void> {
    await new Promise<void>((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())));
    req.session.pendingLogin = { ...pending, startedAt: Date.now() };
    await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
  }

  /** Ends the request's session and clears its cookie. */
  async end(req: Request, res: Response): Promise<void> {
    const userId = req.session?.userId;
    const sessionId = req.sessionID;
    if (req.session) {
      await new Promise<void>((resolve, reject) => req.session.destroy((err) => (err ? reject(err) : resolve())));
    }
    if (userId && sessionId) await this.redis.sRem(this.userKey(userId), sessionId);
    res.clearCookie(this.cookieName, { path: '/', httpOnly: true, sameSite: 'lax', secure: this.settings.secureCookie || req.secure });
  }

  async endAllSessions(userId: string, options: { exceptSessionId?: string } = {}): Promise<void> {
    const key = this.userKey(userId);
    const ids = (await this.redis.sMembers(key)).filter((id) => id !== options.exceptSessionId);
    if (ids.length === 0) return;
    await execMulti(
      this.redis,
      this.redis
        .multi()
        .del(ids.map((id) => this.sessionPrefix + id))
        .sRem(key, ids),
    );
  }

  /**
   * Puts the signed-in user on `req.user`. A session past its absolute lifetime, or whose
   * user no longer exists, is ended and the request continues as anonymous.
   */
  loadUser(pool: Pool): RequestHandler {
    const absoluteMs = this.settings.absoluteHours * 3_600_000;
    return async (req: Request, res: Response, next: NextFunction) => {
      const { userId, loginAt } = req.session ?? {};
      if (!userId) return next();
      if (typeof loginAt !== 'number' || Date.now() - loginAt > absoluteMs) {
        await this.end(req, res);
        return next();
      }
      const user = await findAccount(pool, userId);
      if (!user) {
        await this.end(req, res);
        return next();
      }
      const { passwordHash: _hidden, ...current } = user;
      req.user = current;
      next();
    };
  }

  private userKey(userId: string): string {
    return `${this.settings.redisPrefix}user-sessions:${userId}`;
  }
}
