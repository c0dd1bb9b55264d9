/**
 * `make chaos` (issue 10): the whole system under a steady mixed load while this machine's real
 * PostgreSQL, Redis and RabbitMQ are restarted one after the other; then nothing may be lost,
 * doubled, or have crashed. Writes the "Faults" section of docs/benchmarks.md (between the
 * chaos:faults markers) and exits non-zero when an event was lost, an effect doubled, a
 * process exited or a service never became ready again.
 *
 *   --faults postgresql,redis,rabbitmq   which servers to restart, in order (default: all three)
 *   --faults none                        dry run: the load and the checks, nothing restarted
 *   --users N --pace MS                  virtual users and the pause between one user's steps
 *   --calm S                             seconds of plain load before, between and after faults
 *   --duration S                         seconds of load of a dry run
 *   --drain S                            ceiling for the outboxes to drain after the load
 *   --replicas N                         N copies of every process (default 1, or REPLICAS): HTTP
 *                                        behind a round-robin proxy each, and after the server
 *                                        faults one replica of each process is killed (SIGKILL)
 *                                        in turn and started again
 *   --preflight                          only say whether a fault run would be refused now
 *
 * Isolation (see system.ts): CHAOS_DATABASE_URL (default …/warmline_chaos, recreated each run),
 * a unique BUS_NAMESPACE and REDIS_PREFIX, var/chaos/<run>/ for logs, mail and samples.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import amqp from 'amqplib';
import { createClient } from 'redis';
import { REPO_ROOT } from '../scripts/services';
import { serviceMigrations } from '../scripts/migrations';
import { drainAndCheck } from './checks';
import { canInject, faultSpec, FAULT_NAMES, injectFault, type FaultName, type FaultResult } from './faults';
import { Load } from './load';
import { killEachService, type ReplicaKill } from './kills';
import { startRoundRobin, type RoundRobin } from './round-robin';
import { setUpTransferAgents } from './transfers';
import { otherUsersOfTheServers } from './preflight';
import { periodicRunsTwice, readProcessLogs } from './logs';
import { markdown, passed, writeSection, type Window } from './report';
import {
  allReady,
  cleanUp,
  plan,
  recreateDatabase,
  runScript,
  sleep,
  startAll,
  stopAll,
  type Isolation,
  type ProcessExit,
  type RunningProcess,
} from './system';

const say = (line: string) => process.stdout.write(`chaos: ${line}\n`);
/** Agents every state, all day: with the demo agent, enough that routes are rarely refused for want of one. */
const CHAOS_TRANSFER_AGENTS = 4;
const refuse = (line: string): never => {
  process.stderr.write(`chaos: ${line}\n`);
  process.exit(2);
};

/* ------------------------------------------------------------------ options ---------- */

const { values } = parseArgs({
  options: {
    faults: { type: 'string', default: process.env.CHAOS_FAULTS || FAULT_NAMES.join(',') },
    users: { type: 'string', default: '4' },
    pace: { type: 'string', default: '300' },
    calm: { type: 'string', default: '20' },
    duration: { type: 'string', default: '60' },
    drain: { type: 'string', default: '300' },
    replicas: { type: 'string', default: process.env.REPLICAS || '1' },
    preflight: { type: 'boolean', default: false },
  },
  allowPositionals: false,
});

function wholeNumber(name: string, raw: string, min: number): number {
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min) refuse(`--${name} must be a whole number of at least ${min} (got '${raw}')`);
  return n;
}
const users = wholeNumber('users', values.users, 1);
const paceMs = wholeNumber('pace', values.pace, 0);
const calmSeconds = wholeNumber('calm', values.calm, 1);
const dryRunSeconds = wholeNumber('duration', values.duration, 5);
const drainSeconds = wholeNumber('drain', values.drain, 10);
const replicas = wholeNumber('replicas', values.replicas, 1);
if (replicas > 4) refuse(`--replicas must be at most 4 on this machine (got ${replicas})`);

