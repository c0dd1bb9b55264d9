import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '@warmline/platform';
import { TEST_KEYS } from '@warmline/platform/testing/index';
import { gatewayEnv } from '../src/config';
import { SESSION_SECRET } from './gateway-fixture';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Runs the gateway's entry point as an operator would, with only the given environment. */
function runMain(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    // The tsx binary directly: `npx` may print its own warnings on stderr.
    const child = spawn(path.join(REPO_ROOT, 'node_modules/.bin/tsx'), ['services/gateway/src/main.ts'], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the gateway did not exit; stderr so far: ${stderr}`));
    }, 20_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('gateway configuration', () => {
  it('when IDENTITY_PRIVATE_KEY is not set, then the gateway stops with one stderr line naming it', async () => {
    const { IDENTITY_PRIVATE_KEY: _private, ...keys } = TEST_KEYS;
    const { code, stderr } = await runMain({ ...keys, SESSION_SECRET });
    expect(code).not.toBe(0);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('IDENTITY_PRIVATE_KEY: is required but not set');
    expect(lines[0]).not.toContain('SESSION_SECRET');
  });

  it("when IDENTITY_PRIVATE_KEY is not the private half of IDENTITY_PUBLIC_KEY (a service's key, say), then the gateway stops with one line saying so", async () => {
    const { code, stderr } = await runMain({ ...TEST_KEYS, IDENTITY_PRIVATE_KEY: TEST_KEYS.CATALOG_SERVICE_KEY, SESSION_SECRET });
    expect(code).toBe(78);
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/IDENTITY_PRIVATE_KEY: is not the private key of IDENTITY_PUBLIC_KEY/)]);
  });

  it('when SERVICE_PUBLIC_KEYS is not name:key pairs, then the configuration is refused naming it', () => {
    expect(() => parseConfig(gatewayEnv, { ...TEST_KEYS, SESSION_SECRET, SERVICE_PUBLIC_KEYS: 'catalog=abc' })).toThrow(/SERVICE_PUBLIC_KEYS: must be service:key pairs/);
  });

  it('when SESSION_SECRET is too short, then the gateway stops with one line naming it', async () => {
    const { code, stderr } = await runMain({ ...TEST_KEYS, SESSION_SECRET: 'short' });
    expect(code).not.toBe(0);
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/SESSION_SECRET: must be at least 32 characters/)]);
  });

  it('when only the secrets are given, then everything else has the documented defaults', () => {
    const config = parseConfig(gatewayEnv, { ...TEST_KEYS, SESSION_SECRET });
    expect(config).toMatchObject({
      GATEWAY_PORT: 3000,
      PUBLIC_URL: 'http://localhost:3000',
      SESSION_IDLE_MINUTES: 120,
      SESSION_ABSOLUTE_HOURS: 24,
      WEB_DIST_DIR: path.join(REPO_ROOT, 'web/dist'),
      CATALOG_URL: 'http://127.0.0.1:3101',
      ORDERS_URL: 'http://127.0.0.1:3102',
      PARTNERS_URL: 'http://127.0.0.1:3103',
      INGESTION_URL: 'http://127.0.0.1:3104',
      VENDOR_WEBHOOK_CALLS_PER_MINUTE: 600,
    });
    expect(config.ADMIN_USERNAME).toBeUndefined();
    expect(config.ADMIN_PASSWORD).toBeUndefined();
  });

  it('when ADMIN_PASSWORD is shorter than 8 characters, then the configuration is refused', () => {
    expect(() =>
      parseConfig(gatewayEnv, { ...TEST_KEYS, SESSION_SECRET, ADMIN_USERNAME: 'boss', ADMIN_PASSWORD: 'short' }),
    ).toThrow(/ADMIN_PASSWORD: must be at least 8 characters/);
  });
});
