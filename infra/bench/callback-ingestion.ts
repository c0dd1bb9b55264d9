/**
 * `make bench` (part 4): vendor webhook ingestion (issue 15). Not a test: it measures, prints,
 * and writes its section of docs/benchmarks.md (between the bench:callback-ingestion markers).
 *
 * - A fresh database (dropped at the end), broker namespace and Redis prefix. The gateway and the
 *   ingestion service run as their own processes (`tsx services/<name>/src/main.ts`), as in
 *   production; autocannon drives them from this one, on loopback.
 * - Baseline, in the same run: a bare `pg` INSERT loop of the same rows (a copy of vendor_calls,
 *   its indexes too) on a pool of the service's size, as many loops as connections, for the same
 *   time. The webhook's maximum sustained rate (the best of a few connection counts, with no
 *   non-2xx answer) is reported as a ratio of it. Target ≥ 70 %.
 * - Then half that rate, paced (autocannon overallRate): p99 latency. Target ≤ 25 ms.
 * - Zero lost: stored rows = 2xx answers = callback.received events on a queue bound for the run.
 * - k6 is named by the design card but cannot be installed here; none runs.
 * - BENCH_CPU_PROF_DIR=/tmp/prof: the gateway and the ingestion service write V8 CPU profiles there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import amqp from 'amqplib';
import { CALLBACK_WEBHOOK_PATH, EVENTS_EXCHANGE } from '@warmline/contracts';
import { createPool } from '@warmline/platform/db/index';
import { createTestDatabase, freePort, TEST_KEYS, waitFor } from '@warmline/platform/testing/index';
import { deleteBusNames, deleteRedisKeys } from '@warmline/platform/testing/system';
import { INGESTION_SCHEMA } from '@warmline/ingestion/service';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BENCHMARKS_MD = path.join(REPO_ROOT, 'docs/benchmarks.md');
const START = '<!-- bench:callback-ingestion:start -->';
const END = '<!-- bench:callback-ingestion:end -->';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTION_STEPS = (process.env.BENCH_CONNECTIONS ?? '10,25,50').split(',').map(Number);
const TARGET_RATIO = 0.7;
const TARGET_P99_MS = 25;

const log = (message: string) => process.stdout.write(`bench: ${message}\n`);

/* ---------------------------------------------------------------- autocannon ---------- */

/** The part of autocannon's API used here (it ships no types). */
interface CannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}
interface CannonResult {
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
  latency: { p50: number; p99: number; average: number };
  requests: { average: number };
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  overallRate?: number;
  requests: Array<{ method: string; path: string; headers: Record<string, string>; setupRequest: (req: CannonRequest) => CannonRequest }>;
}) => Promise<CannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/* ------------------------------------------------------------------ the calls ---------- */

let sequence = 0;
/** A distinct call each time (its own phone and transcript): no two are repeats. */
function nextCall(): Record<string, string> {
  sequence += 1;
  const phone = `2${String(sequence).padStart(9, '0')}`.slice(0, 10);
  return {
    first_name: 'Maria',
    last_name: 'Lopez',
    phone_number: phone,
    transcript: `Agent: Would a licensed agent call you back? Prospect: Yes, tomorrow after 3 pm. (call ${sequence})`,
    call_outcome: 'callback_requested',
    state: 'TX',
    lead_quality: 'hot',
    interest_level: 'high',
  };
}

/* ------------------------------------------------------------------ processes ---------- */

function startProcess(name: string, env: Record<string, string>): ChildProcess {
  // BENCH_CPU_PROF_DIR: each service writes a V8 CPU profile there when it stops (where a call's CPU goes).
  const profile = process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.join(process.env.BENCH_CPU_PROF_DIR, name)}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', path.join(REPO_ROOT, `services/${name}/src/main.ts`)], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.on('exit', (code) => {
    if (code !== null && code !== 0) log(`${name} exited with ${code}`);
  });
  return child;
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** CPU seconds (user + system) process `pid` has used so far, from /proc (Linux). */
function cpuSeconds(pid: number | undefined): number {
  try {
    // Fields after the command name: utime and stime are the 12th and 13th, in clock ticks (100 a second).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds so far of each PostgreSQL backend serving `database` (its title names the database). */
function backendSeconds(database: string): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (title.startsWith('postgres: ') && title.includes(` ${database} `)) seconds.set(Number(entry), cpuSeconds(Number(entry)));
    } catch {
      // gone meanwhile
    }
  }
  return seconds;
}

