import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_REDIS_URL, waitFor } from '@warmline/platform/testing/index';
import { proxyFor, readyz, steadyLoad, type ProxiedDependency } from '@warmline/platform/testing/outage';
import { createTestDatabase, type TestDatabase } from '@warmline/platform/testing/index';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/**
 * ARCHITECTURE §5, Faults: the gateway reaches Redis and PostgreSQL through TCP proxies that
 * these tests cut and restore. While one is away, the requests that need it answer 503 at once
 * (never a hang, never a 500); once it is back, logins and sessions work again by themselves.
 */

const CEILING = { timeoutMs: 30_000, intervalMs: 100 };

let db: TestDatabase;
let redis: ProxiedDependency;
let pg: ProxiedDependency;
let gw: GatewayFixture;

beforeAll(async () => {
  db = await createTestDatabase('wl_gateway_faults');
  redis = await proxyFor(TEST_REDIS_URL);
  pg = await proxyFor(db.url);
  gw = await startGatewayFixture({ db, env: { REDIS_URL: redis.url, DATABASE_URL: pg.url } });
}, 60_000);

afterAll(async () => {
  await redis?.proxy.restore();
  await pg?.proxy.restore();
  await gw?.cleanup();
  await redis?.proxy.close();
  await pg?.proxy.close();
  await db?.drop();
});

describe('the gateway through outages', () => {
  it('when Redis is cut, then login and a signed-in request answer 503 naming the session store, and after it returns login and the session work again', async () => {
    const { user, password } = await gw.createAgent();
    const signedIn = gw.browser();
    await signedIn.login(user.username, password);
    expect((await signedIn.get('/api/current-user')).status).toBe(200);

    redis.proxy.cut();
    try {
      await waitFor('/readyz not ready', async () => (await readyz(gw.internalUrl)).status === 503, CEILING);
      expect((await readyz(gw.internalUrl)).body.checks?.redis).toMatch(/^down/);

      const login = await gw.browser().post('/api/login', { username: user.username, password });
      expect(login.status).toBe(503);
      expect(login.json.error).toMatch(/the session store is not reachable/);
      expect(login.headers.get('retry-after')).toBe('5');

      const current = await signedIn.get('/api/current-user');
      expect(current.status).toBe(503);
      expect(current.json.error).toMatch(/the session store is not reachable/);
    } finally {
      await redis.proxy.restore();
    }

    await waitFor('/readyz ready again', async () => (await readyz(gw.internalUrl)).status === 200, CEILING);
    const again = gw.browser();
    const relogin = await waitFor('a login that succeeds again', async () => {
      const answer = await again.post('/api/login', { username: user.username, password });
      return answer.status === 200 ? answer : undefined;
    }, CEILING);
    expect(relogin.json.username).toBe(user.username);
    expect((await again.get('/api/current-user')).status).toBe(200);
    // The session opened before the outage lives on in Redis.
    expect((await signedIn.get('/api/current-user')).status).toBe(200);
  }, 90_000);

  it('when PostgreSQL is cut under a steady load of logins, then the gateway keeps running, answers 503 meanwhile and 200 after', async () => {
    const { user, password } = await gw.createAgent();
    const load = steadyLoad(async () => {
      const answer = await gw.browser().post('/api/login', { username: user.username, password });
      return { status: answer.status, error: String(answer.json?.error ?? '') };
    }, { concurrency: 2 });
    try {
      await waitFor('logins succeeding before the cut', () => load.outcomes.filter((o) => o.status === 200).length >= 3, CEILING);
      const cutAt = Date.now();
      pg.proxy.cut();
      await waitFor('logins answered 503 during the cut', () => load.since(cutAt).filter((o) => o.status === 503).length >= 5, CEILING);
      expect((await readyz(gw.internalUrl)).status).toBe(503);
      await pg.proxy.restore();
      const restoredAt = Date.now();
      await waitFor('logins succeeding after the restore', () => load.since(restoredAt).filter((o) => o.status === 200).length >= 3, CEILING);
      await waitFor('/readyz ready again', async () => (await readyz(gw.internalUrl)).status === 200, CEILING);
    } finally {
      await load.stop();
    }
    expect([...new Set(load.outcomes.map((o) => o.status))].sort()).toEqual([200, 503]);
    for (const refusal of load.outcomes.filter((o) => o.status === 503)) expect(refusal.error).toMatch(/the database is not reachable/);
  }, 90_000);
});