const requested = values.faults.split(',').map((f) => f.trim().toLowerCase()).filter((f) => f !== '');
const dryRun = requested.length === 1 && requested[0] === 'none';
/** `replicas` in --faults: kill one replica of each process (the default with several replicas). */
const KILLS = 'replicas';
const faults: FaultName[] = dryRun
  ? []
  : requested.filter((f) => f !== KILLS).map((f) => ((FAULT_NAMES as readonly string[]).includes(f) ? (f as FaultName) : refuse(`unknown fault '${f}': choose from ${FAULT_NAMES.join(', ')}, ${KILLS} or none`)));
const killReplicas = !dryRun && replicas > 1 && (requested.includes(KILLS) || values.faults === FAULT_NAMES.join(','));
if (requested.includes(KILLS) && replicas === 1) refuse(`--faults ${KILLS} needs --replicas 2 or more (REPLICAS=2)`);
/** Nothing of the shared servers is restarted: allowed beside `make test`. */
const touchesServers = faults.length > 0;

/* ---------------------------------------------------------------- preflight ---------- */

// Restarting the shared servers under a `make test` or `make start` would break them.
const others = await otherUsersOfTheServers(Number(process.env.GATEWAY_PORT || 3000));
if (values.preflight) {
  if (others.length > 0) refuse(`a fault run would be refused now: ${others.join('; ')}`);
  say('a fault run could start now: no `make test` or `make start` uses the servers');
  process.exit(0);
}
if (others.length > 0 && touchesServers) {
  refuse(`refusing to restart PostgreSQL/Redis/RabbitMQ while they are in use by ${others.join('; ')}. Stop it first (or run \`make chaos FAULTS=none\`).`);
}
if (others.length > 0) say(`${dryRun ? 'dry run' : 'replica kills only'} beside ${others.join('; ')}: no server is restarted and this run uses its own database, namespace and ports`);
for (const name of faults) {
  const problem = canInject(faultSpec(name));
  if (problem) refuse(`cannot restart ${name}: ${problem}`);
}

/* ---------------------------------------------------------------- isolation ---------- */

const runId = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
const isolation: Isolation = {
  runId,
  databaseUrl: process.env.CHAOS_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/warmline_chaos',
  busNamespace: `chaos_${runId}`,
  redisPrefix: `warmline:chaos:${runId}:`,
  redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  amqpUrl: process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672',
  mailDir: path.join(REPO_ROOT, 'var/chaos', runId, 'mail'),
  dir: path.join(REPO_ROOT, 'var/chaos', runId),
};
mkdirSync(isolation.mailDir, { recursive: true });
// The seed needs these; `make chaos` has them from var/local.env, a bare run gets throwaway ones.
const baseEnv: NodeJS.ProcessEnv = {
  ...process.env,
  ADMIN_USERNAME: process.env.ADMIN_USERNAME || 'admin',
  ADMIN_PASSWORD: process.env.ADMIN_PASSWORD || `chaos-${runId}-admin`,
  DEMO_AGENT_USERNAME: process.env.DEMO_AGENT_USERNAME || 'demo.agent',
  DEMO_AGENT_PASSWORD: process.env.DEMO_AGENT_PASSWORD || `chaos-${runId}-agent`,
  // The seed registers it in ingestion and in the transfers service's mirror; the load routes with it.
  DEMO_VENDOR_KEY: process.env.DEMO_VENDOR_KEY || `wlv_chaos_${runId}_${randomBytes(12).toString('hex')}`,
};
if (!baseEnv.IDENTITY_PRIVATE_KEY || !baseEnv.SERVICE_PUBLIC_KEYS || !baseEnv.SESSION_SECRET) refuse('the identity keys and SESSION_SECRET are not set: run through `make chaos` (infra/scripts/env.sh)');

say(`run ${runId}: ${dryRun ? 'dry run, no faults' : `faults ${[...faults, ...(killReplicas ? [`one of ${replicas} replicas of each process killed`] : [])].join(', ')}`}; logs in ${path.relative(REPO_ROOT, isolation.dir)}/`);

