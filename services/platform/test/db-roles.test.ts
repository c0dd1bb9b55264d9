import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, runMigrations, waitForMigrations } from '../src/db/index';
import { schemaRoles } from '../src/db/roles';
import { createTestDatabase, uniqueName, waitFor, type TestDatabase } from '../src/testing/index';
import { capturingLogger } from '../src/testing/outage';
import { migrateAll } from '../../../infra/scripts/migrations';

const MIGRATION_WAIT = 'waiting for the migration step (make migrate, the migration Job) to bring the schema up to date';

/** Least privilege in PostgreSQL (docs/adr/0043): a role per schema owns it, an app role per service uses it. */

/** `url` with another user (local trust: no password). */
function as(url: string, user: string): string {
  const u = new URL(url);
  u.username = user;
  u.password = '';
  return u.toString();
}

async function query(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

async function refusal(work: Promise<unknown>): Promise<string | undefined> {
  try {
    await work;
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}

describe('the services’ schemas, migrated by make migrate', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('wl_db_roles');
    await migrateAll(db.url);
  }, 120_000);
  afterAll(async () => {
    await db?.drop();
  });

  it('when the catalog’s role reads the orders’ table, then PostgreSQL refuses it (permission denied), and its own tables it reads and writes', async () => {
    const catalog = as(db.url, schemaRoles('catalog').app);
    expect(await refusal(query(catalog, 'SELECT count(*) FROM orders.package_orders'))).toBe('42501');
    expect(await refusal(query(catalog, 'SELECT count(*) FROM gateway.users'))).toBe('42501');
    const own = await query(catalog, 'SELECT count(*)::int AS n FROM catalog.aged_leads');
    expect(own.rows).toEqual([{ n: 0 }]);
    await query(catalog, 'DELETE FROM catalog.outbox');
  });

  it('when a service’s role creates a table in its own schema or rewrites its migration history, then it is refused; it is no superuser', async () => {
    const orders = as(db.url, schemaRoles('orders').app);
    expect(await refusal(query(orders, 'CREATE TABLE orders.sneaky (id int)'))).toBe('42501');
    expect(await refusal(query(orders, 'CREATE TABLE public.sneaky (id int)'))).toBe('42501');
    expect(await refusal(query(orders, 'DELETE FROM orders.pgmigrations'))).toBe('42501');
    expect(await refusal(query(orders, 'DROP TABLE orders.package_orders'))).toBe('42501');
    const me = await query(orders, 'SELECT rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = current_user');
    expect(me.rows).toEqual([{ rolsuper: false, rolcreaterole: false, rolcreatedb: false }]);
    // Its schema is current, so a service started without MIGRATION_DATABASE_URL does not wait.
    await waitForMigrations({ databaseUrl: orders, schema: 'orders', dir: path.resolve('services/orders/migrations') });
  });

  it('when a service’s pool is opened on the superuser’s URL (in-process tests), then it still works as the app role', async () => {
    const pool = createPool(db.url, 'catalog', 1, undefined, { asAppRole: true });
    try {
      const { rows } = await pool.query<{ who: string }>('SELECT current_user AS who');
      expect(rows[0]?.who).toBe(schemaRoles('catalog').app);
      expect(await refusal(pool.query('SELECT 1 FROM orders.package_orders'))).toBe('42501');
    } finally {
      await pool.end();
    }
  });
});

describe('a schema’s owner role', () => {
  let db: TestDatabase;
  let dir: string;
  // Unique roles for a unique schema, dropped after: the shared server keeps none of them.
  const schema = uniqueName('roles').toLowerCase();
  const { owner, app } = schemaRoles(schema);
  beforeAll(async () => {
    db = await createTestDatabase('wl_db_owner');
    dir = await mkdtemp(path.join(os.tmpdir(), 'wl-roles-'));
  });
  afterAll(async () => {
    await db?.drop();
    await rm(dir, { recursive: true, force: true });
    for (const role of [app, owner]) await query(db.url.replace(/\/[^/]+$/, '/postgres'), `DROP ROLE IF EXISTS ${pg.escapeIdentifier(role)}`);
  });

  it('when a schema first migrated by the superuser is migrated as its owner, then the owner takes it over, later tables are the app role’s to use, and the app role waits until the migration step has run', async () => {
    await writeFile(path.join(dir, '1000_first.sql'), 'CREATE TABLE first_things (id serial PRIMARY KEY, name text);');
    // Before ADR 0043: migrated by the superuser, which owns everything.
    await runMigrations({ databaseUrl: db.url, schema, dir });
    await runMigrations({ databaseUrl: db.url, schema, dir, roles: {} });
    const owners = await query(db.url, `SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = '${schema}'`);
    expect(owners.rows).toEqual([{ tableowner: owner }]);

    const asApp = as(db.url, app);
    await query(asApp, `INSERT INTO ${schema}.first_things (name) VALUES ('a')`);

    await writeFile(path.join(dir, '1001_second.sql'), 'CREATE TABLE second_things (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text);');
    let waited = false;
    const { log, count } = capturingLogger('db-roles-test', 'warn');
    const waiting = waitForMigrations({ databaseUrl: asApp, schema, dir, log }).then(() => (waited = true));
    // Past the point: it has looked at the schema's history, found the new migration missing and is waiting.
    await waitFor('the app role to find the migration missing', () => count(MIGRATION_WAIT) > 0);
    expect(waited).toBe(false);
    // The owner may CREATE in its schema (the migration runs as it); the app role may then use the new table.
    await runMigrations({ databaseUrl: db.url, schema, dir, roles: {} });
    await waiting;
    await query(asApp, `INSERT INTO ${schema}.second_things (name) VALUES ('b')`);
    const second = await query(db.url, `SELECT tableowner FROM pg_tables WHERE schemaname = '${schema}' AND tablename = 'second_things'`);
    expect(second.rows).toEqual([{ tableowner: owner }]);
    expect(await refusal(query(asApp, `CREATE TABLE ${schema}.third (id int)`))).toBe('42501');
  });
});
