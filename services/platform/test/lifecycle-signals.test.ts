import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../src/testing/index';

/**
 * How a service's process answers stop requests under a supervisor (infra/scripts/start.sh):
 * Ctrl-C reaches it twice (from the terminal, and relayed), which must still drain gracefully;
 * stopped while still waiting for a dependency, it exits with success, so the supervisor does
 * not restart it as if it had crashed.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support/signal-service.ts');

function startProcess(mode: 'starting' | 'running' | 'refused-once' | 'broken') {
  // As infra/scripts/start.sh runs a service: node itself with tsx as a loader, not the tsx CLI,
  // whose own process relays signals and exits 130 on a double Ctrl-C before the service drains.
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', MODE: mode },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += String(d)));
  child.stderr.on('data', (d: Buffer) => (output += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

describe('a service process and stop signals', () => {
  it('when SIGINT arrives twice at once (Ctrl-C under the supervisor), then it still drains and exits 0', async () => {
    const p = startProcess('running');
    await waitFor('the service running', () => p.output().includes('running'), { timeoutMs: 30_000 });
    p.child.kill('SIGINT');
    p.child.kill('SIGINT');
    expect(await p.exited).toBe(0);
    expect(p.output()).toContain('drained');
  }, 60_000);

  it('when SIGTERM arrives while it is still starting, then it exits 0 at once', async () => {
    const p = startProcess('starting');
    await waitFor('the service starting', () => p.output().includes('starting'), { timeoutMs: 30_000 });
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  }, 60_000);

  it('when PostgreSQL refuses a connection while it starts, then it starts again instead of exiting, and still drains on SIGTERM', async () => {
    const p = startProcess('refused-once');
    await waitFor('the second start to run', () => p.output().includes('running'), { timeoutMs: 30_000 });
    expect(p.output()).toContain('start 1\nstart 2\n');
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(p.output()).toContain('drained');
  }, 60_000);

  it('when its start fails for any other reason, then it exits 1 at once', async () => {
    const p = startProcess('broken');
    expect(await p.exited).toBe(1);
    expect(p.output()).toContain('start 1\n');
    expect(p.output()).not.toContain('start 2');
  }, 60_000);
});
