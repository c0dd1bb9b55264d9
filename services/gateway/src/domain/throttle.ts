import { createHash } from 'node:crypto';
import { tooManyRequests, type Redis } from '@warmline/platform';

/** A limit of `limit` counted attempts per subject (a username, an e-mail, an IP) per window. */
export interface ThrottleRule {
  name: string;
  limit: number;
  windowSeconds: number;
}

/** Login: failed attempts count; a success clears the username's count (ARCHITECTURE §5). */
export const LOGIN_FAILURES_PER_USERNAME: ThrottleRule = { name: 'login-user', limit: 5, windowSeconds: 15 * 60 };
export const LOGIN_FAILURES_PER_IP: ThrottleRule = { name: 'login-ip', limit: 20, windowSeconds: 15 * 60 };
/** Forgot password: every request counts, whether or not the address has an account. */
export const RESET_REQUESTS_PER_EMAIL: ThrottleRule = { name: 'reset-email', limit: 5, windowSeconds: 60 * 60 };
export const RESET_REQUESTS_PER_IP: ThrottleRule = { name: 'reset-ip', limit: 20, windowSeconds: 15 * 60 };

export type ThrottleHit = [rule: ThrottleRule, subject: string];

/**
 * Fixed-window counters in Redis, shared by every gateway instance. Subjects are hashed so
 * e-mail addresses and usernames do not sit in Redis keys in clear.
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
    await multi.exec();
  }

  /** Counts the attempt, then refuses it if it went over a limit. */
  async consume(hits: ThrottleHit[], message: (minutes: number) => string): Promise<void> {
    await this.record(hits);
    for (const [rule, subject] of hits) {
      const key = this.key(rule, subject);
      const count = Number((await this.redis.get(key)) ?? 0);
      if (count > rule.limit) await this.refuse(key, rule, message);
    }
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
