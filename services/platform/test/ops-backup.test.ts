import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASE_URL, uniqueName, type TestDatabase } from '../src/testing/index';
import { migrateAll } from '../../../infra/scripts/migrations';

/**
 * infra/backup against this machine's PostgreSQL: every service's schema migrated into a
 * scratch database with rows in it, and files in a scratch local store. The drill backs it up,
 * restores into a second scratch database and compares; restore.sh's refusals are checked on
 * their own.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const BACKUP = path.join(ROOT, 'infra/backup');

let source: TestDatabase;
let work: string;
let files: string;
const targets: TestDatabase[] = [];

function run(script: string, args: string[], env: Record<string, string>) {
  return spawnSync('bash', [path.join(BACKUP, script), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    // Only what the script is documented to read: the developer's own variables must not help.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', TMPDIR: work, ...env },
    timeout: 120_000,
  });
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** A fresh backup of the source into its own directory; returns the directory. */
function backUp(): string {
  const result = run('backup.sh', [mkdtempSync(path.join(work, 'backups-'))], { DATABASE_URL: source.url, BLOB_STORE: 'local', BLOB_DIR: files });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout.trim();
}

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'wl-backup-'));
  source = await createTestDatabase('wl_backup');
  await migrateAll(source.url);
  // Rows in several schemas, with text that survives only an exact copy (quotes, newlines,
  // non-ASCII), JSON, NULLs and a sequence's position.
  await query(
    source.url,
    `INSERT INTO gateway.users (username, email, password_hash, first_name, last_name)
     VALUES ('ann', 'ann@example.com', 'hash-1', 'Ann "the" ☎', E'two\\nlines'), ('bob', 'bob@example.com', 'hash-2', '', 'O''Neil')`,
  );
  for (const schema of ['gateway', 'orders', 'notifications']) {
    await query(
      source.url,
      `INSERT INTO ${schema}.outbox (id, exchange, routing_key, envelope, last_error)
       SELECT gen_random_uuid(), 'warmline.events', 'user.registered', jsonb_build_object('n', n, 'name', 'Zoë'), NULL
       FROM generate_series(1, 25) AS n`,
    );
  }
  files = path.join(work, 'files');
  mkdirSync(path.join(files, 'lead-imports'), { recursive: true });
  writeFileSync(path.join(files, 'lead-imports', 'upload.csv'), 'first_name,phone\nAnn,5125550100\n');
  writeFileSync(path.join(files, 'document.pdf'), randomBytes(200_000));
});

afterAll(async () => {
  for (const target of targets) await target.drop();
  await source?.drop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('infra/backup: the restore drill', () => {
  it('when the drill runs on a database with every schema and a file store, then the restore matches table by table and file by file, and the scratch database is gone', async () => {
    const scratch = uniqueName('wl_drill').toLowerCase();
    const result = run('drill.sh', [], { DATABASE_URL: source.url, BLOB_STORE: 'local', BLOB_DIR: files, DRILL_DATABASE: scratch });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const [, tables, rows, restoredFiles] = /(\d+) tables and sequences, (\d+) rows and (\d+) files match/.exec(result.stdout) ?? [];
    const expected = await query<{ n: number }>(
      source.url,
      `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind IN ('r', 'S') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'`,
    );
    expect(Number(tables)).toBe(expected[0]!.n);
    // 2 users, 75 outbox rows, and every schema's applied migrations.
    expect(Number(rows)).toBeGreaterThan(77);
    expect(Number(restoredFiles)).toBe(2);
    const left = await query(TEST_DATABASE_URL, 'SELECT 1 FROM pg_database WHERE datname = $1', [scratch]);
    expect(left).toEqual([]);
  });

  it('when the backup is read, then it holds every service schema, its checksums from one snapshot and the files', () => {
    const dir = backUp();
    const tables = readFileSync(path.join(dir, 'tables.txt'), 'utf8');
    for (const schema of ['gateway', 'catalog', 'orders', 'partners', 'ingestion', 'transfers', 'notifications']) {
      expect(tables, schema).toContain(`${schema}.outbox|`);
    }
    expect(tables).toMatch(/^gateway\.users\|2\|[0-9a-f]{32}$/m);
    const sums = readFileSync(path.join(dir, 'SHA256SUMS'), 'utf8');
    expect(sums).toContain('./blobs/lead-imports/upload.csv');
    expect(sums).toContain('./database.dump');
  });
});

describe('infra/backup: restore.sh refuses what it cannot restore faithfully', () => {
  const restoreInto = async (dir: string) => {
    const target = await createTestDatabase('wl_restore');
    targets.push(target);
    return { target, result: run('restore.sh', [dir], { DATABASE_URL: target.url, BLOB_STORE: 'local', BLOB_DIR: path.join(work, uniqueName('restored')) }) };
  };

  it('when the dump does not match its SHA256SUMS, then nothing is restored', async () => {
    const dir = backUp();
    appendFileSync(path.join(dir, 'database.dump'), 'x');
    const { target, result } = await restoreInto(dir);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/does not match its SHA256SUMS/);
    expect(await query(target.url, "SELECT 1 FROM pg_namespace WHERE nspname = 'gateway'")).toEqual([]);
  });

  it('when the target database already holds tables, then it is refused', async () => {
    const dir = backUp();
    const result = run('restore.sh', [dir], { DATABASE_URL: source.url, BLOB_STORE: 'local', BLOB_DIR: path.join(work, 'unused') });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/already holds \d+ tables; restore into an empty one/);
  });

  it('when a restored table differs from the backup\'s checksums, then the restore fails naming it', async () => {
    const dir = backUp();
    // The checksum file says one row more than the dump holds (its SHA-256 made to agree).
    const tablesFile = path.join(dir, 'tables.txt');
    writeFileSync(tablesFile, readFileSync(tablesFile, 'utf8').replace(/^gateway\.users\|2\|/m, 'gateway.users|3|'));
    const sum = `${createHash('sha256').update(readFileSync(tablesFile)).digest('hex')}  ./tables.txt`;
    const sumsFile = path.join(dir, 'SHA256SUMS');
    writeFileSync(sumsFile, readFileSync(sumsFile, 'utf8').replace(/^[0-9a-f]{64} {2}\.\/tables\.txt$/m, sum));
    const { result } = await restoreInto(dir);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/the restored database differs from the backup: gateway\.users$/m);
  });
});
