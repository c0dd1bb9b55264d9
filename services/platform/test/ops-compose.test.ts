import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { brokerManifest, COMMANDS_EXCHANGE, EVENTS_EXCHANGE } from '@warmline/contracts';
import { ANALYST_QUEUE_PREFIX, refusedDurableQueue } from '../src/bus/tap';
import { TEST_KEYS } from '../src/testing/index';

/**
 * docker-compose.yml is checked with Debian's docker-compose, which validates and resolves
 * the file without a Docker engine. `make test` installs it; a missing binary fails here.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const COMPOSE_FILE = path.join(ROOT, 'docker-compose.yml');
const listed = (
  JSON.parse(readFileSync(path.join(ROOT, 'infra/services.json'), 'utf8')) as {
    services: Array<{ name: string; port: number; portEnv: string; entry?: string; schemaOf?: string }>;
  }
).services;

/** The broker's users: the operator's admin, one per process of infra/services.json, and the analysts' read-only one. */
const BROKER_USERS = ['admin', ...listed.map((s) => s.name), 'analyst'];
const brokerPasswordVar = (user: string) => `RABBITMQ_${user.toUpperCase()}_PASSWORD`;

/** Each schema has its app role (docs/adr/0043); the importer shares the catalog's. */
const SCHEMAS = listed.filter((s) => s.schemaOf === undefined).map((s) => s.name);
/** The services that store files in MinIO, each as its own MinIO user. */
const FILE_STORES = ['catalog', 'importer', 'partners'];

const SECRETS: Record<string, string> = {
  ...TEST_KEYS,
  SESSION_SECRET: 'compose-test-session-secret-0123456789',
  ADMIN_USERNAME: 'admin',
  ADMIN_PASSWORD: 'compose-test-password',
  PAYMENT_PROVIDER: 'sandbox',
  POSTGRES_PASSWORD: 'compose-test-postgres-password',
  REDIS_PASSWORD: 'compose-test-redis-password',
  MINIO_ROOT_USER: 'compose-test-minio-user',
  MINIO_ROOT_PASSWORD: 'compose-test-minio-password',
  SMTP_URL: 'smtps://warmline:compose-test-smtp-password@smtp.example.com:465',
  REDIS_GATEWAY_PASSWORD: 'compose-test-redis-gateway-password',
  ...Object.fromEntries(SCHEMAS.map((schema) => [`POSTGRES_${schema.toUpperCase()}_PASSWORD`, `compose-test-postgres-${schema}-password`])),
  ...Object.fromEntries(FILE_STORES.map((name) => [`MINIO_${name.toUpperCase()}_SECRET_KEY`, `compose-test-minio-${name}-secret`])),
  ...Object.fromEntries(BROKER_USERS.map((user) => [brokerPasswordVar(user), `compose-test-broker-${user}-password`])),
};

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile?: string; args?: Record<string, string> };
  healthcheck?: { test?: string[] | string; disable?: boolean };
  restart?: string;
  labels?: Record<string, string>;
  /** docker-compose 1.x prints host-bound ports in short form ('127.0.0.1:5432:5432/tcp'). */
  ports?: Array<string | { published?: number | string; target: number; host_ip?: string }>;
  environment?: Record<string, string | null>;
  command?: string[] | string;
  entrypoint?: string[] | string;
  volumes?: Array<string | { source?: string; target: string }>;
  depends_on?: Record<string, { condition?: string }> | string[];
  deploy?: { replicas?: number };
  container_name?: string;
  stop_grace_period?: string;
  profiles?: string[];
}

