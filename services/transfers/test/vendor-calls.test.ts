import { createHash, randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COMMANDS_EXCHANGE, type CommandData } from '@warmline/contracts';
import { TEST_AMQP_URL, waitFor } from '@warmline/platform/testing/index';
import { activeVendorKeyId } from '../src/db/mirrors';
import { changeSuppressionCopy } from '../src/domain/opt-outs';
import { mirrorVendorKey } from '../src/events/mirrors';
import { ledgerMismatches } from '../src/db/ledger';
import { NOON_CHICAGO, prospect, startTransfersFixture, type TransfersFixture } from './transfers-fixture';

/** Issue 23 §3, §4: the vendor's key, bad bodies, repeated call_ids, concurrency and the mirrors. */
let f: TransfersFixture;
let key: { id: string; key: string };

beforeAll(async () => {
  f = await startTransfersFixture();
  key = await f.vendorKey();
}, 60_000);
afterAll(async () => f?.cleanup());
beforeEach(async () => {
  await f.pool.query('UPDATE agents SET deleted_at = now() WHERE deleted_at IS NULL');
  f.setNow(NOON_CHICAGO);
});

describe('the vendor key', () => {
  it('401 without a key, with an unknown or a revoked one; X-API-Key and Bearer both work', async () => {
    const unauthorized = { success: false, message: 'Unauthorized' };
    expect(await f.route(null, prospect())).toMatchObject({ status: 401, body: unauthorized });
    expect(await f.route('wlv_not-a-key', prospect())).toMatchObject({ status: 401, body: unauthorized });
    expect(await f.outcome(null, crypto.randomUUID(), { connected: false, duration_seconds: 0 })).toMatchObject({ status: 401, body: unauthorized });
    const bearer = await f.route(null, prospect(), { authorization: `Bearer ${key.key}` });
    expect(bearer).toMatchObject({ status: 200, body: { success: true, routed: false, reason: 'no_agent_available' } });
    const revoked = await f.vendorKey('Old vendor');
    expect((await f.route(revoked.key, prospect())).status).toBe(200);
    await f.revokeKey(revoked);
    expect(await f.route(revoked.key, prospect())).toMatchObject({ status: 401, body: unauthorized });
  });

  it('a key found active is believed for a few seconds without looking again; a revoked copy is announced and refused at once', async () => {
    const probe = async (k: string) => (await f.outcome(k, randomUUID(), { connected: false, duration_seconds: 0 })).status;
    const believed = await f.vendorKey('Believed vendor');
    expect(await probe(believed.key)).toBe(404);
    // Changed behind the service's back, with no announcement: still believed (it did not look again)…
    await f.pool.query('UPDATE vendor_keys SET revoked_at = now() WHERE id = $1', [believed.id]);
    expect(await probe(believed.key)).toBe(404);
    // …until VENDOR_KEY_CACHE_SECONDS (5 s) have passed.
    const started = Date.now();
    await waitFor('the unannounced revocation to take effect', async () => (await probe(believed.key)) === 401, { timeoutMs: 8_000, intervalMs: 100 });
    expect(Date.now() - started).toBeLessThan(6_000);

    // A revoked copy written the way the mirror writes it is announced: refused without waiting out the 5 s.
    const announced = await f.vendorKey('Announced vendor');
    expect(await probe(announced.key)).toBe(404);
    const revokedAt = Date.now();
    await mirrorVendorKey(f.pool, { vendorKeyId: announced.id, name: 'Announced vendor', keyHash: createHash('sha256').update(announced.key).digest('hex'), createdAt: new Date().toISOString(), revokedAt: new Date().toISOString() });
    await waitFor('the announced revocation to take effect', async () => (await probe(announced.key)) === 401, { timeoutMs: 4_000, intervalMs: 20 });
    expect(Date.now() - revokedAt).toBeLessThan(2_000);
  }, 20_000);

  it('a key mirrored through the broker (as ingestion sends it) works at the next call', async () => {
    const text = `wlv_${randomUUID().replace(/-/g, '')}`;
    const data: CommandData<'vendor_key.mirror'> = {
      vendorKeyId: randomUUID(),
      name: 'Through the broker',
      keyHash: createHash('sha256').update(text).digest('hex'),
      createdAt: new Date().toISOString(),
      revokedAt: null,
    };
    const envelope = { id: randomUUID(), type: 'vendor_key.mirror', version: 1, occurredAt: new Date().toISOString(), source: 'ingestion', correlationId: randomUUID(), data };
    const connection = await amqp.connect(TEST_AMQP_URL);
    try {
      const channel = await connection.createConfirmChannel();
      channel.publish(`${f.system.namespace}.${COMMANDS_EXCHANGE}`, 'vendor_key.mirror', Buffer.from(JSON.stringify(envelope)), { persistent: true, contentType: 'application/json', messageId: envelope.id });
      await channel.waitForConfirms();
    } finally {
      await connection.close();
    }
    await waitFor('the key mirrored', async () => (await f.route(text, prospect())).status === 200, { timeoutMs: 20_000 });
  });

  it('a revoke mirrored before its create leaves the key revoked', async () => {
    const id = crypto.randomUUID();
    const keyHash = 'a'.repeat(64);
    const createdAt = '2026-11-27T10:00:00Z';
    await mirrorVendorKey(f.pool, { vendorKeyId: id, name: 'Late', keyHash, createdAt, revokedAt: '2026-11-27T11:00:00Z' });
    await mirrorVendorKey(f.pool, { vendorKeyId: id, name: 'Late', keyHash, createdAt, revokedAt: null });
    expect(await activeVendorKeyId(f.pool, keyHash)).toBeNull();
    const { rows } = await f.pool.query('SELECT revoked_at FROM vendor_keys WHERE id = $1', [id]);
    expect((rows[0].revoked_at as Date).toISOString()).toBe('2026-11-27T11:00:00.000Z');
  });

  it('the suppression list copy keeps the newest change whatever order they arrive in', async () => {
    const state = async () => (await f.pool.query('SELECT suppressed FROM suppressed_phones WHERE phone = $1', ['5125550111'])).rows[0]?.suppressed;
    await changeSuppressionCopy(f.pool, { phone: '5125550111', suppressed: false, at: '2026-11-27T12:00:00Z' }, 'test');
    await changeSuppressionCopy(f.pool, { phone: '5125550111', suppressed: true, at: '2026-11-27T11:00:00Z' }, 'test');
    expect(await state()).toBe(false);
    await changeSuppressionCopy(f.pool, { phone: '5125550111', suppressed: true, at: '2026-11-27T13:00:00Z' }, 'test');
    expect(await state()).toBe(true);
  });
});

