import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLBACK_WEBHOOK_PATH, consumerQueues, vendorKeySchema, VENDOR_KEY_PREFIX } from '@warmline/contracts';
import { createHash } from 'node:crypto';
import { createLogger, createPool, parseConfig, type Pool } from '@warmline/platform';
import { freePort, waitFor } from '@warmline/platform/testing/index';
import { outboxConsumed } from '@warmline/platform/testing/barriers';
import { startGatewayFixture, type Browser, type GatewayFixture } from '../../gateway/test/gateway-fixture';
import { ingestionEnv } from '../src/config';
import { INGESTION_SCHEMA, startIngestion, type RunningIngestion } from '../src/service';
import { vendorCall } from './ingestion-fixture';

/**
 * Vendor keys as an admin reaches them (issue 15 item 2): through the gateway, which forwards the
 * admin's identity, with the ingestion service on the gateway's database and broker namespace
 * as in production, so the audit.record commands land in the gateway's audit log.
 */
let gw: GatewayFixture;
let ingestion: RunningIngestion;
let pool: Pool;
let admin: Browser;
let customer: Browser;
const XHR = { headers: { 'x-requested-with': 'XMLHttpRequest' } };
/** The gateway's queue that stores the audit.record commands (from the broker manifest). */
const AUDIT_QUEUE = consumerQueues.find((q) => (q.messages as readonly string[]).includes('audit.record'))!.queue;

beforeAll(async () => {
  const port = await freePort();
  gw = await startGatewayFixture({ env: { INGESTION_URL: `http://127.0.0.1:${port}` } });
  const config = parseConfig(ingestionEnv, {
    NODE_ENV: 'test',
    DATABASE_URL: gw.config.DATABASE_URL,
    MIGRATION_DATABASE_URL: gw.config.DATABASE_URL,
    AMQP_URL: gw.config.AMQP_URL,
    IDENTITY_PUBLIC_KEY: gw.config.IDENTITY_PUBLIC_KEY,
    ...(gw.config.BUS_NAMESPACE ? { BUS_NAMESPACE: gw.config.BUS_NAMESPACE } : {}),
    INGESTION_PORT: String(port),
  });
  ingestion = await startIngestion(config, createLogger('ingestion', 'silent'));
  pool = createPool(gw.config.DATABASE_URL, INGESTION_SCHEMA);
  admin = gw.browser();
  await admin.login(gw.admin.username, gw.admin.password);
  const agent = await gw.createAgent();
  customer = gw.browser();
  await customer.login(agent.user.username, agent.password);
}, 90_000);

afterAll(async () => {
  await pool?.end();
  await ingestion?.stop();
  await gw?.cleanup();
});