/** CPU the database's backends used between two snapshots (a backend that ended in between is not counted). */
function backendSecondsSince(database: string, before: Map<number, number>): number {
  let total = 0;
  for (const [pid, now] of backendSeconds(database)) total += now - (before.get(pid) ?? 0);
  return total;
}

const healthy = (url: string) => async () => (await fetch(`${url}/healthz`).catch(() => undefined))?.ok === true;

/* -------------------------------------------------------------------- the run ---------- */

const runId = randomBytes(4).toString('hex');
const namespace = `bench_callbacks_${runId}`;
const redisPrefix = `bench:callbacks:${runId}:`;
const db = await createTestDatabase('warmline_bench_callbacks');
const shared = { NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: db.url, MIGRATION_DATABASE_URL: db.url, AMQP_URL, ...TEST_KEYS, BUS_NAMESPACE: namespace };
const ingestionPort = await freePort();
const gatewayPort = await freePort();
const ingestionUrl = `http://127.0.0.1:${ingestionPort}`;
const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
const children: ChildProcess[] = [];
const lines: string[] = [];
const loadBefore = os.loadavg()[0]!;

const broker = await amqp.connect(AMQP_URL);
const pool = createPool(db.url, INGESTION_SCHEMA, POOL_SIZE);
try {
  children.push(startProcess('ingestion', { ...shared, INGESTION_PORT: String(ingestionPort), INGESTION_DB_POOL_SIZE: String(POOL_SIZE) }));
  await waitFor('the ingestion service', healthy(ingestionUrl), { timeoutMs: 60_000, intervalMs: 250 });
  children.push(
    startProcess('gateway', {
      ...shared,
      GATEWAY_PORT: String(gatewayPort),
      GATEWAY_INTERNAL_PORT: String(await freePort()),
      REDIS_URL,
      REDIS_PREFIX: redisPrefix,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      ADMIN_USERNAME: `bench_admin_${runId}`,
      ADMIN_PASSWORD: `bench-password-${runId}`,
      WEB_DIST_DIR: path.join(os.tmpdir(), 'no-web-dist'),
      INGESTION_URL: ingestionUrl,
      // Capacity is what is measured here, not the per-key limit.
      VENDOR_WEBHOOK_CALLS_PER_MINUTE: '1000000',
    }),
  );
  await waitFor('the gateway', healthy(gatewayUrl), { timeoutMs: 60_000, intervalMs: 250 });

  // A vendor key, made as the admin route would (the service's own tables, hashed).
  const key = `wlv_${randomBytes(24).toString('base64url')}`;
  await pool.query(`INSERT INTO vendor_keys (id, name, key_hash, key_hint) VALUES ($1, 'Bench Voice', $2, $3)`, [
    randomUUID(),
    createHash('sha256').update(key).digest('hex'),
    key.slice(0, 8),
  ]);

  // Every callback.received of the run, counted off a queue bound for it.
  const channel = await broker.createChannel();
  const tap = `${namespace}.bench-events`;
  await channel.assertQueue(tap, { durable: false, autoDelete: true });
  await channel.bindQueue(tap, `${namespace}.${EVENTS_EXCHANGE}`, 'callback.received');
  let delivered = 0;
  await channel.consume(tap, () => { delivered += 1; }, { noAck: true });

  /* ---- baseline: a bare INSERT loop of the same rows, same pool size, same time ---- */
  await pool.query('CREATE TABLE bench_insert_only (LIKE vendor_calls INCLUDING ALL)');
  await pool.query('ALTER TABLE bench_insert_only DROP CONSTRAINT IF EXISTS bench_insert_only_vendor_key_id_fkey');
  const keyId = (await pool.query<{ id: string }>('SELECT id FROM vendor_keys LIMIT 1')).rows[0]!.id;
  let inserted = 0;
  const baselineEnds = Date.now() + SECONDS * 1000;
  const baselineStarted = Date.now();
  await Promise.all(
    Array.from({ length: POOL_SIZE }, async () => {
      while (Date.now() < baselineEnds) {
        const c = nextCall();
        await pool.query(
          `INSERT INTO bench_insert_only (id, vendor_key_id, first_name, last_name, phone, transcript, call_outcome, state, lead_quality, interest_level, disposition, received_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'opportunity', now())`,
          [randomUUID(), keyId, c.first_name, c.last_name, c.phone_number, c.transcript, c.call_outcome, c.state, c.lead_quality, c.interest_level],
        );
        inserted += 1;
      }
    }),
  );
  const baselineRate = inserted / ((Date.now() - baselineStarted) / 1000);
  log(`baseline: ${inserted} bare INSERTs in ${SECONDS} s on ${POOL_SIZE} connections = ${baselineRate.toFixed(0)}/s`);

  /* ---- the webhook through the gateway ---- */
  const request = {
    method: 'POST',
    path: CALLBACK_WEBHOOK_PATH,
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    setupRequest: (req: CannonRequest) => ({ ...req, body: JSON.stringify(nextCall()) }),
  };
  let answered2xx = 0;
  const steps: Array<{ connections: number; rate: number; result: CannonResult }> = [];
  // Warm-up (JIT, pools, the relay).
  answered2xx += (await autocannon({ url: gatewayUrl, connections: 10, duration: 3, requests: [request] }))['2xx'];
  // CPU each service spends per call, from here to the end: a figure the machine's other load moves much less than rates.
  const [ingestionProcess, gatewayProcess] = children as [ChildProcess, ChildProcess];
  const database = new URL(db.url).pathname.slice(1);
  const cpuBefore = { ingestion: cpuSeconds(ingestionProcess.pid), gateway: cpuSeconds(gatewayProcess.pid), postgres: backendSeconds(database), answered: answered2xx };
  for (const connections of CONNECTION_STEPS) {
    const result = await autocannon({ url: gatewayUrl, connections, duration: SECONDS, requests: [request] });
    answered2xx += result['2xx'];
    const rate = result['2xx'] / SECONDS;
    steps.push({ connections, rate, result });
    log(`webhook, ${connections} connections: ${rate.toFixed(0)}/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`);
  }
  const clean = steps.filter((s) => s.result.non2xx === 0 && s.result.errors === 0 && s.result.timeouts === 0);
  const best = (clean.length > 0 ? clean : steps).reduce((a, b) => (b.rate > a.rate ? b : a));
  const ratio = best.rate / baselineRate;

  const halfRate = Math.max(1, Math.floor(best.rate / 2));
  const paced = await autocannon({ url: gatewayUrl, connections: best.connections, duration: SECONDS, overallRate: halfRate, requests: [request] });
  answered2xx += paced['2xx'];
  const callsMeasured = answered2xx - cpuBefore.answered;
  const cpuPerCall = {
    ingestion: ((cpuSeconds(ingestionProcess.pid) - cpuBefore.ingestion) / callsMeasured) * 1000,
    gateway: ((cpuSeconds(gatewayProcess.pid) - cpuBefore.gateway) / callsMeasured) * 1000,
    postgres: (backendSecondsSince(database, cpuBefore.postgres) / callsMeasured) * 1000,
  };
  const cpuText = `ingestion ${cpuPerCall.ingestion.toFixed(2)} ms, gateway ${cpuPerCall.gateway.toFixed(2)} ms, PostgreSQL (the run's backends) ${cpuPerCall.postgres.toFixed(2)} ms`;
  log(`CPU per call: ${cpuText} (${callsMeasured} calls)`);
  log(`webhook at half that (${halfRate}/s): p50 ${paced.latency.p50} ms, p99 ${paced.latency.p99} ms, non-2xx ${paced.non2xx}`);

  /* ---- zero lost ---- */
  const rows = async () => (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM vendor_calls')).rows[0]!.n;
  await waitFor('every event delivered', async () => delivered >= (await rows()), { timeoutMs: 120_000, intervalMs: 500 }).catch(() => undefined);
  const stored = await rows();
  const lost = answered2xx - stored;
  log(`answered 2xx ${answered2xx}, rows ${stored}, events delivered ${delivered}`);

  const pgVersion = (await pool.query<{ v: string }>("SELECT split_part(version(), ' on ', 1) AS v")).rows[0]?.v ?? '?';
  const verdict = (ok: boolean) => (ok ? 'within target' : '**over target**');
  lines.push(
    `Last run: ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPU cores shared by PostgreSQL, RabbitMQ, Redis, the gateway and the ingestion service (each its own process) and autocannon 9 (this process), ${pgVersion}, Node ${process.version}; ` +
      `pool of ${POOL_SIZE} connections; ${SECONDS} s per step after a 3 s warm-up; every call distinct (no repeats); the machine's 1-minute load average was ${loadBefore.toFixed(1)} before and ${os.loadavg()[0]!.toFixed(1)} after. ` +
      'No k6 binary here, so no k6 run.',
    '',
    '| measure | value | target |',
    '|---|---|---|',
    `| bare \`pg\` INSERT loop of the same rows, ${POOL_SIZE} loops on ${POOL_SIZE} connections | ${baselineRate.toFixed(0)} rows/s | (baseline) |`,
    ...steps.map((s) => `| webhook through the gateway, ${s.connections} connections | ${s.rate.toFixed(0)} calls/s (p50 ${s.result.latency.p50} ms, p99 ${s.result.latency.p99} ms, non-2xx ${s.result.non2xx}) | |`),
    `| **maximum sustained webhook rate ÷ INSERT loop** | **${(ratio * 100).toFixed(0)} %** (${best.rate.toFixed(0)}/s at ${best.connections} connections) | ≥ ${TARGET_RATIO * 100} %: ${verdict(ratio >= TARGET_RATIO)} |`,
    `| CPU per call (user + system, after the warm-up, ${callsMeasured} calls) | ${cpuText} (RabbitMQ, Redis and autocannon not counted) | |`,
    `| **p99 at half that rate** (${halfRate}/s paced) | **${paced.latency.p99} ms** (p50 ${paced.latency.p50} ms) | ≤ ${TARGET_P99_MS} ms: ${verdict(paced.latency.p99 <= TARGET_P99_MS)} |`,
    // autocannon stops a step with calls in flight: those are stored (and delivered) without a counted answer.
    `| **lost** (2xx answers ${answered2xx}, rows ${stored} — ${Math.max(0, stored - answered2xx)} of them in flight when a step ended, callback.received delivered ${delivered}) | **${Math.max(0, lost) + Math.max(0, stored - delivered)}** | 0: ${verdict(lost <= 0 && delivered >= stored)} |`,
    '',
    'Reproduce: `npx tsx infra/bench/callback-ingestion.ts` (BENCH_SECONDS, BENCH_CONNECTIONS=10,25,50, BENCH_POOL_SIZE to vary).',
  );
  if (ratio < TARGET_RATIO || paced.latency.p99 > TARGET_P99_MS || lost > 0 || delivered < stored) process.exitCode = 1;
  await channel.close();
} finally {
  for (const child of children.reverse()) await stopProcess(child);
  await pool.end();
  await broker.close().catch(() => undefined);
  await deleteBusNames(namespace, ['bench-events'], AMQP_URL).catch(() => undefined);
  await deleteRedisKeys(redisPrefix).catch(() => undefined);
  await db.drop();
}

if (lines.length > 0) {
  const doc = readFileSync(BENCHMARKS_MD, 'utf8');
  const at = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (at < 0 || end < at) throw new Error(`${BENCHMARKS_MD} has no ${START} … ${END} section to write into`);
  writeFileSync(BENCHMARKS_MD, `${doc.slice(0, at + START.length)}\n${lines.join('\n')}\n${doc.slice(end)}`);
  log('results written to docs/benchmarks.md');
}
