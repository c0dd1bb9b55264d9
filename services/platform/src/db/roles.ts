import pg from 'pg';

/**
 * The two PostgreSQL roles of a schema (docs/adr/0043): its owner, which owns the schema and
 * every object in it and runs its migrations (NOLOGIN: the migration step, connected as the
 * superuser, becomes it with SET ROLE), and the app role its processes log in as: USAGE on that
 * schema, SELECT/INSERT/UPDATE/DELETE on its tables, nothing else (no CREATE, no other schema).
 * The importer shares the catalog's schema and so its app role.
 */
export function schemaRoles(schema: string): { owner: string; app: string } {
  return { owner: `warmline_${schema}_owner`, app: `warmline_${schema}` };
}

const id = (name: string) => pg.escapeIdentifier(name);

/**
 * Creates the schema's roles and the schema itself, owned by its owner role, and hands the owner
 * whatever the schema already holds (a database migrated before ADR 0043, by the superuser).
 * Idempotent; needs the superuser. Roles are the cluster's, shared by every database: two
 * databases bootstrapped at once (tests) may both try to create one, and the loser carries on.
 * `appPassword` (compose, Kubernetes) is set on the app role when given; locally trust needs none.
 */
export async function bootstrapSchemaRoles(client: pg.ClientBase, schema: string, appPassword?: string): Promise<void> {
  const { owner, app } = schemaRoles(schema);
  await createRole(client, owner, 'NOLOGIN');
  await createRole(client, app, 'LOGIN');
  if (appPassword) await client.query(`ALTER ROLE ${id(app)} PASSWORD ${pg.escapeLiteral(appPassword)}`);
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${id(schema)} AUTHORIZATION ${id(owner)}`);
  await client.query(`ALTER SCHEMA ${id(schema)} OWNER TO ${id(owner)}`);
  await client.query(reownStatement(schema, owner));
  // pg_trgm is the database's, not a schema's: created here, by the superuser, so a migration's
  // CREATE EXTENSION IF NOT EXISTS finds it (the same lock as those migrations take).
  await client.query(`BEGIN; SELECT pg_advisory_xact_lock(hashtext('warmline:create-extension:pg_trgm')); CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public; COMMIT`);
  await client.query(`GRANT USAGE ON SCHEMA ${id(schema)} TO ${id(app)}`);
  // Tables and sequences later migrations add (created by the owner) are the app role's to use.
  await client.query(`ALTER DEFAULT PRIVILEGES FOR ROLE ${id(owner)} IN SCHEMA ${id(schema)} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${id(app)}`);
  await client.query(`ALTER DEFAULT PRIVILEGES FOR ROLE ${id(owner)} IN SCHEMA ${id(schema)} GRANT USAGE, SELECT ON SEQUENCES TO ${id(app)}`);
}

/**
 * The app role's grants on what the schema holds now (its default privileges cover what the
 * owner adds later; this covers what was there before). The migration history is read-only to
 * it: a service checks it is current, only the migration step writes it.
 */
export async function grantAppRole(client: pg.ClientBase, schema: string): Promise<void> {
  const { app } = schemaRoles(schema);
  await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${id(schema)} TO ${id(app)}`);
  await client.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${id(schema)} TO ${id(app)}`);
  await client.query(`REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON TABLE ${id(schema)}.pgmigrations FROM ${id(app)}`);
}

async function createRole(client: pg.ClientBase, role: string, login: 'LOGIN' | 'NOLOGIN'): Promise<void> {
  const { rows } = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
  if (rows.length > 0) return;
  try {
    await client.query(`CREATE ROLE ${id(role)} ${login} NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT`);
  } catch (err) {
    // 42710 duplicate_object, 23505 unique_violation: another bootstrap created it meanwhile.
    const code = (err as { code?: unknown }).code;
    if (code !== '42710' && code !== '23505') throw err;
  }
}

/** Gives the owner role every table, view, sequence, function and enum of the schema it does not own yet. */
function reownStatement(schema: string, owner: string): string {
  const s = pg.escapeLiteral(schema);
  const o = pg.escapeLiteral(owner);
  return `DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ${s} AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S') AND c.relowner <> ${o}::regrole
      -- sequences of a serial or identity column follow their table
      AND NOT (c.relkind = 'S' AND EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('a', 'i')))
    ORDER BY c.relkind = 'S'
  LOOP
    EXECUTE format('ALTER %s %I.%I OWNER TO %I',
      CASE r.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE' WHEN 'S' THEN 'SEQUENCE' ELSE 'TABLE' END,
      ${s}, r.relname, ${o});
  END LOOP;
  FOR r IN SELECT p.oid::regprocedure AS fn FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = ${s} AND p.proowner <> ${o}::regrole
  LOOP
    EXECUTE format('ALTER ROUTINE %s OWNER TO %I', r.fn, ${o});
  END LOOP;
  FOR r IN SELECT t.oid::regtype AS ty FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
    WHERE n.nspname = ${s} AND t.typtype = 'e' AND t.typowner <> ${o}::regrole
  LOOP
    EXECUTE format('ALTER TYPE %s OWNER TO %I', r.ty, ${o});
  END LOOP;
END $$`;
}
