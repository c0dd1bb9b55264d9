import { spawn, spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, waitFor } from '../src/testing/index';

/**
 * infra/scripts/start.sh, the supervisor of `make start`, run on a copy of the repository's
 * layout whose infra/services.json names two stand-in services: one that crashes on its first
 * run, one that runs until stopped (from an entry of its own, as the importer does). A death must not take the other service down, the dead one
 * is restarted, and SIGTERM to the script still stops everything, with nothing restarted.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let dir: string;

const STEADY = `
process.stdout.write('steady up\\n');
const timer = setInterval(() => undefined, 1000);
const stop = (signal: string) => { process.stdout.write('steady stopping on ' + signal + '\\n'); clearInterval(timer); setTimeout(() => process.exit(0), 100); };
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
`;
const CRASHER = `
import { existsSync, writeFileSync } from 'node:fs';
const marker = new URL('../crashed-once', import.meta.url);
const timer = setInterval(() => undefined, 1000);
process.on('SIGTERM', () => { clearInterval(timer); process.exit(0); });
if (existsSync(marker)) {
  process.stdout.write('crasher up again\\n');
} else {
  writeFileSync(marker, '');
  process.stdout.write('crasher up, about to crash\\n');
  setTimeout(() => { throw new Error('crasher died'); }, 200);
}
`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'wl-start-'));
  await mkdir(path.join(dir, 'infra/scripts'), { recursive: true });
  await cp(path.join(ROOT, 'infra/scripts/start.sh'), path.join(dir, 'infra/scripts/start.sh'));
  const services = [{ name: 'steady', entry: 'services/host/src/steady-main.ts' }, { name: 'crasher' }];
  await writeFile(path.join(dir, 'infra/services.json'), JSON.stringify({ services }));
  for (const [file, code] of [['services/host/src/steady-main.ts', STEADY], ['services/crasher/src/main.ts', CRASHER]] as const) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), code);
  }
  await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('infra/scripts/start.sh', () => {
  it('when one service dies, then the others keep running and it is restarted; SIGTERM then stops everything', async () => {
    const script = spawn('bash', [path.join(dir, 'infra/scripts/start.sh')], {
      cwd: dir,
      // The announcer polls a port nobody listens on; it never prints the banner here.
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', GATEWAY_PORT: String(await freePort()), FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    script.stdout.on('data', (d: Buffer) => (output += String(d)));
    script.stderr.on('data', (d: Buffer) => (output += String(d)));
    const exited = new Promise<number | null>((resolve) => script.on('exit', (code) => resolve(code)));
    try {
      await waitFor('the crashed service restarted', () => output.includes('crasher up again'), { timeoutMs: 60_000, intervalMs: 100 });
      expect(output).toContain('crasher died');
      // Run from its own entry, under its own name.
      expect(output).toMatch(/\[steady\s*\]\s+steady up/);
      expect(output).not.toMatch(/steady.*exited/);
    } finally {
      script.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(output).toContain('steady stopping on SIGTERM');
    const afterStop = output.slice(output.indexOf('steady stopping'));
    expect(afterStop).not.toContain('restarted');
  }, 90_000);

  it('when an entry names a file that does not exist, then it stops at once naming it instead of restarting it for ever', async () => {
    const broken = await mkdtemp(path.join(os.tmpdir(), 'wl-start-broken-'));
    try {
      await mkdir(path.join(broken, 'infra/scripts'), { recursive: true });
      await cp(path.join(ROOT, 'infra/scripts/start.sh'), path.join(broken, 'infra/scripts/start.sh'));
      await writeFile(path.join(broken, 'infra/services.json'), JSON.stringify({ services: [{ name: 'ghost', entry: 'services/ghost/src/gone-main.ts' }] }));
      const result = spawnSync('bash', [path.join(broken, 'infra/scripts/start.sh')], {
        cwd: broken,
        encoding: 'utf8',
        timeout: 30_000,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('services/ghost/src/gone-main.ts');
    } finally {
      await rm(broken, { recursive: true, force: true });
    }
  });
});
