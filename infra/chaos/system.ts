import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import amqp from 'amqplib';
import { createClient } from 'redis';
import { entryDatabaseUrl, entryEnv, entryFile, listServices, REPO_ROOT, type ServiceEntry } from '../scripts/services';
import { freePort } from './preflight';

/**
 * The whole system as `make start` runs it (every process of infra/services.json, each
 * `tsx <its entry>`), but on its own database, broker namespace, Redis prefix, mail and blob
 * folders and free ports, so nothing of the development data is touched.
 */

const TSX = path.join(REPO_ROOT, 'node_modules/.bin/tsx');

export interface Isolation {
  runId: string;
  databaseUrl: string;
  busNamespace: string;
  redisPrefix: string;
  redisUrl: string;
  amqpUrl: string;
  mailDir: string;
  /** var/chaos/<run id>: logs, samples. */
  dir: string;
}

export interface ProcessExit {
  name: string;
  at: number;
  code: number | null;
  signal: string | null;
}

export interface RunningProcess {
  entry: ServiceEntry;
  /** The entry's name, with `#2`… for a second replica and on (`#1` too when there are several). */
  name: string;
  /** Which replica of its entry (0 for the first). */
  replica: number;
  /** The port its main HTTP server listens on. */
  port: number;
  /** Where its /readyz answers: the internal port when the entry names one, else `port`. */
  readyPort: number;
  child: ChildProcess;
  log: string;
  exit?: ProcessExit;
}

/** One CREATE DATABASE away from the admin database of the same server. */
function adminUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  return url.toString();
}

function databaseName(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
}

