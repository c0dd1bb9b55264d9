import { createHash } from 'node:crypto';
import { VENDOR_KEY_PREFIX } from '@warmline/contracts';
import { activeVendorKeyId } from '../db/mirrors';
import type { TransfersContext } from './context';

/**
 * The vendor's key on the transfers service's two calls: the keys admins create in ingestion,
 * checked against this service's copy of their SHA-256 (vendor_key.mirror, docs/adr/0031), so a
 * routing decision never waits on ingestion and a revoked key stops once its copy says so. A key
 * found active is believed for a few seconds; its revoked copy evicts it in every process as it
 * commits (db/mirrors.ts announces it, service.ts listens; docs/adr/0051).
 */

/** The vendor key's id for a presented key, or null for no key, an unknown or a revoked one. */
export async function vendorKeyOf(ctx: Pick<TransfersContext, 'pool' | 'vendorKeys'>, key: string | undefined): Promise<string | null> {
  if (!key || !key.startsWith(VENDOR_KEY_PREFIX) || key.length > 200) return null;
  const keyHash = createHash('sha256').update(key, 'utf8').digest('hex');
  const kept = ctx.vendorKeys.get(keyHash);
  if (kept) return kept.id;
  const id = await activeVendorKeyId(ctx.pool, keyHash);
  if (id) ctx.vendorKeys.put(keyHash, { id });
  return id;
}