/* ------------------------------------------------------------------- system ---------- */

const exits: ProcessExit[] = [];
let processes: RunningProcess[] = [];
let balancers: RoundRobin[] = [];
let load: Load | undefined;
/** Set once we stop the services ourselves: their exits from then on are not faults. */
let stopping = false;

async function shutDown(): Promise<void> {
  stopping = true;
  await load?.stop();
  await stopAll(processes);
  await Promise.all(balancers.map((b) => b.close()));
  await cleanUp(isolation, say);
}

// Ctrl-C: the services run in their own process groups, so stop them and tidy up ourselves.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    say(`${signal}: stopping the load and the services`);
    void shutDown().finally(() => process.exit(130));
  });
}

const setupLog = path.join(isolation.dir, 'setup.log');
say(`recreating ${new URL(isolation.databaseUrl).pathname.slice(1)}, migrating and seeding (log: ${path.relative(REPO_ROOT, setupLog)})`);
await recreateDatabase(isolation.databaseUrl);
const p = await plan(isolation, baseEnv, replicas);
const scriptEnv = { ...p.env, LOG_LEVEL: 'info' };
runScript('migrate.ts', scriptEnv, setupLog);
runScript('seed.ts', scriptEnv, setupLog);
// A fuller market than the seed's, so the virtual users rarely want the same lead.
runScript('seed-leads.ts', scriptEnv, setupLog, ['--count', '5000']);
// Live transfers: agents who can take one at any hour, with settings and balances (the seed's demo agent too).
const transferAgents = await setUpTransferAgents(isolation.databaseUrl, runId, CHAOS_TRANSFER_AGENTS);
say(`${transferAgents.length} transfer agents with settings and balances, and the seed's demo agent`);

/** Replicas this run kills itself: their deaths are the fault, not a crash. */
const killedOnPurpose = new Set<number>();
const onExit = (exit: ProcessExit, pid: number | undefined) => {
  if (pid !== undefined && killedOnPurpose.delete(pid)) return;
  exits.push(exit);
  if (!stopping) say(`PROCESS EXITED: ${exit.name} (${exit.signal ?? `exit ${String(exit.code)}`}); see ${path.relative(REPO_ROOT, path.join(isolation.dir, `${exit.name.replace('#', '-')}.log`))}`);
};
balancers = await Promise.all(p.balancers.map((b) => startRoundRobin(b.port, b.targets)));
processes = startAll(p, isolation, onExit);
say(`started ${processes.map((x) => `${x.name} :${x.port}`).join(', ')}${balancers.length > 0 ? ` behind ${balancers.length} round-robin proxies` : ''}; waiting for every /readyz`);
{
  const deadline = Date.now() + 120_000;
  for (;;) {
    const states = await allReady(processes);
    if (states.every((s) => s.ready)) break;
    if (exits.length > 0 || Date.now() > deadline) {
      await shutDown();
      refuse(`the system did not start: ${states.filter((s) => !s.ready).map((s) => `${s.name}: ${s.detail}`).join('; ')}`);
    }
    await sleep(500);
  }
}

/* --------------------------------------------------------------------- load ---------- */

load = new Load({
  baseUrl: p.gatewayUrl,
  users,
  paceMs,
  runId,
  demoAgent: { username: baseEnv.DEMO_AGENT_USERNAME!, password: baseEnv.DEMO_AGENT_PASSWORD! },
  vendorKey: await createVendorKey(p.gatewayUrl, { username: baseEnv.ADMIN_USERNAME!, password: baseEnv.ADMIN_PASSWORD! }),
  transferKey: baseEnv.DEMO_VENDOR_KEY!,
});
const loadStart = Date.now();
load.start();
say(`load: ${users} virtual users through ${p.gatewayUrl}`);

