import type { CommandData } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform/db/index';
import { upsertVendorKey } from '../db/mirrors';

/**
 * vendor_key.mirror (suppression.mirror: domain/opt-outs.ts; docs/adr/0031): the copies routing reads in its own
 * database. Both are idempotent and order-free, so a redelivered or reordered command is harmless.
 */

export async function mirrorVendorKey(db: Queryable, key: CommandData<'vendor_key.mirror'>): Promise<void> {
  await upsertVendorKey(db, {
    id: key.vendorKeyId,
    name: key.name,
    keyHash: key.keyHash,
    createdAt: new Date(key.createdAt),
    revokedAt: key.revokedAt ? new Date(key.revokedAt) : null,
  });
}
