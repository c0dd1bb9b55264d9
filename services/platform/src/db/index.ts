import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { runner } from 'node-pg-migrate';
import { isNetworkError, markUnavailable, unavailableDependency } from '../faults';
import { createLogger, type Logger } from '../log';
import { bootstrapSchemaRoles, grantAppRole, schemaRoles } from './roles';

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
export function createPool(databaseUrl: string, schema: string, max = 10, log: Logger = fallbackLog(), options: { asAppRole?: boolean } = {}): pg.Pool {
  assertSchemaName(schema);
  // asAppRole: every connection acts as the schema's app role (docs/adr/0043), whatever user
  // the URL names; a no-op where the URL is that role's own, as in production, and where it is
  // the superuser's (tests starting services in-process) the grants are the role's all the same.
  const role = options.asAppRole ? ` -c role=${schemaRoles(schema).app}` : '';
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max,
    options: `-c search_path=${schema},public${role}`,
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
 * What to do once a transaction commits, for the transactions this module runs (withTransaction,
 * inTransaction) and those the bus's consumers run: keyed by the client, and by any stand-in the
 * client is lent as. The outbox relay hears its writers' commits this way instead of polling for
 * rows that have not committed yet (docs/adr/0055).
 */
const commitHooks = new WeakMap<object, Array<() => void>>();

/**
 * Runs `hook` once the transaction `db` is in commits (never if it rolls back). False when `db`
 * is not in a transaction whose end is known here: the pool (each query commits on its own), or
 * a client on which the caller sent BEGIN itself.
 */
export function afterCommit(db: Queryable, hook: () => void): boolean {
  const hooks = commitHooks.get(db);
  if (!hooks) return false;
  hooks.push(hook);
  return true;
}

/** The commit hooks of one transaction, for code that sends its own BEGIN and COMMIT (the bus's consumers). */
export interface TransactionEnd {
  /** A stand-in for the client (a wrapper lent to a handler) that belongs to the same transaction. */
  lend(db: object): void;
  /** COMMIT succeeded: the hooks run (once). */
  committed(): void;
  /** Rolled back, or lost: the hooks are dropped. */
  ended(): void;
}

export function transactionEnd(client: pg.ClientBase): TransactionEnd {
  const hooks: Array<() => void> = [];
  const keys: object[] = [client];
  commitHooks.set(client, hooks);
  const forget = () => {
    for (const key of keys) if (commitHooks.get(key) === hooks) commitHooks.delete(key);
  };
  return {
    lend(db) {
      keys.push(db);
      commitHooks.set(db, hooks);
    },
    committed() {
      forget();
      for (const hook of hooks.splice(0)) hook();
    },
    ended() {
      forget();
      hooks.length = 0;
    },
  };
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
  const end = transactionEnd(client);
  try {
    const atBegin = await begin(client, options);
    const result = await work(client, atBegin);
    await client.query('COMMIT');
    end.committed();
    return result;
  } catch (err) {
    end.ended();
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

/**
 * Runs `work` inside the caller's transaction under a savepoint: when it throws, only its own
 * writes are undone (and the error rethrown); the transaction goes on.
 */
export async function withSavepoint<T>(db: Queryable, name: string, work: () => Promise<T>): Promise<T> {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`savepoint name must be lower-case letters and underscores: ${name}`);
  await db.query(`SAVEPOINT ${name}`);
  try {
    const result = await work();
    await db.query(`RELEASE SAVEPOINT ${name}`);
    return result;
  } catch (err) {
    await db.query(`ROLLBACK TO SAVEPOINT ${name}`);
    throw err;
  }
}

/**
 * Runs `work` in one transaction on a connection the caller holds (a worker that keeps a
 * session-level lock across many transactions): committed when it resolves, rolled back when
 * it throws (and the error rethrown). The caller releases the connection.
 */
export async function inTransaction<T>(client: pg.PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  const end = transactionEnd(client);
  try {
    const result = await work();
    await client.query('COMMIT');
    end.committed();
    return result;
  } catch (err) {
    end.ended();
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/**
 * A session-level advisory lock on `key` for the connection the caller holds: whether it got
 * it (another connection holds it: false at once). Released by `releaseSessionLock` or when
 * the connection ends.
 */
export async function trySessionLock(client: pg.PoolClient, key: string): Promise<boolean> {
  const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok', [key]);
  return rows[0]?.ok === true;
}

export async function releaseSessionLock(client: pg.PoolClient, key: string): Promise<void> {
  await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]);
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
  /**
   * Migrate as the schema's owner role (docs/adr/0043): connected as the superuser, first
   * create the schema's roles (bootstrapSchemaRoles, with the app role's password when given),
   * then SET ROLE to the owner, so everything the migrations create is the owner's, and grant
   * the app role what the schema holds. Without it, migrations run as the connecting user.
   */
  roles?: { appPassword?: string | undefined };
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

async function migrate(options: { databaseUrl: string; schema: string; dir: string; log?: Logger; roles?: { appPassword?: string | undefined } }): Promise<void> {
  const client = new pg.Client({ connectionString: options.databaseUrl, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined); // a lost connection fails the next query, which is thrown
  await client.connect();
  try {
    if (options.roles) {
      // The runner takes this lock again on the same session (advisory locks nest): held here
      // too, two processes do not bootstrap the same schema at once either.
      await client.query('SELECT pg_advisory_lock($1)', [migrationLockId(options.schema)]);
      const { rows } = await client.query<{ rolsuper: boolean }>('SELECT rolsuper FROM pg_roles WHERE rolname = current_user');
      if (rows[0]?.rolsuper) await bootstrapSchemaRoles(client, options.schema, options.roles.appPassword);
      await client.query(`SET ROLE ${pg.escapeIdentifier(schemaRoles(options.schema).owner)}`);
    }
    await runWith(client, { ...options, createSchema: !options.roles });
    if (options.roles) await grantAppRole(client, options.schema);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** createSchema: false where the bootstrap made the schema (its owner may not CREATE SCHEMA, even IF NOT EXISTS). */
async function runWith(client: pg.Client, options: { schema: string; dir: string; log?: Logger; createSchema: boolean }): Promise<void> {
  const log = options.log;
  await runner({
    dbClient: client,
    dir: [`${PLATFORM_MIGRATIONS_DIR}/*.sql`, `${options.dir}/*.{sql,ts,js}`],
    useGlob: true,
    direction: 'up',
    migrationsTable: 'pgmigrations',
    schema: options.schema,
    createSchema: options.createSchema,
    migrationsSchema: options.schema,
    createMigrationsSchema: options.createSchema,
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

/**
 * Resolves once the schema's migration history holds every migration this code carries (the
 * platform's and the service's): where services do not migrate (docs/adr/0043), they wait here
 * for the migration step (make migrate, the Kubernetes migration Job) instead of running on a
 * schema that is behind. Logs what it waits for; waits through PostgreSQL outages too.
 */
export async function waitForMigrations(options: { databaseUrl: string; schema: string; dir: string; log?: Logger }): Promise<void> {
  assertSchemaName(options.schema);
  const expected = [...migrationNames(PLATFORM_MIGRATIONS_DIR, /\.sql$/), ...migrationNames(options.dir, /\.(sql|ts|js)$/)];
  for (let attempt = 1; ; attempt++) {
    await waitForDatabase(options.databaseUrl, options.log ? { log: options.log } : {});
    const client = new pg.Client({ connectionString: options.databaseUrl, connectionTimeoutMillis: 5000 });
    client.on('error', () => undefined);
    let missing: string[] = expected;
    let reason: string | undefined;
    try {
      await client.connect();
      const { rows } = await client.query<{ name: string }>(`SELECT name FROM ${pg.escapeIdentifier(options.schema)}.pgmigrations`);
      const applied = new Set(rows.map((r) => r.name));
      missing = expected.filter((name) => !applied.has(name));
    } catch (err) {
      // No schema or history yet (42P01, 3F000), no grant on it yet (42501), or the database
      // went away: all mended by waiting; anything else is thrown.
      const code = (err as { code?: unknown }).code;
      if (!isDatabaseAway(err) && code !== '42P01' && code !== '3F000' && code !== '42501') throw err;
      reason = err instanceof Error ? err.message : String(err);
    } finally {
      await client.end().catch(() => undefined);
    }
    if (missing.length === 0) return;
    const delay = Math.min(WAIT_MAX_DELAY_MS, WAIT_FIRST_DELAY_MS * 2 ** (attempt - 1));
    options.log?.warn(
      { schema: options.schema, missing: missing.slice(0, 5), missingCount: missing.length, attempt, retryInMs: delay, ...(reason ? { reason } : {}) },
      'waiting for the migration step (make migrate, the migration Job) to bring the schema up to date',
    );
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/** Migration names as node-pg-migrate records them: file names without their extension. */
function migrationNames(dir: string, extension: RegExp): string[] {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return [];
  }
  return files.filter((f) => extension.test(f)).map((f) => f.replace(/\.[^.]+$/, ''));
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