function dockerCompose(args: string[], env: Record<string, string>) {
  const pathEnv = process.env.PATH ?? '';
  const result = spawnSync('docker-compose', args, {
    cwd: ROOT,
    encoding: 'utf8',
    // Only PATH and what the test gives: the developer's own shell variables must not help.
    env: { PATH: pathEnv, HOME: process.env.HOME ?? '/tmp', ...env },
  });
  if (result.error && (result.error as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new Error("docker-compose is not installed; `make test` installs it (apt-get install -y docker-compose)");
  }
  return result;
}

function resolvedConfig(): Record<string, ComposeService> {
  const result = dockerCompose(['-f', COMPOSE_FILE, 'config'], SECRETS);
  expect(result.stderr).not.toMatch(/error/i);
  expect(result.status).toBe(0);
  return (parse(result.stdout) as { services: Record<string, ComposeService> }).services;
}

/** Services that run once and exit (migrations, seeds) are marked with this label. */
const isOneShot = (s: ComposeService) => s.labels?.['com.warmline.one-shot'] === 'true';

/** Every published port as service:port with the address it binds to ('' = every interface). */
function publishedPorts(services: Record<string, ComposeService>) {
  const published = (p: string | { published?: number | string; host_ip?: string }) => {
    if (typeof p !== 'string') return { hostIp: p.host_ip ?? '', port: String(p.published) };
    const parts = p.replace(/\/\w+$/, '').split(':');
    return parts.length === 3 ? { hostIp: parts[0]!, port: parts[1]! } : { hostIp: '', port: parts[0]! };
  };
  return Object.entries(services).flatMap(([name, s]) => (s.ports ?? []).map(published).map((p) => ({ name, ...p })));
}

const urlOf = (service: ComposeService | undefined, variable: string) => {
  const value = service?.environment?.[variable];
  expect(value, variable).toBeTruthy();
  return new URL(value!);
};

describe('docker-compose.yml', () => {
  it('when resolved by docker-compose config with the secrets set, then it is valid', () => {
    const services = resolvedConfig();
    expect(Object.keys(services).sort()).toEqual(
      expect.arrayContaining(['edge', 'mailpit', 'minio', 'postgres', 'rabbitmq', 'redis', 'backup', ...listed.map((s) => s.name)]),
    );
  });

  it.each(Object.keys(SECRETS))('when %s is missing or empty, then docker-compose refuses the file and names it', (secret) => {
    const { [secret]: _left, ...rest } = SECRETS;
    const missing = dockerCompose(['-f', COMPOSE_FILE, 'config'], rest);
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toContain(secret);
    const empty = dockerCompose(['-f', COMPOSE_FILE, 'config'], { ...rest, [secret]: '' });
    expect(empty.status).not.toBe(0);
    expect(empty.stderr).toContain(secret);
  });

  it('when read, then every long-running service has a healthcheck', () => {
    const services = resolvedConfig();
    const withoutHealthcheck = Object.entries(services)
      .filter(([, s]) => !isOneShot(s))
      .filter(([, s]) => !s.healthcheck?.test || s.healthcheck.disable)
      .map(([name]) => name);
    expect(withoutHealthcheck).toEqual([]);
  });

  it('when read, then every process of infra/services.json is built from infra/Dockerfile with its SERVICE and port', () => {
    const services = resolvedConfig();
    for (const entry of listed) {
      const service = services[entry.name];
      expect(service, `${entry.name} is in infra/services.json but not in docker-compose.yml`).toBeDefined();
      expect(service?.build?.dockerfile).toBe('infra/Dockerfile');
      expect(service?.build?.args?.SERVICE).toBe(entry.name);
      expect(service?.environment?.[entry.portEnv]).toBe(String(entry.port));
      expect(JSON.stringify(service?.healthcheck?.test)).toContain(`:${entry.port}/healthz`);
    }
  });

  it('when read, then only the edge publishes ports on every interface, 80 and 443; the operator UIs only in a profile, on 127.0.0.1', () => {
    const services = resolvedConfig();
    const ports = publishedPorts(services);
    const beyondLoopback = ports.filter((p) => p.hostIp !== '127.0.0.1').map((p) => `${p.name}:${p.port}`);
    expect([...new Set(beyondLoopback)].sort()).toEqual(['edge:443', 'edge:80']);
    // Mailpit's UI in the dev profile; RabbitMQ management and MinIO's console through the ops profile's proxy.
    const onLoopback = ports.filter((p) => p.hostIp === '127.0.0.1');
    expect(onLoopback.map((p) => `${p.name}:${p.port}`).sort()).toEqual(['mailpit:8025', 'ops-ui:15672', 'ops-ui:9001']);
    for (const { name } of onLoopback) expect(services[name]?.profiles?.length, `${name} publishes without a profile`).toBeGreaterThan(0);
  });

  it('when read, then every process of infra/services.json runs two replicas, with no fixed container name or host port', () => {
    const services = resolvedConfig();
    for (const { name } of listed) {
      expect(services[name]?.deploy?.replicas, name).toBe(2);
      expect(services[name]?.container_name, name).toBeUndefined();
      expect(services[name]?.ports ?? [], name).toEqual([]);
      expect(services[name]?.profiles, `${name} must run without a profile`).toBeUndefined();
    }
  });

  it('when read, then docker waits longer than the drain bound (readiness delay 5 s + drain 20 s) before killing a process', () => {
    const services = resolvedConfig();
    const seconds = (duration: string | undefined) => {
      const parts = /^(?:(\d+)m)?(?:(\d+)s)?$/.exec(duration ?? '');
      return parts && duration ? Number(parts[1] ?? 0) * 60 + Number(parts[2] ?? 0) : 10; // docker's default
    };
    for (const { name } of listed) {
      // The process's own bound where the file sets it; else the defaults (5 s, 20 s).
      const env = services[name]?.environment ?? {};
      const boundSeconds = (Number(env.SHUTDOWN_DELAY_MS ?? 5_000) + Number(env.SHUTDOWN_DRAIN_MS ?? 20_000)) / 1000;
      expect(seconds(services[name]?.stop_grace_period), name).toBeGreaterThan(boundSeconds);
    }
  });

  it('when read, then PostgreSQL takes the connections of two replicas of every process, with room to spare', () => {
    const services = resolvedConfig();
    const command = JSON.stringify(services.postgres?.command ?? '');
    const maxConnections = Number(/max_connections=(\d+)/.exec(command)?.[1] ?? 100);
    // Each process's pool (its service.ts; DATABASE_POOL_SIZE set here wins), its outbox LISTEN
    // client, notifications' two e-mail claim connections and ingestion's and transfers' vendor key revocations
    // LISTEN client (README's connection budget).
    const defaultPools: Record<string, number> = { catalog: 20, importer: 4 };
    const otherConnections: Record<string, number> = { notifications: 2, ingestion: 1, transfers: 1 };
    const perReplica = listed.reduce((sum, { name }) => {
      const env = services[name]?.environment ?? {};
      return sum + Number(env.DATABASE_POOL_SIZE ?? defaultPools[name] ?? 10) + 1 + (otherConnections[name] ?? 0);
    }, 0);
    const replicas = Math.max(...listed.map(({ name }) => services[name]?.deploy?.replicas ?? 1));
    // Besides: a migration and a start-up check per process, a backup, operators, the superuser's reserve.
    expect(maxConnections).toBeGreaterThanOrEqual(replicas * perReplica + 2 * listed.length + 10);
  });

  it('when read, then PostgreSQL is sized for the aged-lead inventory, with the settings the Kubernetes Cluster sets too (docs/adr/0052)', () => {
    const command = resolvedConfig().postgres?.command ?? [];
    const settings = new Map(
      (Array.isArray(command) ? command : command.split(' '))
        .filter((arg, i, args) => args[i - 1] === '-c')
        .map((arg) => arg.split('=') as [string, string]),
    );
    const gb = (size: string | undefined) => {
      const parts = /^(\d+)(MB|GB)$/.exec(size ?? '');
      return parts ? Number(parts[1]) / (parts[2] === 'MB' ? 1024 : 1) : Number.NaN;
    };
    // The market's indexes at a million leads and more in PostgreSQL's cache, not its default 128 MB.
    expect(gb(settings.get('shared_buffers'))).toBeGreaterThanOrEqual(1);
    // A million-row import (~1.5 GB of WAL) within about one checkpoint, its full-page images compressed.
    expect(gb(settings.get('max_wal_size'))).toBeGreaterThanOrEqual(4);
    expect(settings.get('wal_compression')).toMatch(/^(lz4|zstd|pglz|on)$/);
    const cluster = parseAllDocuments(readFileSync(path.join(ROOT, 'infra/k8s/base/postgres.yaml'), 'utf8'))
      .map((doc) => doc.toJSON() as { kind: string; spec?: { postgresql?: { parameters?: Record<string, string> } } })
      .find((doc) => doc.kind === 'Cluster');
    const parameters = Object.keys(cluster?.spec?.postgresql?.parameters ?? {});
    expect(parameters.sort()).toEqual([...settings.keys()].sort());
  });

  it('when read, then Mailpit runs only in the dev profile and notifications sends to the SMTP server the environment names', () => {
    const services = resolvedConfig();
    expect(services.mailpit?.profiles).toEqual(['dev']);
    const notifications = services.notifications!;
    expect(notifications.environment?.SMTP_URL).toBe(SECRETS.SMTP_URL);
    expect(notifications.environment?.ALLOW_TEST_SMTP).toBe('false');
    expect(JSON.stringify(notifications.environment)).not.toMatch(/ALLOW_FILE_MAILER=?"?:?\s*"?true/);
    for (const [name, service] of Object.entries(services)) {
      const needs = Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});
      expect(needs, `${name} depends on mailpit`).not.toContain('mailpit');
      expect(service.environment?.BLOB_STORE ?? 's3', `${name} BLOB_STORE`).toBe('s3');
      expect(service.environment?.ALLOW_LOCAL_BLOB_STORE, name).toBeUndefined();
    }
  });

  it('when the edge fronts the gateways, then the gateway trusts exactly that hop and its PUBLIC_URL is https on the edge\'s name', () => {
    const defaults = resolvedConfig();
    expect(defaults.gateway?.environment?.TRUST_PROXY).toBe('1');
    expect(defaults.gateway?.environment?.PUBLIC_URL).toBe('https://localhost');
    const result = dockerCompose(['-f', COMPOSE_FILE, 'config'], { ...SECRETS, PUBLIC_HOST: 'leads.example.com', EDGE_TLS: 'internal' });
    expect(result.status).toBe(0);
    const services = (parse(result.stdout) as { services: Record<string, ComposeService> }).services;
    expect(services.edge?.environment).toMatchObject({ PUBLIC_HOST: 'leads.example.com', EDGE_TLS: 'internal' });
    for (const name of ['gateway', 'notifications']) expect(services[name]?.environment?.PUBLIC_URL, name).toBe('https://leads.example.com');
    const mounts = (services.edge?.volumes ?? []).map((v) => (typeof v === 'string' ? v : `${v.source}:${v.target}`));
    expect(mounts.some((m) => m.includes('infra/edge/Caddyfile') && /:\/etc\/caddy\/Caddyfile(:ro)?$/.test(m))).toBe(true);
  });

  it('when Caddy reads infra/edge/Caddyfile, then it serves PUBLIC_HOST over TLS (ACME or its own CA) in front of every gateway replica', () => {
    const adapt = (file: string, env: Record<string, string>) => {
      const home = mkdtempSync(path.join(os.tmpdir(), 'wl-caddy-'));
      try {
        const result = spawnSync('caddy', ['adapt', '--config', path.join(ROOT, 'infra/edge', file), '--validate'], {
          encoding: 'utf8',
          env: { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: home, XDG_CONFIG_HOME: home, ...env },
        });
        if (result.error && (result.error as NodeJS.ErrnoException).code === 'ENOENT') {
          throw new Error('caddy is not installed; `make test` installs it (apt-get install -y caddy)');
        }
        return result;
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    };
    const gateway = listed.find((s) => s.name === 'gateway')!;
    for (const [tls, issuer] of [['auto', undefined], ['internal', 'internal']] as const) {
      const result = adapt('Caddyfile', { PUBLIC_HOST: 'leads.example.com', EDGE_TLS: tls });
      expect(result.status, result.stderr).toBe(0);
      const config = JSON.stringify(JSON.parse(result.stdout));
      expect(config).toContain('"host":["leads.example.com"]');
      expect(config).toContain(`"dynamic_upstreams":{"name":"gateway","port":"${gateway.port}","refresh"`);
      expect(config).toContain('"selection_policy":{"policy":"round_robin"}');
      if (issuer) expect(config).toContain('"issuers":[{"module":"internal"}]');
      else expect(config).not.toContain('"module":"internal"');
    }
    const unknown = adapt('Caddyfile', { EDGE_TLS: 'none' });
    expect(unknown.status).not.toBe(0);
    expect(adapt('ops.Caddyfile', {}).status).toBe(0);
  });

  it('when read, then the backup is a one-shot in its own profile, writing to BACKUP_DIR', () => {
    const backup = resolvedConfig().backup;
    expect(backup?.profiles).toEqual(['backup']);
    expect(isOneShot(backup!)).toBe(true);
    expect(backup?.build?.dockerfile).toBe('infra/backup/Dockerfile');
    expect(backup?.ports ?? []).toEqual([]);
    const targets = (backup?.volumes ?? []).map((v) => (typeof v === 'string' ? v.split(':')[1] : v.target));
    expect(targets).toContain('/backups');
    expect(backup?.environment?.BLOB_STORE).toBe('s3');
  });

  it('when resolved, then no credential is a default one: no guest anywhere, PostgreSQL and Redis with their passwords', () => {
    const services = resolvedConfig();
    expect(JSON.stringify(services)).not.toMatch(/guest/i);
    expect(JSON.stringify(services)).not.toMatch(/minioadmin/i);

    const postgres = services.postgres!;
    expect(postgres.environment?.POSTGRES_PASSWORD).toBe(SECRETS.POSTGRES_PASSWORD);
    expect(postgres.environment?.POSTGRES_HOST_AUTH_METHOD ?? 'scram-sha-256').not.toBe('trust');

    // Redis's users come from infra/redis/users.acl, their passwords from the environment.
    const redisCommand = JSON.stringify(services.redis?.command ?? '');
    expect(redisCommand).toContain('--aclfile');
    expect(redisCommand).toContain('@REDIS_PASSWORD@');
    expect(redisCommand).toContain('@REDIS_GATEWAY_PASSWORD@');
    expect(services.redis?.environment?.REDIS_PASSWORD).toBe(SECRETS.REDIS_PASSWORD);
    expect(services.redis?.environment?.REDIS_GATEWAY_PASSWORD).toBe(SECRETS.REDIS_GATEWAY_PASSWORD);
    expect(redisCommand).toMatch(/--appendonly"?,?\s*"?yes/);
    expect(readFileSync(path.join(ROOT, 'infra/redis/users.acl'), 'utf8')).toMatch(/^user default on >@REDIS_PASSWORD@ /m);

    // docs/adr/0043: each service as its schema's app role; only the migrate step is the superuser.
    for (const { name, schemaOf } of listed) {
      const schema = schemaOf ?? name;
      const database = urlOf(services[name], 'DATABASE_URL');
      expect(decodeURIComponent(database.username), `${name} DATABASE_URL`).toBe(`warmline_${schema}`);
      expect(decodeURIComponent(database.password), `${name} DATABASE_URL`).toBe(SECRETS[`POSTGRES_${schema.toUpperCase()}_PASSWORD`]);
      expect(services[name]?.environment?.MIGRATION_DATABASE_URL, name).toBeUndefined();
      // Only the gateway uses Redis, as its ACL user.
      if (name === 'gateway') {
        const redis = urlOf(services[name], 'REDIS_URL');
        expect(decodeURIComponent(redis.username)).toBe('warmline-gateway');
        expect(decodeURIComponent(redis.password)).toBe(SECRETS.REDIS_GATEWAY_PASSWORD);
      } else {
        expect(services[name]?.environment?.REDIS_URL, `${name} REDIS_URL`).toBeUndefined();
      }
      expect(JSON.stringify(services[name]?.environment), name).not.toContain(SECRETS.POSTGRES_PASSWORD);
      expect(JSON.stringify(services[name]?.environment), name).not.toContain(SECRETS.MINIO_ROOT_PASSWORD);
    }
    const migrate = services.migrate!;
    expect(isOneShot(migrate)).toBe(true);
    expect(decodeURIComponent(urlOf(migrate, 'DATABASE_URL').password)).toBe(SECRETS.POSTGRES_PASSWORD);
    for (const schema of SCHEMAS) expect(migrate.environment?.[`POSTGRES_${schema.toUpperCase()}_PASSWORD`], schema).toBe(SECRETS[`POSTGRES_${schema.toUpperCase()}_PASSWORD`]);
  });

  it('when resolved, then each service reaches RabbitMQ as its own user with its own password', () => {
    const services = resolvedConfig();
    const users = listed.map(({ name }) => {
      const amqp = urlOf(services[name], 'AMQP_URL');
      expect(amqp.hostname).toBe('rabbitmq');
      expect(decodeURIComponent(amqp.username), `${name} AMQP_URL`).toBe(name);
      expect(decodeURIComponent(amqp.password), `${name} AMQP_URL`).toBe(SECRETS[brokerPasswordVar(name)]);
      return amqp.username;
    });
    expect(new Set(users).size).toBe(listed.length);
    // The broker gets every user's password to load into its definitions, and nothing else sets its users.
    const rabbitmq = services.rabbitmq!;
    for (const user of BROKER_USERS) expect(rabbitmq.environment?.[brokerPasswordVar(user)], user).toBe(SECRETS[brokerPasswordVar(user)]);
    expect(rabbitmq.environment?.RABBITMQ_DEFAULT_USER).toBeUndefined();
  });

  it('when resolved, then MinIO runs a pinned release with its root user from the environment, its data on a volume', () => {
    const minio = resolvedConfig().minio;
    expect(minio, 'docker-compose.yml has no minio service').toBeDefined();
    // A moving tag (or none) would change the store under the same file.
    expect(minio?.image).toMatch(/minio\/minio:RELEASE\.\d{4}-\d{2}-\d{2}T[\d-]+Z$/);
    expect(minio?.environment?.MINIO_ROOT_USER).toBe(SECRETS.MINIO_ROOT_USER);
    expect(minio?.environment?.MINIO_ROOT_PASSWORD).toBe(SECRETS.MINIO_ROOT_PASSWORD);
    expect(JSON.stringify(minio?.command)).toMatch(/server.*\/data.*--console-address.*:9001/);
    const targets = (minio?.volumes ?? []).map((v) => (typeof v === 'string' ? v.split(':')[1] : v.target));
    expect(targets).toContain('/data');
  });

  it('when resolved, then the catalog, every process sharing its schema and the partners service store files in the same MinIO bucket, each as its own MinIO user', () => {
    const services = resolvedConfig();
    // The catalog stores an upload; the importer (schemaOf catalog) reads it back. The partners
    // service keeps applications' documents there too (issue 14).
    const catalogProcesses = listed.filter((s) => (s.schemaOf ?? s.name) === 'catalog').map((s) => s.name);
    expect(catalogProcesses).toEqual(expect.arrayContaining(['catalog', 'importer']));
    const fileStores = [...catalogProcesses, 'partners'];
    expect(listed.map((s) => s.name)).toEqual(expect.arrayContaining(fileStores));
    const stores = fileStores.map((name) => {
      const env = services[name]?.environment ?? {};
      expect(env.BLOB_STORE, name).toBe('s3');
      expect(new URL(env.S3_ENDPOINT ?? '').host, name).toBe('minio:9000');
      expect(env.S3_FORCE_PATH_STYLE, name).toBe('true');
      // docs/adr/0043: its own user (infra/minio/, created by minio-init), never MinIO's root.
      expect(env.S3_ACCESS_KEY_ID, name).toBe(`warmline-${name}`);
      expect(env.S3_SECRET_ACCESS_KEY, name).toBe(SECRETS[`MINIO_${name.toUpperCase()}_SECRET_KEY`]);
      expect((services[name]?.depends_on as Record<string, { condition?: string }> | undefined)?.['minio-init']?.condition, name).toBe('service_completed_successfully');
      return `${env.S3_ENDPOINT}/${env.S3_BUCKET}`;
    });
    expect(stores[0]).toMatch(/\/warmline-files$/);
    // No service holds MinIO's root user; minio-init does, and hands each service its key.
    for (const [name, service] of Object.entries(services)) {
      // The operator's backup one-shot (--profile backup) reads every schema and the whole bucket on purpose.
      if (name === 'minio' || name === 'minio-init' || name === 'backup') continue;
      expect(JSON.stringify(service.environment ?? {}), name).not.toContain(SECRETS.MINIO_ROOT_PASSWORD);
    }
    for (const name of FILE_STORES) expect(services['minio-init']?.environment?.[`MINIO_${name.toUpperCase()}_SECRET_KEY`], name).toBe(SECRETS[`MINIO_${name.toUpperCase()}_SECRET_KEY`]);
    expect(new Set(stores).size).toBe(1);
  });

  it('when resolved, then the gateway forwards to each service at its compose name and port of infra/services.json', () => {
    const services = resolvedConfig();
    for (const owner of ['catalog', 'orders', 'partners', 'ingestion', 'transfers']) {
      const entry = listed.find((s) => s.name === owner);
      expect(entry, `${owner} is not in infra/services.json`).toBeDefined();
      const url = urlOf(services.gateway, `${owner.toUpperCase()}_URL`);
      expect(url.host, `${owner.toUpperCase()}_URL`).toBe(`${owner}:${entry!.port}`);
      expect(services[owner], owner).toBeDefined();
    }
  });

  it('when resolved, then the transfers service reaches the gateway\'s internal listener and orders at their compose names, on the business clock', () => {
    const services = resolvedConfig();
    const gateway = listed.find((s) => s.name === 'gateway') as { internalPort?: number } | undefined;
    expect(urlOf(services.transfers, 'GATEWAY_INTERNAL_URL').host).toBe(`gateway:${gateway?.internalPort}`);
    expect(urlOf(services.transfers, 'ORDERS_URL').host).toBe(`orders:${listed.find((s) => s.name === 'orders')?.port}`);
    expect(services.transfers?.environment?.BUSINESS_TIMEZONE).toBe(services.gateway?.environment?.BUSINESS_TIMEZONE);
  });

  it('when resolved, then the team inboxes reach the notifications worker from the environment, unset by default', () => {
    const inboxes = ['SALES_TEAM_EMAIL', 'OPERATIONS_EMAIL', 'PARTNERS_TEAM_EMAIL'];
    const unset = resolvedConfig().notifications?.environment ?? {};
    for (const inbox of inboxes) expect(unset[inbox] ?? '', inbox).toBe('');
    const result = dockerCompose(['-f', COMPOSE_FILE, 'config'], { ...SECRETS, PARTNERS_TEAM_EMAIL: 'deals@example.com' });
    expect(result.status).toBe(0);
    const set = (parse(result.stdout) as { services: Record<string, ComposeService> }).services.notifications?.environment ?? {};
    expect(set.PARTNERS_TEAM_EMAIL).toBe('deals@example.com');
  });

  it('when read, then RabbitMQ keeps loopback_users at its default (guest, where it exists, only from localhost) and loads its users from the definitions', () => {
    const confs = readdirSync(path.join(ROOT, 'infra/rabbitmq'))
      .filter((f) => f.endsWith('.conf'))
      .map((f) => readFileSync(path.join(ROOT, 'infra/rabbitmq', f), 'utf8').replace(/^\s*#.*$/gm, ''));
    const conf = confs.join('\n');
    expect(conf).not.toMatch(/loopback_users\s*=\s*none/);
    expect(conf).not.toMatch(/loopback_users\.guest\s*=\s*false/);
    // The image's own 10-defaults.conf sets loopback_users.guest = false; ours puts the default back.
    expect(conf).toMatch(/loopback_users\.guest\s*=\s*true/);
    expect(conf).toMatch(/^\s*load_definitions\s*=/m);
  });
});

describe('infra/services.json', () => {
  it('when compared with services/, then it lists every service that has a main.ts and nothing else', () => {
    const withMain = readdirSync(path.join(ROOT, 'services'))
      .filter((dir) => existsSync(path.join(ROOT, 'services', dir, 'src/main.ts')))
      .sort();
    expect(listed.filter((s) => s.entry === undefined).map((s) => s.name).sort()).toEqual(withMain);
  });

  it('when an entry runs another file (the importer), then the file exists in the service whose schema it shares', () => {
    const others = listed.filter((s) => s.entry !== undefined);
    expect(others.map((s) => s.name)).toContain('importer');
    for (const entry of others) {
      expect(existsSync(path.join(ROOT, entry.entry!)), entry.entry).toBe(true);
      // Its schema and migrations are that service's: make migrate runs them once, there.
      const owner = listed.find((s) => s.name === entry.schemaOf);
      expect(owner, `${entry.name}: schemaOf must name another entry`).toBeDefined();
      expect(owner?.schemaOf, `${entry.name}: schemaOf must name an entry with a schema of its own`).toBeUndefined();
      expect(entry.entry!.startsWith(`services/${entry.schemaOf}/src/`), entry.entry).toBe(true);
    }
  });
});

interface Definitions {
  users: Array<{ name: string; password?: string; password_hash?: string; tags: string }>;
  vhosts: Array<{ name: string }>;
  permissions: Array<{ user: string; vhost: string; configure: string; write: string; read: string }>;
}

describe('infra/rabbitmq: the broker users', () => {
  const readDefinitions = () =>
    JSON.parse(readFileSync(path.join(ROOT, 'infra/rabbitmq/definitions.json'), 'utf8')) as Definitions;
  const permissionsOf = (user: string) => {
    const found = readDefinitions().permissions.filter((p) => p.user === user);
    expect(found.map((p) => p.vhost), user).toEqual(['/']);
    // RabbitMQ matches these unanchored, as JavaScript does; '' grants nothing.
    const grants = (regex: string) => (name: string) => regex !== '' && new RegExp(regex).test(name);
    return { configure: grants(found[0]!.configure), write: grants(found[0]!.write), read: grants(found[0]!.read) };
  };
  /** Every exchange and queue the services declare (platform/bus/topology.ts), without a namespace. */
  const serviceQueues = [...brokerManifest.queues, ...brokerManifest.retiredQueues].flatMap(({ queue }) =>
    ['', '.retry', '.dlq', '.migrating'].map((suffix) => `${queue}${suffix}`),
  );
  const layout = [...brokerManifest.exchanges.map((e) => e.name), 'warmline.unrouted', ...serviceQueues];

  it('when read, then the users are the admin, one per service and the analyst, each password from its own variable, guest nowhere', () => {
    const definitions = readDefinitions();
    expect(definitions.users.map((u) => u.name).sort()).toEqual([...BROKER_USERS].sort());
    for (const user of definitions.users) {
      expect(user.password, user.name).toBe(`\${${brokerPasswordVar(user.name)}}`);
      expect(user.password_hash, user.name).toBeUndefined();
      expect(user.tags, user.name).toBe(user.name === 'admin' ? 'administrator' : '');
    }
    expect(JSON.stringify(definitions)).not.toMatch(/guest/i);
    expect(definitions.vhosts.map((v) => v.name)).toEqual(['/']);
  });

  it('when read, then every service may declare, publish to and consume the whole layout, and none touches the analysts\' queues', () => {
    for (const { name } of listed) {
      const may = permissionsOf(name);
      for (const resource of layout) {
        expect(may.configure(resource), `${name} configure ${resource}`).toBe(true);
        expect(may.write(resource), `${name} write ${resource}`).toBe(true);
        expect(may.read(resource), `${name} read ${resource}`).toBe(true);
      }
      // Retries, dead letters and queue migrations go through the default exchange.
      expect(may.write('amq.default'), `${name} write amq.default`).toBe(true);
      // Every service's own prefix, for the queues it may add (partners.*, ...), whoever declares them.
      for (const { name: owner } of listed) {
        for (const check of [may.configure, may.write, may.read]) expect(check(`${owner}.a-queue`), `${name} on ${owner}.a-queue`).toBe(true);
      }
      for (const check of [may.configure, may.write, may.read]) expect(check('analyst.tap'), name).toBe(false);
    }
  });

  it('when read, then the analyst reads warmline.events through its own analyst.* queues and can neither publish nor read commands or a service queue', () => {
    const may = permissionsOf('analyst');
    expect(may.read(EVENTS_EXCHANGE)).toBe(true);
    for (const own of ['analyst.tap', 'analyst.alice-dashboard']) {
      expect(may.configure(own), own).toBe(true);
      expect(may.write(own), own).toBe(true); // binding its queue needs write on the queue
      expect(may.read(own), own).toBe(true);
    }
    for (const resource of [...layout, 'amq.default', 'amq.topic', 'amq.gen-x']) {
      expect(may.configure(resource), `configure ${resource}`).toBe(false);
      expect(may.write(resource), `write ${resource}`).toBe(false);
      if (resource !== EVENTS_EXCHANGE) expect(may.read(resource), `read ${resource}`).toBe(false);
    }
    expect(may.read(COMMANDS_EXCHANGE)).toBe(false);
  });

  it("when read, then the analysts' tap (npm run tap) may declare, bind and read the queues it makes, and none it refuses", () => {
    const may = permissionsOf('analyst');
    // The throwaway queue (named by the tap, not the server: amq.gen-* stays closed) and a --durable one.
    expect(refusedDurableQueue('analyst.revenue')).toBeUndefined();
    for (const own of [`${ANALYST_QUEUE_PREFIX}tap.0123456789ab`, 'analyst.revenue']) {
      for (const check of [may.configure, may.write, may.read]) expect(check(own), own).toBe(true);
    }
    // What the tap refuses, the broker refuses too.
    for (const refused of serviceQueues) {
      expect(refusedDurableQueue(refused), refused).toBeDefined();
      for (const check of [may.configure, may.write, may.read]) expect(check(refused), refused).toBe(false);
    }
  });

  it('when docker-compose starts RabbitMQ, then its entrypoint writes the definitions with the passwords from the environment, readable by the broker only', () => {
    const services = resolvedConfig();
    const rabbitmq = services.rabbitmq!;
    expect(JSON.stringify(rabbitmq.entrypoint)).toContain('entrypoint.sh');
    expect(JSON.stringify(rabbitmq.command)).toContain('rabbitmq-server');

    const dir = mkdtempSync(path.join(os.tmpdir(), 'wl-rabbitmq-defs-'));
    try {
      const out = path.join(dir, 'definitions.json');
      const passwords = Object.fromEntries(BROKER_USERS.map((user) => [brokerPasswordVar(user), SECRETS[brokerPasswordVar(user)]!]));
      const render = (env: Record<string, string>) =>
        spawnSync('bash', ['infra/rabbitmq/entrypoint.sh', 'true'], {
          cwd: ROOT,
          encoding: 'utf8',
          env: {
            PATH: process.env.PATH ?? '',
            WARMLINE_DEFINITIONS_TEMPLATE: path.join(ROOT, 'infra/rabbitmq/definitions.json'),
            WARMLINE_DEFINITIONS_FILE: out,
            ...env,
          },
        });

      const ok = render(passwords);
      expect(ok.stderr).toBe('');
      expect(ok.status).toBe(0);
      const rendered = JSON.parse(readFileSync(out, 'utf8')) as Definitions;
      for (const user of rendered.users) expect(user.password, user.name).toBe(SECRETS[brokerPasswordVar(user.name)]);
      expect(statSync(out).mode & 0o077).toBe(0);

      const { RABBITMQ_ANALYST_PASSWORD: _left, ...withoutAnalyst } = passwords;
      const missing = render(withoutAnalyst);
      expect(missing.status).not.toBe(0);
      expect(missing.stderr).toContain('RABBITMQ_ANALYST_PASSWORD');

      // A password goes into a URL (AMQP_URL) and into JSON: only URL-safe characters.
      const unsafe = render({ ...passwords, RABBITMQ_ORDERS_PASSWORD: 'has"quote/and@at-0123456789' });
      expect(unsafe.status).not.toBe(0);
      expect(unsafe.stderr).toContain('RABBITMQ_ORDERS_PASSWORD');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
