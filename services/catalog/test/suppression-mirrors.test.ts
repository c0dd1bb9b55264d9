import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, type Identity } from '@warmline/platform';
import { withTransaction } from '@warmline/platform/db/index';
import { suppressVendorPhone } from '../src/callbacks/domain/callbacks';
import { mirrorEarlierSuppressions } from '../src/suppressions/domain/suppressions';
import { phoneIn, startCatalogFixture, type CatalogFixture } from './catalog-fixture';

/**
 * Issue 23 (docs/adr/0031): the transfers service's copy of the suppression list —
 * suppression.mirror queued in the transaction that adds or removes a phone (an admin's or a
 * vendor's do-not-call), and once at start-up for phones suppressed before.
 */
let fx: CatalogFixture;

beforeAll(async () => {
  fx = await startCatalogFixture();
}, 90_000);
afterAll(async () => fx?.cleanup());

const admin: Identity = { userId: randomUUID(), username: 'admin_mirrors', isAdmin: true };
const mirrorsOf = async (phone: string) => (await fx.outbox('suppression.mirror')).filter((e) => e.data.phone === phone).map((e) => e.data);

describe('suppression.mirror', () => {
  it('is queued when an admin suppresses a phone and when they take it off the list', async () => {
    const phone = phoneIn('731');
    expect((await fx.call('POST', '/api/admin/suppressions', { identity: admin, body: { phone, reason: 'Asked not to be called' } })).status).toBe(201);
    // With its reason (issue 24): the transfers service's notice to its agents says it.
    expect(await mirrorsOf(phone)).toEqual([{ phone, suppressed: true, at: expect.any(String), reason: 'Asked not to be called' }]);
    expect((await fx.call('DELETE', `/api/admin/suppressions/${phone}`, { identity: admin })).status).toBe(204);
    const both = await mirrorsOf(phone);
    expect(both).toHaveLength(2);
    expect(both[1]).toMatchObject({ phone, suppressed: false });
    expect(new Date(String(both[1]!.at)).getTime()).toBeGreaterThanOrEqual(new Date(String(both[0]!.at)).getTime());
  });

  it('is queued when a vendor call says do not call, once', async () => {
    const phone = phoneIn('732');
    const dnc = () =>
      withTransaction(fx.pool, (db) =>
        suppressVendorPhone(db, { log: createLogger('catalog', 'silent'), clock: fx.now }, { phone, reason: "Vendor call outcome 'dnc' (Acme Voice)", callbackId: randomUUID(), requestedAt: fx.now().toISOString() }, randomUUID()),
      );
    await dnc();
    await dnc();
    expect(await mirrorsOf(phone)).toEqual([{ phone, suppressed: true, at: expect.any(String), reason: "Vendor call outcome 'dnc' (Acme Voice)" }]);
  });

  it('is sent once for phones suppressed before, even by two replicas starting at once', async () => {
    const phones = [phoneIn('733'), phoneIn('734')];
    for (const phone of phones) await fx.call('POST', '/api/admin/suppressions', { identity: admin, body: { phone, reason: 'Earlier' } });
    await fx.pool.query('UPDATE lead_suppressions SET mirrored_at = NULL WHERE phone = ANY($1::text[])', [phones]);
    const ctx = { pool: fx.pool, clock: fx.now };
    const sent = await Promise.all([mirrorEarlierSuppressions(ctx), mirrorEarlierSuppressions(ctx)]);
    expect(sent[0]! + sent[1]!).toBe(2);
    for (const phone of phones) expect(await mirrorsOf(phone)).toHaveLength(2);
    expect(await mirrorEarlierSuppressions(ctx)).toBe(0);
  });
});