describe('vendor keys', () => {
  it('when an admin creates a key, then it is shown once with the prefix, stored only as its SHA-256, and audited without the key', async () => {
    const created = await admin.post('/api/admin/vendor-keys', { name: '  BrightCall  ' }, XHR);
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.json).toEqual({ id: expect.any(String), name: 'BrightCall', key: expect.stringMatching(new RegExp(`^${VENDOR_KEY_PREFIX}[A-Za-z0-9_-]{32}$`)) });
    const key = String(created.json.key);

    const { rows } = await pool.query('SELECT key_hash, key_hint, created_by FROM vendor_keys WHERE id = $1', [created.json.id]);
    expect(rows[0]).toEqual({ key_hash: createHash('sha256').update(key).digest('hex'), key_hint: key.slice(0, 8), created_by: gw.admin.username });
    const { rows: anywhere } = await pool.query('SELECT count(*)::int AS n FROM vendor_keys WHERE row_to_json(vendor_keys)::text LIKE $1', [`%${key.slice(8)}%`]);
    expect(anywhere[0].n).toBe(0);

    const audit = await waitFor('the audit row', async () => {
      const r = await gw.pool.query("SELECT * FROM audit_log WHERE subject_type = 'vendor_key' AND subject_id = $1 AND action = 'vendor_key.created'", [created.json.id]);
      return r.rows[0];
    });
    expect(audit).toMatchObject({ actor_username: gw.admin.username, source: 'ingestion', after: { name: 'BrightCall', keyHint: key.slice(0, 8) } });
    expect(JSON.stringify(audit)).not.toContain(key.slice(8));
  });

  it('when a name is missing or too long, then 400 with the message', async () => {
    const missing = await admin.post('/api/admin/vendor-keys', {}, XHR);
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe('Vendor name is required');
    const long = await admin.post('/api/admin/vendor-keys', { name: 'x'.repeat(101) }, XHR);
    expect(long.status).toBe(400);
    expect(long.json.error).toBe('Vendor name must be at most 100 characters');
  });

  it('when the admin lists keys, then each shows name, created, by whom, last used and calls received, never the key', async () => {
    const created = await admin.post('/api/admin/vendor-keys', { name: 'Counted Voice' }, XHR);
    const key = String(created.json.key);
    for (let i = 0; i < 3; i++) {
      const call = await fetch(`${gw.url}${CALLBACK_WEBHOOK_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(vendorCall()) });
      expect(call.status).toBe(200);
    }
    const list = await admin.get('/api/admin/vendor-keys');
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(key.slice(8));
    const keys = (list.json as unknown[]).map((k) => vendorKeySchema.strict().parse(k));
    const counted = keys.find((k) => k.id === created.json.id)!;
    expect(counted).toMatchObject({ name: 'Counted Voice', keyHint: key.slice(0, 8), createdBy: gw.admin.username, callsReceived: 3, revokedAt: null });
    expect(counted.lastUsedAt).not.toBeNull();
    // Newest first.
    expect(keys[0]!.id).toBe(created.json.id);
  });

  it('when the admin revokes a key, then the vendor is refused at once, the list shows it revoked, and it is audited once', async () => {
    const created = await admin.post('/api/admin/vendor-keys', { name: 'Revoked Voice' }, XHR);
    const key = String(created.json.key);
    const id = String(created.json.id);
    const revoked = await admin.delete(`/api/admin/vendor-keys/${id}`);
    expect(revoked.status).toBe(204);
    expect((await admin.delete(`/api/admin/vendor-keys/${id}`)).status).toBe(204);

    const call = await fetch(`${gw.url}${CALLBACK_WEBHOOK_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(vendorCall()) });
    expect(call.status).toBe(401);
    expect(await call.json()).toEqual({ success: false, message: 'Unauthorized' });

    const listed = (await admin.get('/api/admin/vendor-keys')).json as Array<{ id: string; revokedAt: string | null }>;
    expect(listed.find((k) => k.id === id)?.revokedAt).toEqual(expect.any(String));
    await waitFor('the audit row', async () => (await gw.pool.query("SELECT 1 FROM audit_log WHERE subject_id = $1 AND action = 'vendor_key.revoked'", [id])).rows.length > 0);
    // The second DELETE changed nothing and is not audited again: every audit.record ingestion has
    // enqueued by now (a second one would be among them) has been through the gateway's audit consumer.
    await outboxConsumed(pool, 'audit.record', gw.pool, AUDIT_QUEUE);
    const { rows } = await gw.pool.query("SELECT count(*)::int AS n FROM audit_log WHERE subject_id = $1 AND action = 'vendor_key.revoked'", [id]);
    expect(rows[0].n).toBe(1);
  });

  it('when the id is unknown or not a UUID, then revoking answers 404', async () => {
    for (const id of [crypto.randomUUID(), 'not-a-uuid']) {
      const answer = await admin.delete(`/api/admin/vendor-keys/${id}`);
      expect(answer.status, id).toBe(404);
      expect(answer.json.error).toBe('Vendor key not found');
    }
  });

  it('when a customer or a visitor tries any vendor-key route, then 403 or 401 and nothing changes', async () => {
    const created = await admin.post('/api/admin/vendor-keys', { name: 'Guarded Voice' }, XHR);
    const id = String(created.json.id);
    expect((await customer.post('/api/admin/vendor-keys', { name: 'Mine' }, XHR)).status).toBe(403);
    expect((await customer.get('/api/admin/vendor-keys')).status).toBe(403);
    expect((await customer.delete(`/api/admin/vendor-keys/${id}`)).status).toBe(403);
    const visitor = gw.browser();
    expect((await visitor.get('/api/admin/vendor-keys')).status).toBe(401);
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM vendor_keys WHERE name = 'Mine' OR (id = $1 AND revoked_at IS NOT NULL)", [id]);
    expect(rows[0].n).toBe(0);
  });
});