describe('bad requests', () => {
  it('400 in the webhook’s shape naming each field', async () => {
    const missing = await f.route(key.key, { first_name: 'Maria', phone_number: '12' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ success: false, message: 'Missing required fields' });
    expect(missing.body.fields).toEqual(['call_id', 'last_name', 'phone_number']);
    expect(missing.body.errors).toContainEqual({ field: 'phone_number', message: 'phone_number must be a 10-digit US phone number' });
    const badState = await f.route(key.key, prospect({ state: 'ZZ' }));
    expect(badState.body.fields).toEqual(['state']);
    expect((await f.route(key.key, '{"call_id":')).body).toEqual({ success: false, message: 'Invalid JSON body' });
  });

  it('400 naming state when it is absent and the area code names none', async () => {
    const { state: _none, ...tollFree } = prospect({ phone_number: '8005550143' });
    const answer = await f.route(key.key, tollFree);
    expect(answer.status).toBe(400);
    expect(answer.body.fields).toEqual(['state']);
  });
});

describe('a repeated call_id', () => {
  it('answers the same decision, routed or refused, even when the copies arrive at once', async () => {
    const agent = await f.agent({ atOnce: 10 });
    await f.credit(agent, 10);
    const call = prospect();
    const answers = await Promise.all(Array.from({ length: 10 }, () => f.route(key.key, call)));
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(answers[0]!.body).toMatchObject({ routed: true });
    expect((await f.pool.query('SELECT count(*)::int AS n FROM transfers WHERE call_id = $1', [call.call_id])).rows[0].n).toBe(1);
    // Later, when the agent could take more, the same call still answers the same.
    expect((await f.route(key.key, call)).body).toEqual(answers[0]!.body);

    await f.suppress(call.phone_number);
    const refused = prospect({ phone_number: call.phone_number });
    expect((await f.route(key.key, refused)).body).toMatchObject({ routed: false, reason: 'suppressed' });
    await f.suppress(call.phone_number, false, new Date(f.now().getTime() + 1000));
    expect((await f.route(key.key, refused)).body).toMatchObject({ routed: false, reason: 'suppressed' });
    // Another vendor's call with the same id is its own call.
    const other = await f.vendorKey('Other');
    expect((await f.route(other.key, { ...call, phone_number: '5125550123' })).body).toMatchObject({ routed: true });
  });
});

describe('concurrency', () => {
  it('100 concurrent routes for one agent with a balance of 5 reserve exactly 5', async () => {
    const agent = await f.agent({ atOnce: 20, dailyCap: 1000 });
    await f.credit(agent, 5);
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => f.route(key.key, prospect({ phone_number: `51244${String(10000 + i)}` }))));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.body.routed === true)).toHaveLength(5);
    expect(answers.filter((a) => a.body.reason === 'no_agent_available')).toHaveLength(95);
    const { rows } = await f.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM transfers WHERE agent_id = $1 AND status = 'routed'", [agent]);
    expect(rows[0]!.n).toBe(5);
    // Their outcomes, each sent twice at once, charge five transfers once each.
    const routed = answers.filter((a) => a.body.routed === true).map((a) => String(a.body.transfer_id));
    const outcomes = await Promise.all([...routed, ...routed].map((id) => f.outcome(key.key, id, { connected: true, duration_seconds: 300 })));
    expect(outcomes.every((o) => o.status === 200 && o.body.charged === true)).toBe(true);
    expect(await f.balance(agent)).toBe(0);
    expect(await ledgerMismatches(f.pool)).toEqual([]);
  });

  it('concurrent routes over many agents give each at most their at-once limit', async () => {
    const agents = await Promise.all(Array.from({ length: 10 }, () => f.agent({ atOnce: 1 })));
    for (const a of agents) await f.credit(a, 3);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => f.route(key.key, prospect({ phone_number: `51233${String(10000 + i)}` }))));
    expect(answers.filter((a) => a.body.routed === true)).toHaveLength(10);
    const { rows } = await f.pool.query<{ n: number }>("SELECT count(DISTINCT agent_id)::int AS n FROM transfers WHERE agent_id = ANY($1::uuid[])", [agents]);
    expect(rows[0]!.n).toBe(10);
  });
});
