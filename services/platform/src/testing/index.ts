import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { serviceSigner, signIdentity, signServiceCall, type ServiceCaller } from '../http/identity';
import { type Identity } from '../identity';
import { privateKeyOf } from '../keys';

/**
 * Test helpers. Tests talk to the real PostgreSQL, Redis and RabbitMQ (ARCHITECTURE §7);
 * a service that is unreachable makes the test fail with a message that says which and how
 * to start it, never pass or skip.
 */

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const TEST_AMQP_URL = process.env.TEST_AMQP_URL ?? process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
/**
 * Ed25519 keys for tests only (docs/adr/0042), in the environment's shape: the gateway's identity
 * key, and each calling service's own key. Every test process gets all of them, as `make start` does.
 */
export const TEST_KEYS = {
  IDENTITY_PRIVATE_KEY: 'MC4CAQAwBQYDK2VwBCIEIPg9QEfdymvDMC3i19eODd98yfRImi4Y0rLGL0nFRzP8',
  IDENTITY_PUBLIC_KEY: 'MCowBQYDK2VwAyEAv7wHiDNhsmtUHFzgwzN76iIlkZkuorFcPmptIu6DiS4=',
  CATALOG_SERVICE_KEY: 'MC4CAQAwBQYDK2VwBCIEIHhFe1STf50eCzJvf7UB333KyNIpL4v7XeqpJ7c0RCgJ',
  ORDERS_SERVICE_KEY: 'MC4CAQAwBQYDK2VwBCIEICd5lni21jv3o/4NYwlMV6FiA4EI7rYVJgQ18wqO98It',
  TRANSFERS_SERVICE_KEY: 'MC4CAQAwBQYDK2VwBCIEIOq+tGfyI1fu3EwsC73aJIs7tG4TPoAL9O259JxrdYF2',
  SERVICE_PUBLIC_KEYS: [
    'catalog:MCowBQYDK2VwAyEA8F1K3y0HSf489jjYVfmcQugrMRrOqLnNKYvngCtfC4k=',
    'orders:MCowBQYDK2VwAyEAh6gUJWbpW40a6QUBJT9ZqH5N6XIynVpJUpfhpZ3wA04=',
    'transfers:MCowBQYDK2VwAyEArK9MIou8mykXFfb9c0YpbqWBlKnZB1YlTyWmCyBA7WA=',
  ].join(','),
};

/** The identity the gateway would forward to the service `audience` (e.g. 'orders'), signed with the test gateway key. */
export function signTestIdentity(audience: string, identity: Identity): string {
  return signIdentity(privateKeyOf(TEST_KEYS.IDENTITY_PRIVATE_KEY), audience, identity);
}

/** A call of the test `caller` service to `audience`, acting for a user or for no one. */
export function signTestServiceCall(caller: ServiceCaller, audience: string, actingFor: Identity | null = null): string {
  const key = { catalog: TEST_KEYS.CATALOG_SERVICE_KEY, orders: TEST_KEYS.ORDERS_SERVICE_KEY, transfers: TEST_KEYS.TRANSFERS_SERVICE_KEY }[caller];
  return signServiceCall(serviceSigner(caller, key), audience, actingFor);
}

/** A short name unique to this run, for databases, queues, exchanges and Redis keys. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
}

/** Fails with a clear message when a TCP service does not answer. */
export async function requireService(name: string, url: string): Promise<void> {
  const u = new URL(url);
  const port = Number(u.port) || ({ 'postgres:': 5432, 'redis:': 6379, 'amqp:': 5672 } as Record<string, number>)[u.protocol] || 0;
  const host = u.hostname;
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(3000);
    socket.once('connect', () => { socket.end(); resolve(); });
    const fail = (why: string) => {
      socket.destroy();
      reject(new Error(`${name} is not reachable at ${host}:${port} (${why}). Start it with 'make services' (infra/scripts/ensure-services.sh).`));
    };
    socket.once('timeout', () => fail('timeout'));
    socket.once('error', (err) => fail(err.message));
  });
}

export interface TestDatabase {
  url: string;
  name: string;
  drop: () => Promise<void>;
}

/** A fresh, empty database for one test file; `drop` removes it. */
export async function createTestDatabase(prefix = 'wl_test'): Promise<TestDatabase> {
  await requireService('PostgreSQL', TEST_DATABASE_URL);
  const name = uniqueName(prefix).toLowerCase();
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      try {
        // pool.end() resolves before its sockets are gone; forcing them off at once makes
        // the closing clients emit errors in the test process. Give them a moment first.
        for (let i = 0; i < 50; i++) {
          const { rows } = await c.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
            [name],
          );
          if (!rows[0]?.n) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** Polls `probe` until it returns a truthy value; fails after `timeoutMs` naming `what`. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  { timeoutMs = 10_000, intervalMs = 50 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const reason = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${reason}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * Ports below Linux's ephemeral range (32768–60999): the OS never hands these out as the source
 * port of an outgoing connection, so a port picked here is not taken by one of the suite's own
 * connections before the service that was given it binds it (port 0 would pick an ephemeral one,
 * which did happen: EADDRINUSE on a gateway's port).
 */
const TEST_PORTS = { from: 20_000, to: 32_000 };

/**
 * This process's share of TEST_PORTS. Test files run in parallel workers (VITEST_POOL_ID 1, 2, …),
 * and a port one worker checked as free could be handed to another before the first one's service
 * bound it (seen: EADDRINUSE on an e2e gateway's port); each worker picks from its own slice.
 */
function portSlice(): { from: number; to: number } {
  const pool = Number(process.env.VITEST_POOL_ID);
  if (!Number.isInteger(pool) || pool < 1) return TEST_PORTS;
  const slices = 8;
  const size = Math.floor((TEST_PORTS.to - TEST_PORTS.from) / slices);
  const from = TEST_PORTS.from + ((pool - 1) % slices) * size;
  return { from, to: from + size };
}

/** Ports this process handed out: never twice, since a system may be given several before it binds any. */
const handedOut = new Set<number>();

/** A port nothing listens on now, on any interface, for a service a test starts next. */
export async function freePort(): Promise<number> {
  const range = portSlice();
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = range.from + Math.floor(Math.random() * (range.to - range.from));
    if (handedOut.has(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
    });
    if (free) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${range.from} and ${range.to} after 200 tries`);
}
