import type { NextFunction, Request, RequestHandler, Response } from 'express';
import session from 'express-session';
import { RedisStore } from 'connect-redis';
import type { Pool, Redis } from '@warmline/platform';
import { findUserById, type UserRecord } from '../db/users';
import type { SessionTerminator } from '../domain/context';

export const SESSION_COOKIE = 'warmline.sid';

declare module 'express-session' {
  interface SessionData {
    userId: string;
    /** Epoch ms of the login that opened this session, for the absolute expiry. */
    loginAt: number;
  }
}

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
}

/**
 * Sessions live in Redis under `<prefix>sess:<id>`. Each user also has a set
 * `<prefix>user-sessions:<userId>` of their session ids, so that a password reset, an admin
 * password change or a deletion can end every session of that user at once.
 */
export class Sessions implements SessionTerminator {
  readonly middleware: RequestHandler;
  private readonly sessionPrefix: string;

  constructor(
    private readonly redis: Redis,
    private readonly settings: SessionSettings,
  ) {
    this.sessionPrefix = `${settings.redisPrefix}sess:`;
    this.middleware = session({
      name: SESSION_COOKIE,
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
        // Secure whenever the request came over https (directly or via a trusted proxy).
        secure: 'auto',
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
    await this.redis
      .multi()
      .sAdd(key, req.sessionID)
      .expire(key, Math.ceil(this.settings.absoluteHours * 3600))
      .exec();
  }

  /** Ends the request's session and clears its cookie. */
  async end(req: Request, res: Response): Promise<void> {
    const userId = req.session?.userId;
    const sessionId = req.sessionID;
    if (req.session) {
      await new Promise<void>((resolve, reject) => req.session.destroy((err) => (err ? reject(err) : resolve())));
    }
    if (userId && sessionId) await this.redis.sRem(this.userKey(userId), sessionId);
    res.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: req.secure });
  }

  async endAllSessions(userId: string, options: { exceptSessionId?: string } = {}): Promise<void> {
    const key = this.userKey(userId);
    const ids = (await this.redis.sMembers(key)).filter((id) => id !== options.exceptSessionId);
    if (ids.length === 0) return;
    await this.redis
      .multi()
      .del(ids.map((id) => this.sessionPrefix + id))
      .sRem(key, ids)
      .exec();
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
      const user = await findUserById(pool, userId);
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
