import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@warmline/platform/testing/index';
import { readyz, steadyLoad } from '@warmline/platform/testing/outage';
import { startIngestionFixture, vendorCall, type IngestionFixture } from './ingestion-fixture';

/**
 * The broker down while calls arrive (issue 15 tests): the webhook never waits on RabbitMQ —
 * every call is answered 200 from PostgreSQL alone — and once the broker is back every stored
 * call's command and event reach it. None is lost.
 */
let f: IngestionFixture;
let vendor: { id: string; key: string };

beforeAll(async () => {
  f = await startIngestionFixture();
  vendor = await f.createKey('Outage Voice');
}, 60_000);

afterAll(async () => {
  await f?.broker.proxy.restore();
  await f?.cleanup();
});

describe('RabbitMQ away', () => {
  it('when the broker is cut under a steady stream of calls, then every call is answered 200 and every one reaches the catalog queue once it is back', async () => {
    const ids: string[] = [];
    const load = steadyLoad(async () => {
      const answer = await f.post(vendor.key, vendorCall());
      if (answer.status === 200) ids.push(String(answer.body.callback_id));
      return { status: answer.status };
    });
    try {
      await waitFor('calls answered before the cut', () => ids.length >= 5, { timeoutMs: 20_000 });
      const cutAt = Date.now();
      f.broker.proxy.cut();
      await waitFor('the service seeing the broker gone', async () => (await readyz(f.ingestion.url)).body.degraded?.includes('rabbitmq'), { timeoutMs: 20_000 });
      await waitFor('calls answered while the broker is away', () => load.since(cutAt).filter((o) => o.status === 200).length >= 20, { timeoutMs: 20_000 });
      expect((await readyz(f.ingestion.url)).status).toBe(200);
      await f.broker.proxy.restore();
      const restoredAt = Date.now();
      await waitFor('calls answered after the restore', () => load.since(restoredAt).filter((o) => o.status === 200).length >= 5, { timeoutMs: 20_000 });
    } finally {
      await load.stop();
    }
    // Every answer was a 200: the broker was never on the call's path.
    expect(load.outcomes.filter((o) => o.status !== 200)).toEqual([]);
    const { rows } = await f.pool.query<{ id: string }>('SELECT id FROM vendor_calls WHERE vendor_key_id = $1', [vendor.id]);
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(ids));
    await waitFor(
      'every stored call on the catalog queue',
      () => {
        const delivered = new Set(f.commands().map((c) => c.data.callbackId));
        return ids.every((id) => delivered.has(id));
      },
      { timeoutMs: 30_000 },
    );
    const commands = f.commands().filter((c) => ids.includes(String(c.data.callbackId)));
    // Delivered at least once each; the relay may repeat one it was not sure the broker had (the catalog dedupes by message id).
    expect(new Set(commands.map((c) => c.data.callbackId)).size).toBe(ids.length);
    await waitFor('every callback.received event', () => ids.every((id) => f.events().some((e) => e.data.callbackId === id)), { timeoutMs: 30_000 });
  }, 90_000);
});
