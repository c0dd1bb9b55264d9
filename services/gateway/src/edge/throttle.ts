import { createHash } from 'node:crypto';
import { execMulti, tooManyRequests, type Redis } from '@warmline/platform';

/** A limit of `limit` counted attempts per subject (a username, an e-mail, an IP) per window. */
export interface ThrottleRule {
  name: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Login: every attempt is counted before the password is checked (so parallel guesses cannot
 * all pass a check made before any of them is recorded); a success clears the username's count
 * and gives its attempt back to the address, so only failures use up the limits (ARCHITECTURE §5).
 */
export const LOGIN_FAILURES_PER_USERNAME: ThrottleRule = { name: 'login-user', limit: 5, windowSeconds: 15 * 60 };
export const LOGIN_FAILURES_PER_IP: ThrottleRule = { name: 'login-ip', limit: 20, windowSeconds: 15 * 60 };
/** Forgot password: every request counts, whether or not the address has an account. */
export const RESET_REQUESTS_PER_EMAIL: ThrottleRule = { name: 'reset-email', limit: 5, windowSeconds: 60 * 60 };
export const RESET_REQUESTS_PER_IP: ThrottleRule = { name: 'reset-ip', limit: 20, windowSeconds: 15 * 60 };
/** Reset links checked or used: every attempt counts (a real user needs two: the check, the reset). */
export const RESET_ATTEMPTS_PER_IP: ThrottleRule = { name: 'reset-attempt-ip', limit: 20, windowSeconds: 15 * 60 };

export type ThrottleHit = [rule: ThrottleRule, subject: string];

const REFUND_SCRIPT = "local n = redis.call('GET', KEYS[1]) if n and tonumber(n) > 0 then return redis.call('DECR', KEYS[1]) end return 0";

/**
 * Fixed-window counters in Redis, shared by every gateway instance. Subjects are hashed so
 * e-mail addresses and usernames do not sit in Redis keys in clear. While Redis is away every
 * method fails at once with an error the HTTP kit answers with a 503: a throttle that cannot
 * count does not let attempts through uncounted.
 */
export class Throttle {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Throws 429 (with the seconds until the window ends) when any subject is at its limit. */
  async assertAllowed(hits: ThrottleHit[], message: (minutes: number) => string): Promise<void> {
    for (const [rule, subject] of hits) {
      const key = this.key(rule, subject);
      const count = Number((await this.redis.get(key)) ?? 0);
      if (count >= rule.limit) await this.refuse(key, rule, message);
    }
  }

  /** Counts one attempt against every subject. */
  async record(hits: ThrottleHit[]): Promise<void> {
    const multi = this.redis.multi();
    for (const [rule, subject] of hits) {
      const key = this.key(rule, subject);
      multi.incr(key);
      // The window starts at the first attempt; later attempts do not extend it.
      multi.expire(key, rule.windowSeconds, 'NX');
    }
    await execMulti(this.redis, multi);
  }

  /**
   * Counts the attempt and refuses it if that took any subject over its limit, in one round
   * trip: INCR answers each new count atomically, so of N attempts racing for the last places
   * exactly the ones that fit get through (a check followed later by a record lets them all in).
   */
  async consume(hits: ThrottleHit[], message: (minutes: number) => string): Promise<void> {
    const multi = this.redis.multi();
    for (const [rule, subject] of hits) {
      const key = this.key(rule, subject);
      multi.incr(key);
      multi.expire(key, rule.windowSeconds, 'NX');
    }
    const replies = await execMulti(this.redis, multi);
    for (const [i, [rule, subject]] of hits.entries()) {
      if (Number(replies[i * 2]) > rule.limit) await this.refuse(this.key(rule, subject), rule, message);
    }
  }

  /**
   * Counts one attempt against one subject and says where it stands, in one round trip: the
   * count so far in the window and the seconds until the window ends. The caller decides what
   * to answer (the vendor webhook tells every caller its `RateLimit` in headers).
   */
  async count(rule: ThrottleRule, subject: string): Promise<{ count: number; resetSeconds: number }> {
    const key = this.key(rule, subject);
    const multi = this.redis.multi();
    multi.incr(key);
    multi.expire(key, rule.windowSeconds, 'NX');
    multi.ttl(key);
    const replies = await execMulti(this.redis, multi);
    const ttl = Number(replies[2]);
    return { count: Number(replies[0]), resetSeconds: ttl > 0 ? ttl : rule.windowSeconds };
  }

  /** Gives back one counted attempt (a login that succeeded was not a failure). */
  async refund(rule: ThrottleRule, subject: string): Promise<void> {
    const key = this.key(rule, subject);
    // Never below zero: the window may have ended and the key gone since the attempt was counted.
    await this.redis.eval(REFUND_SCRIPT, { keys: [key] });
  }

  async clear(rule: ThrottleRule, subject: string): Promise<void> {
    await this.redis.del(this.key(rule, subject));
  }

  private async refuse(key: string, rule: ThrottleRule, message: (minutes: number) => string): Promise<never> {
    const ttl = await this.redis.ttl(key);
    const seconds = ttl > 0 ? ttl : rule.windowSeconds;
    throw tooManyRequests(message(Math.ceil(seconds / 60)), seconds);
  }

  private key(rule: ThrottleRule, subject: string): string {
    const digest = createHash('sha256').update(subject.toLowerCase()).digest('hex').slice(0, 32);
    return `${this.prefix}throttle:${rule.name}:${digest}`;
  }
}
