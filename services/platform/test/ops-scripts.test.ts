import { createPublicKey, type KeyObject } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrations } from '../src/db/index';
import amqp from 'amqplib';
import { brokerManifest } from '@warmline/contracts';
import { privateKeyOf, publicKeyOf, servicePublicKeysOf } from '../src/keys';
import { createTestDatabase, TEST_AMQP_URL, uniqueName, type TestDatabase } from '../src/testing/index';
import { deleteBusNames } from '../src/testing/system';
import { serviceMigrations } from '../../../infra/scripts/migrations';

/** The scripts behind `make start`: infra/scripts/env.sh and infra/scripts/migrate.ts. */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
// The importer (schemaOf catalog) shares the catalog's schema: only entries with their own.
const services = (
  JSON.parse(await readFile(path.join(ROOT, 'infra/services.json'), 'utf8')) as { services: Array<{ name: string; schemaOf?: string }> }
).services.filter((s) => s.schemaOf === undefined);

function run(command: string, args: string[], env: Record<string, string>) {
  return spawnSync(command, args, {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
  });
}

describe('infra/scripts/env.sh', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'wl-env-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const printEnv = ['bash', '-c', 'printf "%s\\n" "$IDENTITY_PRIVATE_KEY" "$SESSION_SECRET" "$ADMIN_USERNAME" "$ADMIN_PASSWORD" "$DEMO_AGENT_PASSWORD"'];

  it('when run the first time, then it writes random secrets and passwords readable only by the owner, and later runs reuse them', async () => {
    const file = path.join(dir, 'first.env');
    const first = run('infra/scripts/env.sh', printEnv, { WARMLINE_ENV_FILE: file });
    expect(first.status).toBe(0);
    const [identity, session, admin, adminPassword, agentPassword] = first.stdout.trim().split('\n');
    expect(() => privateKeyOf(identity!)).not.toThrow();
    expect(session).toMatch(/^[0-9a-f]{64}$/);
    expect(session).not.toBe(identity);
    expect(admin).toBe('admin');
    expect(adminPassword!.length).toBeGreaterThanOrEqual(12);
    expect(agentPassword!.length).toBeGreaterThanOrEqual(12);
    expect((await stat(file)).mode & 0o077).toBe(0);

    const second = run('infra/scripts/env.sh', printEnv, { WARMLINE_ENV_FILE: file });
    expect(second.stdout).toBe(first.stdout);
  });

  it('when run, then it never writes ALLOW_TEST_PAYMENTS (production takes test payments only when an operator sets it)', async () => {
    const file = path.join(dir, 'no-test-payments.env');
    const result = run('infra/scripts/env.sh', ['bash', '-c', 'printf "%s" "${ALLOW_TEST_PAYMENTS-unset}"'], { WARMLINE_ENV_FILE: file });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('unset');
    expect(await readFile(file, 'utf8')).not.toMatch(/^\s*(export\s+)?ALLOW_TEST_PAYMENTS\s*=/m);
  });

  // What env.sh never invents: the operator's own mail server (compose requires it in production).
  const OPERATOR_SETTINGS = { SMTP_URL: 'smtps://warmline:secret@smtp.example.com:465' };

  it('when its file is given to docker-compose, then every secret the compose file requires is there', () => {
    const file = path.join(dir, 'compose.env');
    expect(run('infra/scripts/env.sh', [], { WARMLINE_ENV_FILE: file }).status).toBe(0);
    const config = run('docker-compose', ['-f', 'docker-compose.yml', '--env-file', file, 'config', '--quiet'], OPERATOR_SETTINGS);
    expect(config.stderr).toBe('');
    expect(config.status).toBe(0);
  });

  it('when a file written before the compose secrets existed is used, then the missing ones are added and nothing else changes', async () => {
    const file = path.join(dir, 'older.env');
    const older = 'IDENTITY_SECRET=old-identity\nSESSION_SECRET=old-session\nADMIN_USERNAME=admin\nADMIN_PASSWORD=old-admin-pw\nPAYMENT_PROVIDER=sandbox\n';
    await writeFile(file, older, { mode: 0o600 });
    const result = run('infra/scripts/env.sh', ['bash', '-c', 'printf "%s\\n" "$ADMIN_PASSWORD" "$POSTGRES_PASSWORD" "$RABBITMQ_ANALYST_PASSWORD"'], { WARMLINE_ENV_FILE: file });
    expect(result.status).toBe(0);
    const [adminPassword, postgresPassword, analystPassword] = result.stdout.trim().split('\n');
    expect(adminPassword).toBe('old-admin-pw');
    expect(postgresPassword).toMatch(/^[0-9a-f]{32,}$/);
    expect(analystPassword).toMatch(/^[0-9a-f]{32,}$/);
    const now = await readFile(file, 'utf8');
    expect(now.startsWith(older)).toBe(true);
    expect(now).not.toMatch(/^\s*(export\s+)?ALLOW_TEST_PAYMENTS\s*=/m);
    const config = run('docker-compose', ['-f', 'docker-compose.yml', '--env-file', file, 'config', '--quiet'], OPERATOR_SETTINGS);
    expect(config.stderr).toBe('');
    expect(config.status).toBe(0);
  });

  it("when run, then the identity keys fit together: the gateway's pair, and each calling service's key listed by its public half; an older file gets them added", async () => {
    const printKeys = ['bash', '-c', 'printf "%s\\n" "$IDENTITY_PRIVATE_KEY" "$IDENTITY_PUBLIC_KEY" "$CATALOG_SERVICE_KEY" "$ORDERS_SERVICE_KEY" "$TRANSFERS_SERVICE_KEY" "$SERVICE_PUBLIC_KEYS"'];
    const older = path.join(dir, 'older-with-identity-secret.env');
    await writeFile(older, 'IDENTITY_SECRET=old-identity\nADMIN_PASSWORD=old-admin-pw\n', { mode: 0o600 });
    const result = run('infra/scripts/env.sh', printKeys, { WARMLINE_ENV_FILE: older });
    expect(result.status).toBe(0);
    const [gatewayPrivate, gatewayPublic, catalog, orders, transfers, listed] = result.stdout.trim().split('\n');
    const spki = (key: KeyObject) => key.export({ format: 'der', type: 'spki' }).toString('base64');
    expect(spki(createPublicKey(privateKeyOf(gatewayPrivate!)))).toBe(spki(publicKeyOf(gatewayPublic!)));
    const callers = servicePublicKeysOf(listed!);
    expect([...callers.keys()]).toEqual(['catalog', 'orders', 'transfers']);
    for (const [name, key] of [['catalog', catalog], ['orders', orders], ['transfers', transfers]] as const) {
      expect(spki(callers.get(name)!)).toBe(spki(createPublicKey(privateKeyOf(key!))));
    }
    expect(run('infra/scripts/env.sh', printKeys, { WARMLINE_ENV_FILE: older }).stdout).toBe(result.stdout);
  });

  it('when run, then it writes a demo vendor key once (make seed registers it) and adds one to a file written before it existed', async () => {
    const printKey = ['bash', '-c', 'printf "%s" "$DEMO_VENDOR_KEY"'];
    const file = path.join(dir, 'vendor-key.env');
    const first = run('infra/scripts/env.sh', printKey, { WARMLINE_ENV_FILE: file });
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^wlv_[0-9a-f]{48}$/);
    expect(run('infra/scripts/env.sh', printKey, { WARMLINE_ENV_FILE: file }).stdout).toBe(first.stdout);

    const older = path.join(dir, 'older-without-vendor-key.env');
    await writeFile(older, 'IDENTITY_SECRET=old-identity\nADMIN_PASSWORD=old-admin-pw\n', { mode: 0o600 });
    const added = run('infra/scripts/env.sh', printKey, { WARMLINE_ENV_FILE: older });
    expect(added.stdout).toMatch(/^wlv_[0-9a-f]{48}$/);
    expect(added.stdout).not.toBe(first.stdout);
    expect((await readFile(older, 'utf8')).startsWith('IDENTITY_SECRET=old-identity\nADMIN_PASSWORD=old-admin-pw\n')).toBe(true);
  });

  it('when a variable is already set in the shell, then the shell value wins over the file', () => {
    const file = path.join(dir, 'shell-wins.env');
    const result = run('infra/scripts/env.sh', printEnv, { WARMLINE_ENV_FILE: file, ADMIN_USERNAME: 'boss', ADMIN_PASSWORD: 'from-the-shell' });
    expect(result.status).toBe(0);
    const [, , admin, adminPassword] = result.stdout.trim().split('\n');
    expect(admin).toBe('boss');
    expect(adminPassword).toBe('from-the-shell');
  });
});

