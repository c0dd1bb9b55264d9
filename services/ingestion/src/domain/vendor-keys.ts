import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { VENDOR_KEY_PREFIX, type CreatedVendorKey, type VendorKey } from '@warmline/contracts';
import { enqueueAll, type OutgoingMessage } from '@warmline/platform/bus/index';
import { withTransaction, type Queryable } from '@warmline/platform/db/index';
import { notFound } from '@warmline/platform/errors';
import {
  claimUnmirroredKeys,
  announceRevokedKey,
  findActiveKeyByHash,
  insertVendorKey,
  listVendorKeys as listVendorKeyRows,
  lockVendorKey,
  revokeVendorKey as revokeVendorKeyRow,
  touchVendorKey,
  type ActiveVendorKey,
  type MirroredVendorKey,
  type VendorKeyRow,
} from '../db/vendor-keys';
import { recordAdminAction } from '@warmline/platform/bus/admin-audit';
import type { ActingAdmin } from '@warmline/platform/identity';
import { SOURCE, type IngestionContext } from './context';

/**
 * Vendor keys (issue 15, docs/adr/0019): an admin creates one per voice-AI vendor and sees it
 * once; only its SHA-256 is stored, so a stolen database holds no usable key. A key found active
 * is believed for a few seconds (VendorKeyCache); revoking one announces it, so every process
 * forgets it as the revocation commits and refuses its next call (docs/adr/0051).
 */

const VENDOR_KEY_NOT_FOUND = 'Vendor key not found';

/** 24 random bytes: 32 URL-safe characters after the prefix. */
function newKeyText(): string {
  return `${VENDOR_KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
}

function hashVendorKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

function view(row: VendorKeyRow): VendorKey {
  return {
    id: row.id,
    name: row.name,
    keyHint: row.keyHint,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    callsReceived: row.callsReceived,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

export async function createVendorKey(ctx: IngestionContext, admin: ActingAdmin, name: string, correlationId: string): Promise<CreatedVendorKey> {
  const id = randomUUID();
  const key = newKeyText();
  const keyHint = key.slice(0, VENDOR_KEY_PREFIX.length + 4);
  const at = ctx.clock();
  await withTransaction(ctx.pool, async (db) => {
    const keyHash = hashVendorKey(key);
    await insertVendorKey(db, { id, name, keyHash, keyHint, at, createdById: admin.userId, createdBy: admin.username });
    await enqueueAll(db, [mirrorMessage({ id, name, keyHash, createdAt: at, revokedAt: null }, correlationId)]);
    await recordAdminAction(db, {
      source: SOURCE,
      actor: admin,
      correlationId,
      subjectType: 'vendor_key',
      action: 'vendor_key.created',
      subjectId: id,
      subjectLabel: `${name} (${keyHint}…)`,
      before: null,
      after: { name, keyHint },
      at,
    });
  });
  return { id, name, key };
}

export async function listVendorKeys(ctx: IngestionContext): Promise<VendorKey[]> {
  return (await listVendorKeyRows(ctx.pool)).map(view);
}

/** Revokes the key at once; revoking a revoked key changes nothing (and is not audited again). */
export async function revokeVendorKey(ctx: IngestionContext, admin: ActingAdmin, id: string, correlationId: string): Promise<void> {
  const at = ctx.clock();
  await withTransaction(ctx.pool, async (db) => {
    const key = await lockVendorKey(db, id);
    if (!key) throw notFound(VENDOR_KEY_NOT_FOUND);
    if (key.revokedAt) return;
    await revokeVendorKeyRow(db, id, at);
    await announceRevokedKey(db, id);
    // The transfers service stops the key at its next call once its copy says so.
    await enqueueAll(db, [mirrorMessage({ id, name: key.name, keyHash: key.keyHash, createdAt: key.createdAt, revokedAt: at }, correlationId)]);
    await recordAdminAction(db, {
      source: SOURCE,
      actor: admin,
      correlationId,
      subjectType: 'vendor_key',
      action: 'vendor_key.revoked',
      subjectId: id,
      subjectLabel: `${key.name} (${key.keyHint}…)`,
      before: { revokedAt: null },
      after: { revokedAt: at.toISOString() },
      at,
    });
  });
  // This process does not wait for its own announcement.
  ctx.vendorKeys.evict(id);
}

/**
 * The transfers service's copy of a key (issue 23, docs/adr/0031): its SHA-256, never the key,
 * sent in the transaction that creates or revokes it.
 */
function mirrorMessage(key: MirroredVendorKey, correlationId: string): OutgoingMessage<'vendor_key.mirror'> {
  return {
    type: 'vendor_key.mirror',
    source: SOURCE,
    correlationId,
    data: {
      vendorKeyId: key.id,
      name: key.name,
      keyHash: key.keyHash,
      createdAt: key.createdAt.toISOString(),
      revokedAt: key.revokedAt?.toISOString() ?? null,
    },
  };
}

/**
 * Sends the copies of keys made before the transfers service existed, once (at start-up; a
 * second replica starting at the same time skips the keys the first has claimed). The number sent.
 */
export async function mirrorEarlierVendorKeys(ctx: IngestionContext): Promise<number> {
  return withTransaction(ctx.pool, async (db) => {
    const keys = await claimUnmirroredKeys(db, ctx.clock());
    await enqueueAll(db, keys.map((key) => mirrorMessage(key, `vendor-key-backfill-${key.id}`)));
    return keys.length;
  });
}

/** How often one process moves a key's last_used_at forward (its calls also count in the list). */
const TOUCH_EVERY_MS = 60_000;
/** When this process last wrote each key's last_used_at, so a burst of calls writes it once. */
const touchedAt = new Map<string, number>();

/**
 * The vendor a presented key belongs to, or null for no key, an unknown or a revoked one.
 * last_used_at is written at most once a minute per key and process, off the call's path.
 */
export async function vendorOfKey(ctx: IngestionContext, db: Queryable, key: string | undefined): Promise<ActiveVendorKey | null> {
  if (!key || !key.startsWith(VENDOR_KEY_PREFIX) || key.length > 200) return null;
  const keyHash = hashVendorKey(key);
  const kept = ctx.vendorKeys.get(keyHash);
  const vendor = kept ?? (await findActiveKeyByHash(db, keyHash));
  if (!vendor) return null;
  if (!kept) ctx.vendorKeys.put(keyHash, vendor);
  const now = ctx.clock();
  const last = Math.max(vendor.lastUsedAt?.getTime() ?? 0, touchedAt.get(vendor.id) ?? 0);
  if (now.getTime() - last >= TOUCH_EVERY_MS) {
    touchedAt.set(vendor.id, now.getTime());
    touchVendorKey(ctx.pool, vendor.id, now).catch((err: unknown) => ctx.log.warn({ err, vendorKeyId: vendor.id }, "a vendor key's last use was not recorded"));
  }
  return vendor;
}
