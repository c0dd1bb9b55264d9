import { createHash } from 'node:crypto';
import { VENDOR_KEY_PREFIX } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform/db/index';
import { activeVendorKeyId } from '../db/mirrors';

/**
 * The vendor's key on the transfers service's two calls: the keys admins create in ingestion,
 * checked against this service's copy of their SHA-256 (vendor_key.mirror, docs/adr/0031), so a
 * routing decision never waits on ingestion and a revoked key stops once its copy says so.
 */

/** The vendor key's id for a presented key, or null for no key, an unknown or a revoked one. */
export async function vendorKeyOf(db: Queryable, key: string | undefined): Promise<string | null> {
  if (!key || !key.startsWith(VENDOR_KEY_PREFIX) || key.length > 200) return null;
  return activeVendorKeyId(db, createHash('sha256').update(key, 'utf8').digest('hex'));
}
