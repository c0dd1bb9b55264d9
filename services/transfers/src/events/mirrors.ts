import type { CommandData } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform/db/index';
import { applySuppression, upsertVendorKey } from '../db/mirrors';

/**
 * vendor_key.mirror and suppression.mirror (docs/adr/0031): the copies routing reads in its own
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

export async function mirrorSuppression(db: Queryable, change: CommandData<'suppression.mirror'>): Promise<void> {
  await applySuppression(db, { phone: change.phone, suppressed: change.suppressed, at: new Date(change.at) });
}
