import { z } from 'zod';
import type { Logger } from '../log';
import { listenForNotifications } from './notifications';

/**
 * The vendor keys this process has recently found active, by their SHA-256 (issue 27,
 * docs/adr/0051): a vendor sends the same key call after call, and looking it up each time was a
 * round trip to PostgreSQL a call. A key is believed for `ttlMs` at most; a revocation evicts it at
 * once here and, through PostgreSQL's NOTIFY, in every other process (`keepVendorKeys`), so the TTL
 * only bounds what a process that missed the message believes. Unknown and revoked keys are never
 * kept: a key created a moment ago works at once, and a made-up key is always looked up. Both
 * services that take the vendor's keys keep them so: ingestion (its own keys) and transfers (its
 * copies of them).
 */
/**
 * The setting of every service that keeps vendor keys: how long a key found active is believed
 * without looking again, the bound on a revocation reaching a process that missed its
 * announcement. 0: every call looks.
 */
export const vendorKeyCacheEnv = {
  VENDOR_KEY_CACHE_SECONDS: z.coerce.number().min(0).max(60).default(5),
};

export class VendorKeyCache<V extends { id: string }> {
  private readonly keys = new Map<string, { vendor: V; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(keyHash: string): V | undefined {
    const kept = this.keys.get(keyHash);
    if (!kept) return undefined;
    if (kept.until > this.now()) return kept.vendor;
    this.keys.delete(keyHash);
    return undefined;
  }

  put(keyHash: string, vendor: V): void {
    if (this.ttlMs <= 0) return;
    // Bounded: a vendor has a key or two; far more means keys churn, and the next calls look them up.
    if (this.keys.size >= 1000) this.keys.clear();
    this.keys.set(keyHash, { vendor, until: this.now() + this.ttlMs });
  }

  /** Forgets one key, by its id (a revocation). */
  evict(vendorKeyId: string): void {
    for (const [hash, kept] of this.keys) if (kept.vendor.id === vendorKeyId) this.keys.delete(hash);
  }

  /** Forgets every key (the revocation messages may have been missed). */
  clear(): void {
    this.keys.clear();
  }
}

/**
 * A VendorKeyCache that every process's revocations reach: a LISTEN on `channel` (a connection of
 * its own, counted in the README's connection budget) evicts a key as its revocation commits
 * anywhere; while the listener is away the TTL bounds what is believed, and on (re)connecting the
 * cache is emptied, since announcements sent meanwhile were missed. Revokers announce with
 * `pg_notify(channel, id)` in the revoking transaction.
 */
export function keepVendorKeys<V extends { id: string }>(options: {
  databaseUrl: string;
  channel: string;
  ttlMs: number;
  log: Logger;
}): { cache: VendorKeyCache<V>; stop: () => Promise<void> } {
  const cache = new VendorKeyCache<V>(options.ttlMs);
  const stop = listenForNotifications({
    databaseUrl: options.databaseUrl,
    channel: options.channel,
    log: options.log,
    onNotification: (id) => cache.evict(id),
    onListening: () => cache.clear(),
  });
  return { cache, stop };
}
