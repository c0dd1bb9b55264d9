import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * docker-compose.yml is checked with Debian's docker-compose, which validates and resolves
 * the file without a Docker engine. `make test` installs it; a missing binary fails here.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const COMPOSE_FILE = path.join(ROOT, 'docker-compose.yml');
const SECRETS = {
  IDENTITY_SECRET: 'compose-test-identity-secret-0123456789',
  SESSION_SECRET: 'compose-test-session-secret-0123456789',
  ADMIN_USERNAME: 'admin',
  ADMIN_PASSWORD: 'compose-test-password',
  PAYMENT_PROVIDER: 'sandbox',
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

const listed = (
  JSON.parse(readFileSync(path.join(ROOT, 'infra/services.json'), 'utf8')) as {
    services: Array<{ name: string; port: number; portEnv: string }>;
  }
).services;

describe('docker-compose.yml', () => {
  it('when resolved by docker-compose config with the secrets set, then it is valid', () => {
    const services = resolvedConfig();
    expect(Object.keys(services).sort()).toEqual(
      expect.arrayContaining(['mailpit', 'postgres', 'rabbitmq', 'redis', ...listed.map((s) => s.name)]),
    );
  });

  it('when a secret is missing, then docker-compose refuses the file and names the variable', () => {
    const { IDENTITY_SECRET: _left, ...rest } = SECRETS;
    const result = dockerCompose(['-f', COMPOSE_FILE, 'config'], rest);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('IDENTITY_SECRET');
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

  it('when read, then only the gateway and the operator UIs are published beyond loopback', () => {
    const services = resolvedConfig();
    const published = (p: string | { published?: number | string; host_ip?: string }) => {
      if (typeof p !== 'string') return { hostIp: p.host_ip, port: String(p.published) };
      const parts = p.replace(/\/\w+$/, '').split(':');
      return parts.length === 3 ? { hostIp: parts[0], port: parts[1] } : { hostIp: undefined, port: parts[0] };
    };
    const public_ = Object.entries(services).flatMap(([name, s]) =>
      (s.ports ?? [])
        .map(published)
        .filter((p) => p.hostIp !== '127.0.0.1')
        .map((p) => `${name}:${p.port}`),
    );
    expect(public_.sort()).toEqual(['gateway:3000', 'mailpit:8025', 'rabbitmq:15672']);
  });
});

describe('infra/services.json', () => {
  it('when compared with services/, then it lists every service that has a main.ts and nothing else', () => {
    const withMain = readdirSync(path.join(ROOT, 'services'))
      .filter((dir) => existsSync(path.join(ROOT, 'services', dir, 'src/main.ts')))
      .sort();
    expect(listed.map((s) => s.name).sort()).toEqual(withMain);
  });
});
