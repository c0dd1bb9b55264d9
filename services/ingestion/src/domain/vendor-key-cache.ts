import type { ActiveVendorKey } from '../db/vendor-keys';

/**
 * The vendor keys this process has recently found active, by their SHA-256 (issue 27,
 * docs/adr/0051): a vendor sends the same key call after call, and looking it up each time was a
 * round trip to PostgreSQL a call. A key is believed for `ttlMs` at most; a revocation evicts it at
 * once here and, through PostgreSQL's NOTIFY, in every other process (service.ts), so the TTL only
 * bounds what a process that missed the message believes. Unknown and revoked keys are never kept:
 * a key created a moment ago works at once, and a made-up key is always looked up.
 */
export class VendorKeyCache {
  private readonly keys = new Map<string, { vendor: ActiveVendorKey; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(keyHash: string): ActiveVendorKey | undefined {
    const kept = this.keys.get(keyHash);
    if (!kept) return undefined;
    if (kept.until > this.now()) return kept.vendor;
    this.keys.delete(keyHash);
    return undefined;
  }

  put(keyHash: string, vendor: ActiveVendorKey): void {
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
