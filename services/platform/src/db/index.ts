import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { runner } from 'node-pg-migrate';
import { isNetworkError, markUnavailable, unavailableDependency } from '../faults';
import { createLogger, type Logger } from '../log';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
/** Anything that can run a query: the pool, or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

// numeric stays a string (money is never a float); bigint counts become numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/**
 * A pool whose connections use the service's own schema first, so queries name tables
 * without a schema prefix and never reach into another service's schema by accident.
 *
 * It survives PostgreSQL going away: a connection that dies (idle in the pool, or checked out
 * by a transaction) is logged and dropped, never an unhandled 'error' event that ends the
 * process, and the pool opens fresh connections once the server is back. Socket errors from
 * its connections are marked as PostgreSQL's, so the HTTP kit answers them with a 503.
 */
export function createPool(databaseUrl: string, schema: string, max = 10, log: Logger = fallbackLog()): pg.Pool {
  assertSchemaName(schema);
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max,
    options: `-c search_path=${schema},public`,
    connectionTimeoutMillis: 5000,
  });
  const report = connectionErrorLogger(log.child({ component: 'postgres', schema }));
  // Idle connections: the pool removes the client and re-emits its error here.
  pool.on('error', report);
  // Checked-out connections: pg-pool drops its own listener while a client is lent out, so a
  // connection that dies mid-transaction would emit 'error' with nobody listening.
  pool.on('connect', (client) => {
    client.on('error', report);
    markQueryErrors(client);
  });
  markErrorsOf(pool);
  return pool;
}

/** Logs one line per change of reason, so an outage of many connections does not flood the log. */
function connectionErrorLogger(log: Logger): (err: Error) => void {
  let last = '';
  let lastAt = 0;
  return (err: Error) => {
    const now = Date.now();
    if (err.message === last && now - lastAt < 10_000) return;
    last = err.message;
    lastAt = now;
    log.warn({ err }, 'PostgreSQL connection lost; the pool reconnects on the next query');
  };
}

/**
 * pool.connect and pool.query: a bare socket error (ECONNREFUSED, ECONNRESET) carries no
 * protocol, so it is marked as PostgreSQL's here, where it is known.
 */
function markErrorsOf(pool: pg.Pool): void {
  type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;
  const connect = pool.connect.bind(pool) as (callback?: ConnectCallback) => Promise<pg.PoolClient> | undefined;
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  const patched = pool as unknown as { connect: typeof connect; query: typeof query };
  // pg-pool's own query() calls this.connect(callback), so the callback form is covered too.
  patched.connect = (callback) =>
    callback
      ? connect((err, client, done) => callback(err && markPostgres(err), client, done))
      : connect()!.catch((err: unknown) => Promise.reject(markPostgres(err)));
  patched.query = (...args) => {
    const result = query(...args);
    return result instanceof Promise ? result.catch((err: unknown) => Promise.reject(markPostgres(err))) : result;
  };
}

/** The same for queries on a checked-out client (transactions, consumers), where a dead socket shows as ECONNRESET. */
function markQueryErrors(client: pg.ClientBase): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: typeof query }).query = (...args) => {
    const result = query(...args);
    return result instanceof Promise ? result.catch((err: unknown) => Promise.reject(markPostgres(err))) : result;
  };
}

function markPostgres<E>(err: E): E {
  return isNetworkError(err) ? markUnavailable(err, 'postgres') : err;
}

let defaultLog: Logger | undefined;
function fallbackLog(): Logger {
  defaultLog ??= createLogger('postgres');
  return defaultLog;
}

export interface TransactionOptions {
  /** PostgreSQL's default, read committed, when not given. */
  isolation?: 'read committed' | 'repeatable read' | 'serializable';
  /** A transaction that may only read (PostgreSQL refuses its writes). */
  readOnly?: boolean;
  /**
   * A first statement sent with BEGIN in the same round trip (a simple query: literals only,
   * no parameters), e.g. taking an advisory lock. Its result is `work`'s second argument.
   * Each round trip costs both processes a wake-up on loopback, which is most of a short
   * transaction's time here (docs/adr/0025).
   */
  atBegin?: string;
}

/**
 * Runs `work` in one transaction on one connection: committed when it resolves, rolled back
 * when it throws (and the error rethrown).
 */
export async function withTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient, atBegin: pg.QueryResult | undefined) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const client = await pool.connect();
  let released = false;
  try {
    const atBegin = await begin(client, options);
    const result = await work(client, atBegin);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    const lost = unavailableDependency(markPostgres(err)) === 'postgres';
    // A connection that is gone is not rolled back (it cannot be) and not put back in the pool.
    if (!lost) await client.query('ROLLBACK').catch(() => undefined);
    released = true;
    client.release(lost ? (err instanceof Error ? err : true) : undefined);
    throw err;
  } finally {
    if (!released) client.release();
  }
}

function beginStatement({ isolation, readOnly }: TransactionOptions): string {
  return ['BEGIN', isolation && `ISOLATION LEVEL ${isolation.toUpperCase()}`, readOnly && 'READ ONLY'].filter(Boolean).join(' ');
}