describe('infra/scripts/migrate.ts', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('wl_ops_migrate');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('when run with --broker-only (the Kubernetes migration Job), then the broker layout of the manifest exists in BUS_NAMESPACE and no database is touched', async () => {
    const namespace = uniqueName('t').toLowerCase();
    try {
      const result = run(TSX, ['infra/scripts/migrate.ts', '--broker-only'], { AMQP_URL: TEST_AMQP_URL, BUS_NAMESPACE: namespace, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', LOG_LEVEL: 'warn' });
      expect(result.status, result.stderr).toBe(0);
      const connection = await amqp.connect(TEST_AMQP_URL);
      try {
        const ch = await connection.createChannel();
        for (const q of brokerManifest.queues) expect((await ch.checkQueue(`${namespace}.${q.queue}`)).queue).toBe(`${namespace}.${q.queue}`);
        await ch.close();
      } finally {
        await connection.close();
      }
    } finally {
      await deleteBusNames(namespace);
    }
  });

  // Two runs of a tsx script, each creating the schemas' roles too (docs/adr/0043): beyond the default 30 s on a busy machine.
  it('when run against an empty database, then every service of infra/services.json has its schema migrated, and a second run changes nothing', async () => {
    const first = run(TSX, ['infra/scripts/migrate.ts', '--database-only'], { DATABASE_URL: db.url, LOG_LEVEL: 'warn' });
    expect(first.stderr + first.stdout).not.toMatch(/"level":(50|60)/);
    expect(first.status).toBe(0);

    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const counts = async () => {
        const found: Record<string, number> = {};
        for (const { name } of services) {
          const r = await client.query(`SELECT count(*)::int AS n FROM ${name}.pgmigrations`);
          found[name] = (r.rows[0] as { n: number }).n;
        }
        return found;
      };
      const before = await counts();
      // Each schema holds at least the platform's outbox migration and one of its own.
      for (const { name } of services) expect(before[name], name).toBeGreaterThanOrEqual(2);

      const second = run(TSX, ['infra/scripts/migrate.ts', '--database-only'], { DATABASE_URL: db.url, LOG_LEVEL: 'warn' });
      expect(second.status).toBe(0);
      expect(await counts()).toEqual(before);
    } finally {
      await client.end();
    }
  }, 120_000);
});

describe('migrations when every service starts at once', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('wl_ops_parallel');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('when every service, twice over, migrates the same database at the same moment, then all of them succeed', async () => {
    const all = await serviceMigrations();
    // `make start` runs every service at once and each migrates at start; two replicas of one
    // service would also race on the same schema.
    const runs = [...all, ...all].map((m) => runMigrations({ databaseUrl: db.url, schema: m.schema, dir: m.dir, roles: {} }));
    const results = await Promise.allSettled(runs);
    const failures = results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
    expect(failures).toEqual([]);
  });
});
