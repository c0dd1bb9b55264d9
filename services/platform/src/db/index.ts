import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { runner } from 'node-pg-migrate';
import type { Logger } from '../log';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
/** Anything that can run a query: the pool, or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

// numeric stays a string (money is never a float); bigint counts become numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/**
 * A pool whose connections use the service's own schema first, so queries name tables
 * without a schema prefix and never reach into another service's schema by accident.
 */
export function createPool(databaseUrl: string, schema: string, max = 10): pg.Pool {
  assertSchemaName(schema);
  return new pg.Pool({
    connectionString: databaseUrl,
    max,
    options: `-c search_path=${schema},public`,
    connectionTimeoutMillis: 5000,
  });
}

export interface TransactionOptions {
  /** PostgreSQL's default, read committed, when not given. */
  isolation?: 'read committed' | 'repeatable read' | 'serializable';
  /** A transaction that may only read (PostgreSQL refuses its writes). */
  readOnly?: boolean;
}

/**
 * Runs `work` in one transaction on one connection: committed when it resolves, rolled back
 * when it throws (and the error rethrown).
 */
export async function withTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(beginStatement(options));
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

function beginStatement({ isolation, readOnly }: TransactionOptions): string {
  return ['BEGIN', isolation && `ISOLATION LEVEL ${isolation.toUpperCase()}`, readOnly && 'READ ONLY'].filter(Boolean).join(' ');
}

/** Migrations every service carries: the outbox and processed_events of the bus. */
export const PLATFORM_MIGRATIONS_DIR = path.resolve(
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
}): Promise<void> {
  assertSchemaName(options.schema);
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
