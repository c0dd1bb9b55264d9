import type { Queryable } from '@warmline/platform/db/index';

/**
 * The transfers service's copies of the vendor keys (ingestion's, their SHA-256 only) and of the
 * suppression list (the catalog's), written by vendor_key.mirror and suppression.mirror and read
 * by routing in its own transaction (docs/adr/0031).
 */

/** The channel on which a revoked key's id is announced, so every process forgets it (docs/adr/0051). */
export const VENDOR_KEY_REVOKED_CHANNEL = 'transfers_vendor_key_revoked';

/**
 * Creates or updates a key's copy. A revocation is never undone: a revoke that arrives before its
 * create (or a create redelivered after it) leaves the key revoked. A revoked copy is announced
 * in the same statement (delivered as the transaction commits, never if it rolls back).
 */
export async function upsertVendorKey(
  db: Queryable,
  key: { id: string; name: string; keyHash: string; createdAt: Date; revokedAt: Date | null },
): Promise<void> {
  await db.query(
    `WITH copy AS (
       INSERT INTO vendor_keys (id, name, key_hash, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name,
         revoked_at = LEAST(vendor_keys.revoked_at, EXCLUDED.revoked_at)
       RETURNING revoked_at)
     SELECT pg_notify($6, $1::text) FROM copy WHERE revoked_at IS NOT NULL`,
    [key.id, key.name, key.keyHash, key.createdAt, key.revokedAt, VENDOR_KEY_REVOKED_CHANNEL],
  );
}

/** The unrevoked key with this SHA-256, or null (one indexed look-up). */
export async function activeVendorKeyId(db: Queryable, keyHash: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM vendor_keys WHERE key_hash = $1 AND revoked_at IS NULL', [keyHash]);
  return rows[0]?.id ?? null;
}

/**
 * Puts a phone on (or takes it off) the copy of the list; the newest change wins whatever order
 * the changes arrive in, and at the same instant a suppression wins (the safe side).
 */
export async function applySuppression(db: Queryable, change: { phone: string; suppressed: boolean; at: Date }): Promise<{ applied: boolean }> {
  const { rowCount } = await db.query(
    `INSERT INTO suppressed_phones (phone, suppressed, changed_at) VALUES ($1, $2, $3)
     ON CONFLICT (phone) DO UPDATE SET suppressed = EXCLUDED.suppressed, changed_at = EXCLUDED.changed_at
     WHERE suppressed_phones.changed_at < EXCLUDED.changed_at
        OR (suppressed_phones.changed_at = EXCLUDED.changed_at AND EXCLUDED.suppressed)`,
    [change.phone, change.suppressed, change.at],
  );
  // Applied: this change is now the copy's state (older or repeated changes leave it as it was).
  return { applied: (rowCount ?? 0) > 0 };
}

/** When the phone opted out, if the copy says it is suppressed now. */
export async function suppressedSince(db: Queryable, phone: string): Promise<Date | null> {
  const { rows } = await db.query<{ changed_at: Date }>('SELECT changed_at FROM suppressed_phones WHERE phone = $1 AND suppressed', [phone]);
  return rows[0]?.changed_at ?? null;
}