/** A fresh chaos database each run: its checks count every row in it as this run's. */
export async function recreateDatabase(databaseUrl: string): Promise<void> {
  const name = databaseName(databaseUrl);
  // It is dropped: never let a setting point this at the development or a test database.
  if (!/chaos/.test(name)) throw new Error(`the chaos database must have 'chaos' in its name (got '${name}'): it is dropped at every run`);
  const client = new pg.Client({ connectionString: adminUrl(databaseUrl) });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

/** Runs an infra/scripts/*.ts script (migrate, seed) against the chaos database. */
export function runScript(script: string, env: NodeJS.ProcessEnv, logFile: string, args: string[] = []): void {
  const fd = openSync(logFile, 'a');
  try {
    const result = spawnSync(TSX, [path.join('infra/scripts', script), ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', fd, fd] });
    if (result.status !== 0) throw new Error(`infra/scripts/${script} failed (exit ${String(result.status ?? result.signal)}); see ${logFile}`);
  } finally {
    closeSync(fd);
  }
}

/** Where one replica of a process listens. */
interface ReplicaPorts {
  port: number;
  /** Where its /readyz answers: the internal port when the entry names one, else `port`. */
  readyPort: number;
  internalPort?: number;
}

export interface PlannedEntry {
  entry: ServiceEntry;
  replicas: ReplicaPorts[];
}

export interface Plan {
  entries: PlannedEntry[];
  env: NodeJS.ProcessEnv;
  gatewayUrl: string;
  /**
   * With several replicas, the round-robin proxies (round-robin.ts) the run starts in front of
   * each process's ports: every URL a service or the load uses names the proxy's port.
   */
  balancers: Array<{ name: string; port: number; targets: number[] }>;
}

/**
 * Free ports for every process (`replicas` of each) and the environment they all share:
 * env.sh's variables (secrets, demo passwords) with everything that could reach development
 * data replaced.
 */
export async function plan(isolation: Isolation, base: NodeJS.ProcessEnv, replicas = 1): Promise<Plan> {
  const env: NodeJS.ProcessEnv = {
    ...base,
    NODE_ENV: 'development',
    LOG_LEVEL: base.CHAOS_LOG_LEVEL ?? 'info',
    DATABASE_URL: isolation.databaseUrl,
    REDIS_URL: isolation.redisUrl,
    AMQP_URL: isolation.amqpUrl,
    BUS_NAMESPACE: isolation.busNamespace,
    REDIS_PREFIX: isolation.redisPrefix,
    MAIL_DIR: isolation.mailDir,
    // Uploads the catalog stores and the importer reads back: one local folder of this run's.
    BLOB_STORE: 'local',
    BLOB_DIR: path.join(isolation.dir, 'blobs'),
    // Mail goes to .eml files, whose bodies the checks read to tie each e-mail to its order.
    SMTP_URL: '',
    PAYMENT_PROVIDER: 'sandbox',
    STRIPE_SECRET_KEY: '',
    STRIPE_PUBLISHABLE_KEY: '',
    STRIPE_WEBHOOK_SECRET: '',
  };
  const entries: PlannedEntry[] = [];
  const balancers: Plan['balancers'] = [];
  const fronts = new Map<string, { port: number; internalPort?: number }>();
  for (const entry of listServices()) {
    const ports: ReplicaPorts[] = [];
    for (let i = 0; i < replicas; i += 1) {
      const port = await freePort();
      const internalPort = entry.internalPortEnv ? await freePort() : undefined;
      ports.push({ port, readyPort: internalPort ?? port, ...(internalPort ? { internalPort } : {}) });
    }
    // One replica is reached directly; several through a round-robin proxy of their own.
    const front = replicas === 1 ? { port: ports[0]!.port, ...(ports[0]!.internalPort ? { internalPort: ports[0]!.internalPort } : {}) } : { port: await freePort(), ...(entry.internalPortEnv ? { internalPort: await freePort() } : {}) };
    if (replicas > 1) {
      balancers.push({ name: entry.name, port: front.port, targets: ports.map((r) => r.port) });
      if (front.internalPort) balancers.push({ name: `${entry.name} (internal)`, port: front.internalPort, targets: ports.map((r) => r.internalPort!) });
    }
    fronts.set(entry.name, front);
    entries.push({ entry, replicas: ports });
    // Each service finds the others at <NAME>_URL (CATALOG_URL, ORDERS_URL, GATEWAY_URL…).
    env[`${entry.name.toUpperCase().replaceAll('-', '_')}_URL`] = `http://127.0.0.1:${front.internalPort ?? front.port}`;
  }
  // Services the gateway may forward to that this system does not run yet: a closed port here,
  // never the development one.
  for (const missing of ['PARTNERS_URL', 'INGESTION_URL', 'TRANSFERS_URL']) {
    if (!entries.some((e) => `${e.entry.name.toUpperCase()}_URL` === missing)) env[missing] = `http://127.0.0.1:${await freePort()}`;
  }
  const gateway = fronts.get('gateway');
  if (!gateway) throw new Error('infra/services.json has no gateway');
  // The catalog and the transfers service name the gateway's internal listener GATEWAY_INTERNAL_URL
  // (orders: GATEWAY_URL, set above); its default is the development gateway's 3100.
  env.GATEWAY_INTERNAL_URL = `http://127.0.0.1:${gateway.internalPort ?? gateway.port}`;
  const gatewayUrl = `http://127.0.0.1:${gateway.port}`;
  env.PUBLIC_URL = gatewayUrl;
  return { entries, env, gatewayUrl, balancers };
}

/** Starts every replica of every process; each one's exit is recorded the moment it happens. */
export function startAll(p: Plan, isolation: Isolation, onExit: (exit: ProcessExit, pid: number | undefined) => void): RunningProcess[] {
  return p.entries.flatMap((planned) => planned.replicas.map((_, replica) => startReplica(p, isolation, planned, replica, onExit)));
}

/** Starts one replica of a process (again, after it was killed: its log goes on). */
export function startReplica(p: Plan, isolation: Isolation, planned: PlannedEntry, replica: number, onExit: (exit: ProcessExit, pid: number | undefined) => void): RunningProcess {
  const { entry } = planned;
  const ports = planned.replicas[replica]!;
  const name = planned.replicas.length === 1 ? entry.name : `${entry.name}#${replica + 1}`;
  const log = path.join(isolation.dir, `${name.replace('#', '-')}.log`);
  const fd = openSync(log, 'a');
  // detached: its own process group, so a Ctrl-C reaches us first and we stop it in order.
  const child = spawn(TSX, [entryFile(entry)], {
    cwd: REPO_ROOT,
    env: {
      ...p.env,
      ...entryEnv(entry),
      // Each process as its schema's app role, never the superuser the migration step used.
      DATABASE_URL: entryDatabaseUrl(entry, p.env.DATABASE_URL ?? '', p.env),
      [entry.portEnv]: String(ports.port),
      ...(entry.internalPortEnv && ports.internalPort ? { [entry.internalPortEnv]: String(ports.internalPort) } : {}),
    },
    stdio: ['ignore', fd, fd],
    detached: true,
  });
  closeSync(fd);
  const running: RunningProcess = { entry, name, replica, port: ports.port, readyPort: ports.readyPort, child, log };
  child.once('exit', (code, signal) => {
    running.exit = { name, at: Date.now(), code, signal };
    onExit(running.exit, child.pid);
  });
  return running;
}

/** SIGKILL to a replica's whole process group (tsx and its node): no drain, no goodbye. */
export function killReplica(running: RunningProcess): Promise<void> {
  const pid = running.child.pid;
  if (pid === undefined || running.exit) return Promise.resolve();
  const exited = new Promise<void>((resolve) => running.child.once('exit', () => resolve()));
  signalGroup(pid, 'SIGKILL');
  return exited;
}

/** Signals a child's whole process group (tsx and the node it runs); false when none is left. */
function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * SIGTERM to each tsx (it passes the signal on to its node: one signal, a graceful stop),
 * then SIGKILL to whatever is left of its process group after a while, including a node
 * whose tsx died before it.
 */
export async function stopAll(processes: RunningProcess[]): Promise<void> {
  await Promise.all(
    [...processes].reverse().map(async (p) => {
      const pid = p.child.pid;
      if (pid === undefined) return;
      if (p.exit) {
        if (signalGroup(pid, 'SIGTERM')) await sleep(3000);
      } else {
        const exited = new Promise<void>((resolve) => p.child.once('exit', () => resolve()));
        p.child.kill('SIGTERM');
        await Promise.race([exited, sleep(15_000)]);
      }
      signalGroup(pid, 'SIGKILL');
    }),
  );
}

export interface Readiness {
  name: string;
  ready: boolean;
  /** What /readyz said, for the log: status and body, or the network error. */
  detail: string;
}

/**
 * One /readyz of a process. Green is 200 with nothing degraded: a 200 that still lists a
 * degraded dependency (RabbitMQ down, outbox holding) is not yet back.
 */
async function readiness(p: RunningProcess): Promise<Readiness> {
  try {
    const response = await fetch(`http://127.0.0.1:${p.readyPort}/readyz`, { signal: AbortSignal.timeout(3000) });
    const text = await response.text();
    let degraded = false;
    try {
      const body = JSON.parse(text) as { degraded?: unknown };
      degraded = Array.isArray(body.degraded) && body.degraded.length > 0;
    } catch {
      // not JSON: the status decides
    }
    return { name: p.name, ready: response.status === 200 && !degraded, detail: `${response.status} ${text.slice(0, 200)}` };
  } catch (err) {
    return { name: p.name, ready: false, detail: err instanceof Error ? err.message : String(err) };
  }
}

export async function allReady(processes: RunningProcess[]): Promise<Readiness[]> {
  return Promise.all(processes.map(readiness));
}

/** Polls every /readyz until all are green; the time they were, or null at the ceiling. */
export async function waitAllReady(processes: RunningProcess[], ceilingMs: number, stepMs = 250): Promise<{ at: number | null; last: Readiness[] }> {
  const deadline = Date.now() + ceilingMs;
  for (;;) {
    const last = await allReady(processes);
    if (last.every((r) => r.ready)) return { at: Date.now(), last };
    if (Date.now() > deadline) return { at: null, last };
    await sleep(stepMs);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Removes the run's queues and exchanges (everything named `<namespace>.…`) and Redis keys
 * (`<prefix>…`). Best effort: a failure is reported, the run's verdict does not depend on it.
 */
export async function cleanUp(isolation: Isolation, say: (line: string) => void): Promise<void> {
  try {
    const prefix = `${isolation.busNamespace}.`;
    const list = (what: 'queues' | 'exchanges') => {
      const result = spawnSync('rabbitmqctl', [`list_${what}`, 'name', '--quiet', '--no-table-headers'], { encoding: 'utf8', timeout: 60_000 });
      return result.status === 0 ? result.stdout.split('\n').map((l) => l.trim()).filter((n) => n.startsWith(prefix)) : [];
    };
    const queues = list('queues');
    const exchanges = list('exchanges');
    const connection = await amqp.connect(isolation.amqpUrl);
    try {
      for (const [kind, names] of [['queue', queues], ['exchange', exchanges]] as const) {
        for (const name of names) {
          // A fresh channel each time: a refused delete closes its channel.
          const channel = await connection.createChannel();
          try {
            if (kind === 'queue') await channel.deleteQueue(name);
            else await channel.deleteExchange(name);
            await channel.close();
          } catch {
            // gone already
          }
        }
      }
    } finally {
      await connection.close();
    }
    say(`removed ${queues.length} queues and ${exchanges.length} exchanges of namespace ${isolation.busNamespace}`);
  } catch (err) {
    say(`could not remove the broker namespace ${isolation.busNamespace}: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    const redis = createClient({ url: isolation.redisUrl });
    await redis.connect();
    let removed = 0;
    for await (const batch of redis.scanIterator({ MATCH: `${isolation.redisPrefix}*`, COUNT: 500 })) {
      const keys: string[] = Array.isArray(batch) ? batch : [batch];
      if (keys.length > 0) removed += await redis.del(keys);
    }
    await redis.quit();
    say(`removed ${removed} Redis keys under ${isolation.redisPrefix}`);
  } catch (err) {
    say(`could not remove the Redis keys under ${isolation.redisPrefix}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