const windows: Window[] = [];
const results: FaultResult[] = [];
const replicaKills: ReplicaKill[] = [];
if (dryRun) {
  await sleep(dryRunSeconds * 1000);
} else {
  await sleep(calmSeconds * 1000);
  const calmEnd = Date.now();
  windows.push({ label: 'calm, before the faults', from: loadStart, to: calmEnd, consequencesTo: calmEnd });
  for (const name of faults) {
    const result = await injectFault(faultSpec(name), processes, 180_000, say);
    results.push(result);
    const to = result.readyAt ?? Date.now();
    say(`${result.spec.label}: ${result.readyAt ? `every /readyz green after ${((result.readyAt - (result.backAt ?? result.stoppedAt)) / 1000).toFixed(1)} s` : 'NOT ready again'}; ${calmSeconds} s calm`);
    windows.push({ label: `${result.spec.label} restart`, from: result.stoppedAt, to, fault: result, consequencesTo: to });
    await sleep(calmSeconds * 1000);
  }
  if (killReplicas) {
    const kills = await killEachService({
      plan: p,
      isolation,
      processes,
      onExit,
      killedOnPurpose,
      calmMs: Math.min(calmSeconds, 10) * 1000,
      say,
    });
    replicaKills.push(...kills);
    for (const kill of kills) {
      const to = kill.readyAt ?? Date.now();
      windows.push({ label: `${kill.name} killed (SIGKILL)`, from: kill.killedAt, to, kill, consequencesTo: to });
    }
  }
}
await load.stop();
const loadEnd = Date.now();
if (dryRun) windows.push({ label: 'no fault (dry run)', from: loadStart, to: loadEnd, consequencesTo: loadEnd });
// Sessions lost and exits count until the next fault (or the end of the load).
for (let i = 0; i < windows.length; i += 1) windows[i]!.consequencesTo = windows[i + 1]?.from ?? loadEnd;
say(`load stopped after ${((loadEnd - loadStart) / 1000).toFixed(0)} s: ${load.samples.length} requests`);

/* ------------------------------------------------------------------- checks ---------- */

const pool = new pg.Pool({ connectionString: isolation.databaseUrl, max: 2 });
const schemas = (await serviceMigrations()).map((m) => m.schema);
say(`waiting for the outboxes to drain and every effect to arrive (at most ${drainSeconds} s)`);
const { integrity, drainedAfterMs } = await drainAndCheck(
  pool,
  schemas,
  { acceptedCalls: load.acceptedCalls, repeatMismatches: load.repeatMismatches, transfers: load.transfers, transferRepeatMismatches: load.transferRepeatMismatches, mailDir: isolation.mailDir },
  drainSeconds * 1000,
  say,
);
say(`live transfers: route answers ${[...load.routeAnswers].map(([r, n]) => `${r} ${n}`).join(', ') || 'none'}`);

const environment = await describeEnvironment(pool);
await pool.end();
stopping = true;
const stoppedAt = Date.now();
await stopAll(processes);
const failovers = balancers.reduce((n, b) => n + b.failovers, 0);
// Each once-per-period task ran once per (schema, period), however many replicas ticked and restarted.
const processLogs = readProcessLogs(isolation.dir);
integrity.doubled.push(periodicRunsTwice(processLogs.periodicRuns));
await Promise.all(balancers.map((b) => b.close()));
await cleanUp(isolation, say);

/* ------------------------------------------------------------------- report ---------- */

