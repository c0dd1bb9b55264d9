import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, runMigrations, withTransaction } from '../src/db/index';
import { unavailableDependency } from '../src/faults';
import { closeRedis, createRedis, execMulti, pingRedis, type Redis } from '../src/redis';
import { createTestDatabase, requireService, TEST_REDIS_URL, uniqueName, waitFor, type TestDatabase } from '../src/testing/index';
import { capturingLogger, proxyFor, type ProxiedDependency } from '../src/testing/outage';

/**
 * The platform's PostgreSQL and Redis clients through an outage (cut through a TCP proxy): at
 * start they wait for the server, logging each attempt, instead of giving up; once running they
 * fail fast with errors named after the dependency, never crash the process, and recover by
 * themselves.
 */

const CEILING = { timeoutMs: 30_000, intervalMs: 50 };

/** A promise's outcome so far, without waiting for it. */
function track<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

describe('PostgreSQL', () => {
  let db: TestDatabase;
  let pg: ProxiedDependency;
  beforeAll(async () => {
    db = await createTestDatabase('wl_wait_pg');
    pg = await proxyFor(db.url);
  });
  afterAll(async () => {
    await pg?.proxy.close();
    await db?.drop();
  });

  it('when a service starts while PostgreSQL is away, then migrating waits (one log line per attempt) and completes once it is back', async () => {
    const { log, count } = capturingLogger('wait-test');
    pg.proxy.cut();
    const migrating = track(runMigrations({ databaseUrl: pg.url, schema: 'waiting', dir: '/nonexistent-migrations', log }));
    await waitFor('three attempts logged', () => count('waiting for PostgreSQL') >= 3, CEILING);
    expect(migrating.settled).toBe(false);

    await pg.proxy.restore();
    await waitFor('the migration to finish', () => migrating.settled, CEILING);
    expect(migrating.error).toBeUndefined();
    const pool = createPool(db.url, 'waiting', 2, log);
    try {
      const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox');
      expect(rows[0]?.n).toBe(0);
    } finally {
      await pool.end();
    }
  }, 60_000);

  it('when the connection of a running pool dies, idle or in the middle of a transaction, then queries fail as PostgreSQL unavailable and the pool recovers by itself', async () => {
    const { log, count } = capturingLogger('wait-test');
    const pool = createPool(pg.url, 'public', 3, log);
    try {
      await Promise.all([pool.query('select 1'), pool.query('select 1')]);
      // Checked out across the cut: pg-pool does not listen for its errors while it is lent out.
      const lent = await pool.connect();
      await lent.query('BEGIN');

      pg.proxy.cut();
      const failure = await lent.query('select 1').catch((err: unknown) => err);
      lent.release(true);
      expect(unavailableDependency(failure)).toBe('postgres');
      const query = await pool.query('select 1').catch((err: unknown) => err);
      expect(unavailableDependency(query)).toBe('postgres');
      const transaction = await withTransaction(pool, (c) => c.query('select 1')).catch((err: unknown) => err);
      expect(unavailableDependency(transaction)).toBe('postgres');
      await waitFor('the lost connection logged', () => count('PostgreSQL connection lost; the pool reconnects on the next query') >= 1, CEILING);

      await pg.proxy.restore();
      const { rows } = await pool.query<{ one: number }>('select 1 AS one');
      expect(rows[0]?.one).toBe(1);
    } finally {
      await pg.proxy.restore();
      await pool.end();
    }
  }, 60_000);
});

describe('Redis', () => {
  let redis: ProxiedDependency;
  const prefix = `${uniqueName('t')}:`;
  beforeAll(async () => {
    await requireService('Redis', TEST_REDIS_URL);
    redis = await proxyFor(TEST_REDIS_URL);
  });
  afterAll(async () => {
    await redis?.proxy.close();
  });

  it('when a service starts while Redis is away, then it waits (one log line per attempt) and connects once it is back', async () => {
    const { log, count } = capturingLogger('wait-test');
    redis.proxy.cut();
    const connecting = track(createRedis(redis.url, log));
    try {
      await waitFor('three attempts logged', () => count('waiting for Redis') >= 3, CEILING);
      expect(connecting.settled).toBe(false);
      await redis.proxy.restore();
      await waitFor('the client to connect', () => connecting.settled, CEILING);
      expect(connecting.error).toBeUndefined();
      await pingRedis(connecting.value!);
    } finally {
      await redis.proxy.restore();
      await waitFor('the client to settle', () => connecting.settled, CEILING);
      if (connecting.value) await closeRedis(connecting.value);
    }
  }, 60_000);

  it('when Redis goes away from a running client, then commands and MULTIs fail at once as Redis unavailable, and work again after it returns', async () => {
    const { log } = capturingLogger('wait-test');
    const client: Redis = await createRedis(redis.url, log, { commandTimeoutMs: 500 });
    try {
      await client.set(`${prefix}k`, '1');
      redis.proxy.cut();
      await waitFor('the client to notice', () => !client.isReady, CEILING);
      const get = await client.get(`${prefix}k`).catch((err: unknown) => err);
      expect(unavailableDependency(get)).toBe('redis');
      const multi = await execMulti(client, client.multi().incr(`${prefix}k`)).catch((err: unknown) => err);
      expect(unavailableDependency(multi)).toBe('redis');
      await expect(pingRedis(client)).rejects.toThrow();

      await redis.proxy.restore();
      const value = await waitFor('a command that works again', async () => client.get(`${prefix}k`).catch(() => undefined), CEILING);
      expect(value).toBe('1');
      await execMulti(client, client.multi().incr(`${prefix}k`));
      expect(await client.get(`${prefix}k`)).toBe('2');
    } finally {
      await client.del(`${prefix}k`).catch(() => undefined);
      await closeRedis(client);
    }
  }, 60_000);
});
