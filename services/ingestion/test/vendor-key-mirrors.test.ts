import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@warmline/platform';
import { mirrorEarlierVendorKeys } from '../src/domain/vendor-keys';
import { VendorKeyCache } from '@warmline/platform/db/vendor-key-cache';
import type { ActiveVendorKey } from '../src/db/vendor-keys';
import { fixtureAdmin, startIngestionFixture, type IngestionFixture } from './ingestion-fixture';

/**
 * Issue 23 (docs/adr/0031): the transfers service's copy of each vendor key — vendor_key.mirror
 * queued in the transaction that creates or revokes it, and once at start-up for keys made before.
 */
let f: IngestionFixture;

beforeAll(async () => {
  f = await startIngestionFixture();
}, 60_000);
afterAll(async () => f?.cleanup());

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('vendor_key.mirror', () => {
  it('is queued with the key’s SHA-256 (never the key) when it is created and again when it is revoked', async () => {
    const { id, key } = await f.createKey('Mirror me');
    const created = (await f.outbox('vendor_key.mirror')).filter((e) => e.data.vendorKeyId === id);
    expect(created.map((e) => e.data)).toEqual([{ vendorKeyId: id, name: 'Mirror me', keyHash: sha256(key), createdAt: expect.any(String), revokedAt: null }]);
    expect(JSON.stringify(created)).not.toContain(key);

    expect((await f.call('DELETE', `/api/admin/vendor-keys/${id}`, { identity: fixtureAdmin })).status).toBe(204);
    const revoked = (await f.outbox('vendor_key.mirror')).filter((e) => e.data.vendorKeyId === id);
    expect(revoked).toHaveLength(2);
    expect(revoked[1]!.data).toMatchObject({ keyHash: sha256(key), revokedAt: expect.any(String) });
    // Revoking again changes nothing and sends nothing.
    await f.call('DELETE', `/api/admin/vendor-keys/${id}`, { identity: fixtureAdmin });
    expect((await f.outbox('vendor_key.mirror')).filter((e) => e.data.vendorKeyId === id)).toHaveLength(2);
  });

  it('is sent once for keys made before, even by two replicas starting at once', async () => {
    const earlier = [await f.createKey('Earlier A'), await f.createKey('Earlier B'), await f.createKey('Earlier C')];
    await f.call('DELETE', `/api/admin/vendor-keys/${earlier[2]!.id}`, { identity: fixtureAdmin });
    const ids = earlier.map((k) => k.id);
    // As before the migration: no copy sent yet.
    await f.pool.query('UPDATE vendor_keys SET mirrored_at = NULL WHERE id = ANY($1::uuid[])', [ids]);
    const before = (await f.outbox('vendor_key.mirror')).length;
    const ctx = { pool: f.pool, log: createLogger('ingestion', 'silent'), clock: () => new Date(), vendorKeys: new VendorKeyCache<ActiveVendorKey>(0) };
    const sent = await Promise.all([mirrorEarlierVendorKeys(ctx), mirrorEarlierVendorKeys(ctx)]);
    expect(sent[0]! + sent[1]!).toBe(3);
    const after = (await f.outbox('vendor_key.mirror')).slice(before);
    expect(after.map((e) => e.data.vendorKeyId).sort()).toEqual([...ids].sort());
    expect(after.find((e) => e.data.vendorKeyId === ids[2])!.data.revokedAt).not.toBeNull();
    expect(await mirrorEarlierVendorKeys(ctx)).toBe(0);
  });
});
