import type { Queryable } from '@warmline/platform/db/index';

/** Queries of the vendor_keys table (the admins' keys for voice-AI vendors). */

export interface VendorKeyRow {
  id: string;
  name: string;
  keyHint: string;
  createdAt: Date;
  createdBy: string | null;
  lastUsedAt: Date | null;
  callsReceived: number;
  revokedAt: Date | null;
}

/** A key as the webhook needs it: who the vendor is. */
export interface ActiveVendorKey {
  id: string;
  name: string;
  lastUsedAt: Date | null;
}

const COLUMNS = `
  k.id, k.name, k.key_hint AS "keyHint", k.created_at AS "createdAt", k.created_by AS "createdBy",
  greatest(k.last_used_at, (SELECT max(c.received_at) FROM vendor_calls c WHERE c.vendor_key_id = k.id)) AS "lastUsedAt",
  (SELECT count(*) FROM vendor_calls c WHERE c.vendor_key_id = k.id)::int AS "callsReceived",
  k.revoked_at AS "revokedAt"`;

export async function insertVendorKey(
  db: Queryable,
  row: { id: string; name: string; keyHash: string; keyHint: string; at: Date; createdById: string; createdBy: string },
): Promise<void> {
  await db.query(
    `INSERT INTO vendor_keys (id, name, key_hash, key_hint, created_at, created_by_id, created_by, mirrored_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $5)`,
    [row.id, row.name, row.keyHash, row.keyHint, row.at, row.createdById, row.createdBy],
  );
}

/** Every key, newest first, with what its calls say (calls received, last used). */
export async function listVendorKeys(db: Queryable): Promise<VendorKeyRow[]> {
  const { rows } = await db.query<VendorKeyRow>(`SELECT ${COLUMNS} FROM vendor_keys k ORDER BY k.created_at DESC, k.id DESC`);
  return rows;
}

export async function revokeVendorKey(db: Queryable, id: string, at: Date): Promise<void> {
  await db.query('UPDATE vendor_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [id, at]);
}

/** The unrevoked key with this hash, or null (one indexed look-up). */
export async function findActiveKeyByHash(db: Queryable, keyHash: string): Promise<ActiveVendorKey | null> {
  const { rows } = await db.query<ActiveVendorKey>(
    'SELECT id, name, last_used_at AS "lastUsedAt" FROM vendor_keys WHERE key_hash = $1 AND revoked_at IS NULL',
    [keyHash],
  );
  return rows[0] ?? null;
}

/** Moves last_used_at forward (never back). */
export async function touchVendorKey(db: Queryable, id: string, at: Date): Promise<void> {
  await db.query('UPDATE vendor_keys SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2)', [id, at]);
}

/** A key as the transfers service's copy holds it (vendor_key.mirror). */
export interface MirroredVendorKey {
  id: string;
  name: string;
  keyHash: string;
  createdAt: Date;
  revokedAt: Date | null;
}

/**
 * Keys made before their copies were sent (mirrored_at NULL), locked and marked sent: the
 * caller queues their vendor_key.mirror in the same transaction. SKIP LOCKED: two replicas
 * starting at once each send a key at most once between them.
 */
export async function claimUnmirroredKeys(db: Queryable, at: Date): Promise<MirroredVendorKey[]> {
  const { rows } = await db.query<MirroredVendorKey>(
    `WITH claimed AS (SELECT id FROM vendor_keys WHERE mirrored_at IS NULL ORDER BY created_at, id FOR UPDATE SKIP LOCKED)
     UPDATE vendor_keys k SET mirrored_at = $1 FROM claimed WHERE k.id = claimed.id
     RETURNING k.id, k.name, k.key_hash AS "keyHash", k.created_at AS "createdAt", k.revoked_at AS "revokedAt"`,
    [at],
  );
  return rows;
}

/** One key, locked for the rest of the transaction (a revoke), or undefined. */
export async function lockVendorKey(
  db: Queryable,
  id: string,
): Promise<{ name: string; keyHint: string; keyHash: string; createdAt: Date; revokedAt: Date | null } | undefined> {
  const { rows } = await db.query<{ name: string; keyHint: string; keyHash: string; createdAt: Date; revokedAt: Date | null }>(
    'SELECT name, key_hint AS "keyHint", key_hash AS "keyHash", created_at AS "createdAt", revoked_at AS "revokedAt" FROM vendor_keys WHERE id = $1 FOR UPDATE',
    [id],
  );
  return rows[0];
}

/** The channel on which a revoked key's id is announced, so every process forgets it at once. */
export const VENDOR_KEY_REVOKED_CHANNEL = 'ingestion_vendor_key_revoked';

/** Announces a revocation (delivered when the transaction commits, never if it rolls back). */
export async function announceRevokedKey(db: Queryable, id: string): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [VENDOR_KEY_REVOKED_CHANNEL, id]);
}