writeFileSync(
  path.join(isolation.dir, 'samples.csv'),
  ['at_ms,latency_ms,action,status,vu', ...load.samples.map((s) => `${s.at - loadStart},${s.ms.toFixed(1)},${s.action},${s.status},${s.vu}`)].join('\n'),
);
const serverFaults = dryRun ? 'none (dry run: load and checks only)' : faults.length === 0 ? 'no server restarted' : faults.map((f) => faultSpec(f).label).join(', then ');
const facts = {
  command: `${dryRun ? 'make chaos FAULTS=none' : values.faults === FAULT_NAMES.join(',') ? 'make chaos' : `make chaos FAULTS=${requested.join(',')}`}${replicas > 1 ? ` REPLICAS=${replicas}` : ''}`,
  date: new Date().toISOString().slice(0, 10),
  faults: replicaKills.length > 0 ? `${serverFaults}, then one replica of each process killed with SIGKILL and started again` : serverFaults,
  users,
  paceMs,
  calmSeconds: dryRun ? null : calmSeconds,
  loadSeconds: (loadEnd - loadStart) / 1000,
  environment: environment.text,
  drainedAfterMs,
  // Exits while we stop the services are our own SIGTERMs, not faults.
  processesExited: exits.filter((e) => e.at < stoppedAt),
  redisPersists: environment.redisPersists,
  neverReady: [...results.filter((r) => r.readyAt === null).map((r) => r.spec.label), ...replicaKills.filter((k) => k.readyAt === null).map((k) => k.name)],
  replicas,
  failovers,
  periodicRuns: processLogs.periodicRuns.length,
  periodicPeriods: new Set(processLogs.periodicRuns.map((r) => `${r.schema}/${r.task}/${r.period}`)).size,
  duplicatesSkipped: processLogs.duplicatesSkipped,
};
const lines = markdown(facts, windows, load.samples, load.sessionLosses, exits, integrity);
process.stdout.write(`\n${lines.join('\n')}\n\n`);
for (const f of [...integrity.missing, ...integrity.doubled]) {
  if (f.count > 0) say(`${f.what}: ${f.count}, e.g. ${f.examples.join(', ')}`);
}
writeSection(lines, replicas);
say(`results written to docs/benchmarks.md (section "${replicas > 1 ? 'Faults with two replicas' : 'Faults'}")`);
if (!passed(facts, integrity)) process.exitCode = 1;

/** Versions and Redis persistence, for the report's first line. */
/** The vendor's key, made as an admin makes it (POST /api/admin/vendor-keys): shown once, kept by the load. */
async function createVendorKey(gatewayUrl: string, admin: { username: string; password: string }): Promise<string> {
  const xhr = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  const login = await fetch(`${gatewayUrl}/api/login`, { method: 'POST', headers: xhr, body: JSON.stringify(admin) });
  if (login.status !== 200) refuse(`the admin could not log in to create a vendor key (${login.status}): ${await login.text()}`);
  const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const created = await fetch(`${gatewayUrl}/api/admin/vendor-keys`, {
    method: 'POST',
    headers: { ...xhr, cookie },
    body: JSON.stringify({ name: `Chaos vendor ${runId}` }),
  });
  if (created.status !== 201) refuse(`the vendor key was not created (${created.status}): ${await created.text()}`);
  return ((await created.json()) as { key: string }).key;
}

async function describeEnvironment(db: pg.Pool): Promise<{ text: string; redisPersists: boolean }> {
  const pgVersion = (await db.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]?.v ?? '?';
  let redisVersion = '?';
  let redisPersists = false;
  try {
    const redis = createClient({ url: isolation.redisUrl });
    await redis.connect();
    redisVersion = /redis_version:(\S+)/.exec(await redis.info('server'))?.[1] ?? '?';
    const config = await redis.configGet('*');
    redisPersists = config.appendonly === 'yes' || (typeof config.save === 'string' && config.save.trim() !== '');
    await redis.quit();
  } catch {
    // unknown: reported as such
  }
  let rabbitVersion = '?';
  try {
    const connection = await amqp.connect(isolation.amqpUrl);
    const version = connection.connection.serverProperties?.version;
    rabbitVersion = typeof version === 'string' ? version : '?';
    await connection.close();
  } catch {
    // unknown
  }
  return {
    text: `${os.cpus().length} CPU cores, PostgreSQL ${pgVersion.split(' ')[0]}, Redis ${redisVersion}${redisPersists ? '' : ' (nothing on disk)'}, RabbitMQ ${rabbitVersion}, Node ${process.version}.`,
    redisPersists,
  };
}
