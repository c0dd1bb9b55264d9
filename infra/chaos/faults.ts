import { execFile, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../scripts/services';
import { answers } from './preflight';
import { sleep, waitAllReady, type Readiness, type RunningProcess } from './system';

/**
 * The faults: each real server of this machine stopped with its own command, then started
 * again by infra/scripts/ensure-services.sh (the very commands `make services` uses, which
 * start whatever is stopped and wait until it answers).
 */

export const FAULT_NAMES = ['postgresql', 'redis', 'rabbitmq'] as const;
export type FaultName = (typeof FAULT_NAMES)[number];

export interface FaultSpec {
  name: FaultName;
  label: string;
  port: number;
  /** Stops the server; returns once it is stopping (the port is then watched until it refuses). */
  stop: string[];
}

function postgresVersion(): string {
  // The newest cluster version, as ensure-services.sh chooses it.
  const versions = readdirSync('/etc/postgresql').sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const newest = versions.at(-1);
  if (!newest) throw new Error('no PostgreSQL cluster under /etc/postgresql');
  return newest;
}

export function faultSpec(name: FaultName): FaultSpec {
  switch (name) {
    case 'postgresql':
      return { name, label: 'PostgreSQL', port: 5432, stop: ['pg_ctlcluster', '--skip-systemctl-redirect', postgresVersion(), 'main', 'stop'] };
    case 'redis':
      return { name, label: 'Redis', port: 6379, stop: ['redis-cli', '-h', '127.0.0.1', '-p', '6379', 'shutdown', 'nosave'] };
    case 'rabbitmq':
      return { name, label: 'RabbitMQ', port: 5672, stop: ['rabbitmqctl', 'stop'] };
  }
}

/** Whether this machine has the tools to stop and start the server (not a docker-compose one). */
export function canInject(spec: FaultSpec): string | null {
  const tool = spec.stop[0]!;
  const found = spawnSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' });
  return found.status === 0 ? null : `${tool} is not installed here (is ${spec.label} running in docker?)`;
}

export interface FaultResult {
  spec: FaultSpec;
  /** When the stop command was run. */
  stoppedAt: number;
  /** When the port refused connections (the outage began for clients). */
  downAt: number | null;
  /** When the port answered again. */
  backAt: number | null;
  /** When every /readyz was green again (after backAt). */
  readyAt: number | null;
  /** /readyz answers seen at the ceiling, when they never all turned green. */
  notReady: Readiness[];
  /** Command output worth showing when something failed. */
  notes: string[];
}

/**
 * Runs a stop or start command without blocking: the load runs in this process, and a
 * synchronous child would freeze it and show the command's duration as request latency.
 */
function run(argv: string[], timeoutMs: number): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    execFile(argv[0]!, argv.slice(1), { cwd: REPO_ROOT, encoding: 'utf8', timeout: timeoutMs }, (error, stdout, stderr) => {
      const output = `${stdout ?? ''}${stderr ?? ''}`.trim();
      resolve({ ok: !error, output: error ? `${error.message} ${output}` : output });
    });
  });
}

async function waitPort(port: number, up: boolean, ceilingMs: number): Promise<number | null> {
  const deadline = Date.now() + ceilingMs;
  while (Date.now() < deadline) {
    if ((await answers(port)) === up) return Date.now();
    await sleep(100);
  }
  return null;
}

export async function injectFault(spec: FaultSpec, processes: RunningProcess[], readyCeilingMs: number, say: (line: string) => void): Promise<FaultResult> {
  const notes: string[] = [];
  const stoppedAt = Date.now();
  say(`${spec.label}: stopping (${spec.stop.join(' ')})`);
  const stopped = await run(spec.stop, 120_000);
  if (!stopped.ok) notes.push(`stop: ${stopped.output.slice(0, 300)}`);
  const downAt = await waitPort(spec.port, false, 60_000);
  if (downAt === null) notes.push(`port ${spec.port} still answered 60 s after the stop command`);
  say(`${spec.label}: starting again (bash infra/scripts/ensure-services.sh)`);
  const started = await run(['bash', path.join(REPO_ROOT, 'infra/scripts/ensure-services.sh')], 180_000);
  if (!started.ok) notes.push(`ensure-services: ${started.output.slice(0, 300)}`);
  const backAt = await waitPort(spec.port, true, 120_000);
  if (backAt === null) {
    notes.push(`port ${spec.port} did not answer within 120 s of ensure-services.sh`);
    return { spec, stoppedAt, downAt, backAt, readyAt: null, notReady: [], notes };
  }
  say(`${spec.label}: answers again after ${((backAt - stoppedAt) / 1000).toFixed(1)} s; waiting for every /readyz`);
  const ready = await waitAllReady(processes, readyCeilingMs);
  if (ready.at === null) notes.push(`not every /readyz was green ${readyCeilingMs / 1000} s after ${spec.label} answered`);
  return { spec, stoppedAt, downAt, backAt, readyAt: ready.at, notReady: ready.at === null ? ready.last.filter((r) => !r.ready) : [], notes };
}