/**
 * BEGIN, and `options.atBegin` in the same round trip: the result of that statement, if any.
 * A statement that fails leaves the transaction aborted; the caller's ROLLBACK ends it.
 */
export async function begin(client: pg.ClientBase, options: TransactionOptions = {}): Promise<pg.QueryResult | undefined> {
  if (!options.atBegin) {
    await client.query(beginStatement(options));
    return undefined;
  }
  // A simple query of several statements answers with one result per statement.
  const results = (await client.query(`${beginStatement(options)}; ${options.atBegin}`)) as unknown as pg.QueryResult[];
  return results[1];
}

/** Migrations every service carries: the outbox and processed_events of the bus. */
const PLATFORM_MIGRATIONS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../migrations',
);

/**
 * Brings the service's schema up to date: the platform's migrations (outbox,
 * processed_events) then the service's own, in one ordered history per schema.
 */
export async function runMigrations(options: {
  databaseUrl: string;
  schema: string;
  dir: string;
  log?: Logger;
  /**
   * How long to wait for PostgreSQL when it is not reachable (refused, starting up, shutting
   * down), retrying with a capped backoff; forever when not given, so a service started
   * during an outage comes up once the database does instead of exiting.
   */
  maxWaitMs?: number;
}): Promise<void> {
  assertSchemaName(options.schema);
  const log = options.log;
  const deadline = Date.now() + (options.maxWaitMs ?? Infinity);
  for (let attempt = 1; ; attempt++) {
    try {
      await waitForDatabase(options.databaseUrl, { ...(log ? { log } : {}), deadline });
      await migrate(options);
      return;
    } catch (err) {
      // The database went away between the wait and the migration: wait for it again.
      if (!isDatabaseAway(err) || Date.now() >= deadline || attempt >= 10) throw err;
      log?.warn({ err, attempt }, 'PostgreSQL went away while migrating; waiting for it again');
    }
  }
}

async function migrate(options: { databaseUrl: string; schema: string; dir: string; log?: Logger }): Promise<void> {
  const log = options.log;
  await runner({
    databaseUrl: options.databaseUrl,
    dir: [`${PLATFORM_MIGRATIONS_DIR}/*.sql`, `${options.dir}/*.{sql,ts,js}`],
    useGlob: true,
    direction: 'up',
    migrationsTable: 'pgmigrations',
    schema: options.schema,
    createSchema: true,
    migrationsSchema: options.schema,
    createMigrationsSchema: true,
    checkOrder: false,
    // Services start together against one database: each schema has its own advisory lock,
    // and a second process migrating the same schema waits for the first instead of failing.
    lockValue: migrationLockId(options.schema),
    advisoryLockMode: 'wait',
    logger: {
      info: (m: string) => log?.debug(m),
      warn: (m: string) => log?.warn(m),
      error: (m: string) => log?.error(m),
      debug: (m: string) => log?.trace(m),
    },
  });
}

const WAIT_FIRST_DELAY_MS = 250;
const WAIT_MAX_DELAY_MS = 5000;

/**
 * Resolves once PostgreSQL at `databaseUrl` accepts a connection. While it is away (refused,
 * reset, starting up, shutting down) it retries with a capped backoff and logs one line per
 * attempt saying what it waits for; any other failure (a wrong password, a missing database)
 * is thrown at once, since waiting cannot mend it. Past `deadline` (epoch ms) it throws too.
 */
async function waitForDatabase(databaseUrl: string, options: { log?: Logger; deadline?: number } = {}): Promise<void> {
  const deadline = options.deadline ?? Infinity;
  for (let attempt = 1; ; attempt++) {
    const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
    client.on('error', () => undefined); // the failed connect() below reports it
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      if (attempt > 1) options.log?.info({ database: describeDatabase(databaseUrl) }, 'PostgreSQL is reachable');
      return;
    } catch (err) {
      await client.end().catch(() => undefined);
      if (!isDatabaseAway(err) || Date.now() >= deadline) throw err;
      const delay = Math.min(WAIT_MAX_DELAY_MS, WAIT_FIRST_DELAY_MS * 2 ** (attempt - 1));
      options.log?.warn(
        { database: describeDatabase(databaseUrl), attempt, retryInMs: delay, reason: err instanceof Error ? err.message || String((err as { code?: unknown }).code) : String(err) },
        'waiting for PostgreSQL',
      );
      await new Promise((resolve) => setTimeout(resolve, Math.min(delay, Math.max(0, deadline - Date.now()))));
    }
  }
}

function isDatabaseAway(err: unknown): boolean {
  return unavailableDependency(markPostgres(err)) === 'postgres';
}

/** host:port/database without credentials, for log lines. */
function describeDatabase(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'the configured database';
  }
}

export async function pingDatabase(pool: pg.Pool): Promise<void> {
  await pool.query('select 1');
}

/** A stable advisory-lock id per schema (48 bits of its hash, a safe integer). */
function migrationLockId(schema: string): number {
  return createHash('sha256').update(`warmline-migrations:${schema}`).digest().readUIntBE(0, 6);
}

function assertSchemaName(schema: string): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid schema name: ${schema}`);
}
