/**
 * `make bench` (part 4): vendor webhook ingestion (issues 15, 27). Not a test: it measures, prints,
 * writes its section of docs/benchmarks.md (between the bench:callback-ingestion markers) and
 * exits 1 naming each target missed.
 *
 * - A fresh database (dropped at the end), broker namespace and Redis prefix. The gateway and the
 *   ingestion service run as their own processes (`node --import tsx services/<name>/src/main.ts`).
 * - Baseline, in the same run: a bare Node HTTP server (this file, BENCH_ROLE=bare-server, its own
 *   process) that reads the same body, parses it and INSERTs the row into a copy of vendor_calls
 *   (its indexes too) in one statement, on a pool of the service's size.
 * - Maximum rate of each: closed loop (autocannon), the best of a few connection counts with no
 *   non-2xx answer. Target: webhook ≥ 50 % of the bare server.
 * - Then half the webhook's maximum, PACED: a fixed arrival rate, open model
 *   (infra/bench/kit/paced-load.ts), latency from each request's scheduled send. Target p99 ≤ 25 ms.
 * - CPU per call of every process from /proc: the gateway, the ingestion service, the run's
 *   PostgreSQL backends, and RabbitMQ, Redis and PostgreSQL's shared workers net of their idle
 *   rate (they serve other work on this machine too). Target ≤ 1.5 ms per call, paced.
 * - Zero lost: stored rows = 2xx answers = callback.received events on a queue bound for the run.
 * - BENCH_SYSTEM=1: the same measure on the system `make start` runs (see measureRunningSystem).
 * - BENCH_CPU_PROF_DIR=/tmp/prof: the gateway and the ingestion service write V8 CPU profiles there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import amqp from 'amqplib';
import { CALLBACK_WEBHOOK_PATH, EVENTS_EXCHANGE } from '@warmline/contracts';
import { createPool } from '@warmline/platform/db/index';
import { createTestDatabase, freePort, TEST_KEYS, waitFor } from '@warmline/platform/testing/index';
import { deleteBusNames, deleteRedisKeys } from '@warmline/platform/testing/system';
import { INGESTION_SCHEMA } from '@warmline/ingestion/service';
import {
  answers,
  autocannon,
  backendSeconds,
  backendSecondsSince,
  cpuSeconds,
  pacedLoad,
  REPO_ROOT,
  say,
  startBenchGateway,
  startService,
  stopProcess,
  Targets,
  writeSection,
  type CannonResult,
} from './kit/index.js';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTION_STEPS = (process.env.BENCH_CONNECTIONS ?? '25,50,100').split(',').map(Number);
const TARGET_RATIO = 0.5;
const TARGET_P99_MS = 25;
const TARGET_CPU_MS = 1.5;

const log = say;

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

/* ------------------------------------------------ the bare server (baseline) ---------- */

/**
 * The baseline (issue 27): a bare Node HTTP server doing the webhook's storage and nothing else —
 * read the body, JSON.parse it, INSERT the row in one transaction (one statement) on a pool of
 * the same size, answer 200 with its id. No gateway, no key, no repeat rules, no outbox. It runs
 * as its own process (this file, BENCH_ROLE=bare-server), as the services do.
 */
async function serveBareInserts(): Promise<void> {
  const bare = createPool(process.env.BENCH_DATABASE_URL!, INGESTION_SCHEMA, POOL_SIZE);
  const keyId = process.env.BENCH_KEY_ID!;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        try {
          const c = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string>;
          const id = randomUUID();
          await bare.query(
            `INSERT INTO bench_bare_calls (id, vendor_key_id, first_name, last_name, phone, transcript, call_outcome, state, lead_quality, interest_level, disposition, received_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'opportunity', now())`,
            [id, keyId, c.first_name, c.last_name, c.phone_number, c.transcript, c.call_outcome, c.state, c.lead_quality, c.interest_level],
          );
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ success: true, callback_id: id }));
        } catch {
          res.writeHead(500);
          res.end();
        }
      })();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(Number(process.env.BENCH_PORT), '127.0.0.1');
  process.on('SIGTERM', () => {
    server.close();
    void bare.end().then(() => process.exit(0));
  });
}

/**
 * The architecture's floor (issue 27's "why no design gets closer"): the bare server behind a
 * bare Node proxy, so a call crosses two Node processes as a vendor's call crosses the gateway
 * and its service — the body piped on a keep-alive connection, nothing else (no throttle, no
 * identity, no headers dropped). BENCH_ROLE=bare-proxy, its own process.
 */
function serveBareProxy(): void {
  const target = Number(process.env.BENCH_TARGET_PORT);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const server = http.createServer((req, res) => {
    const upstream = http.request({ host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(Number(process.env.BENCH_PORT), '127.0.0.1');
  process.on('SIGTERM', () => {
    server.close();
    agent.destroy();
    process.exit(0);
  });
}

/* ---------------------------------------------------- CPU of other processes ---------- */

const ownCheckout = (pid: number): boolean => {
  try {
    return realpathSync(`/proc/${pid}/cwd`) === realpathSync(REPO_ROOT);
  } catch {
    return false;
  }
};

/** Pids whose command line matches `pattern` (RabbitMQ's beam.smp, redis-server, PostgreSQL's own workers). */
function pidsMatching(pattern: RegExp): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (pattern.test(readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' '))) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

const sumCpu = (pids: number[]) => pids.reduce((total, pid) => total + (cpuSeconds(pid) || 0), 0);

/**
 * Processes this run shares with the rest of the machine (other helpers' tests use the same
 * RabbitMQ, Redis and PostgreSQL): their CPU per call is what they used during the load minus
 * what they used at the same pace over an idle stretch just before it.
 */
const SHARED = {
  rabbitmq: /beam\.smp/,
  redis: /redis-server/,
  'PostgreSQL WAL writer, checkpointer, background writer': /^postgres: .*(walwriter|checkpointer|background writer)/,
};
type SharedName = keyof typeof SHARED;
const sharedPids = () => Object.fromEntries(Object.entries(SHARED).map(([name, pattern]) => [name, pidsMatching(pattern)])) as Record<SharedName, number[]>;
const sharedCpu = (pids: Record<SharedName, number[]>) => Object.fromEntries(Object.entries(pids).map(([name, list]) => [name, sumCpu(list)])) as Record<SharedName, number>;

/** CPU per call (ms) of each of the shared processes over a load, net of their idle rate. */
async function idleRates(pids: Record<SharedName, number[]>, seconds = 3): Promise<Record<SharedName, number>> {
  const before = sharedCpu(pids);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const after = sharedCpu(pids);
  return Object.fromEntries(Object.keys(SHARED).map((name) => [name, (after[name as SharedName] - before[name as SharedName]) / seconds])) as Record<SharedName, number>;
}

/* -------------------------------------------------------------------- the run ---------- */

if (process.env.BENCH_ROLE === 'bare-server') {
  await serveBareInserts();
} else if (process.env.BENCH_ROLE === 'bare-proxy') {
  serveBareProxy();
} else if (process.env.BENCH_SYSTEM) {
  await measureRunningSystem();
} else {
  await benchmark();
}

async function benchmark(): Promise<void> {
  const runId = randomBytes(4).toString('hex');
  const namespace = `bench_callbacks_${runId}`;
  const redisPrefix = `bench:callbacks:${runId}:`;
  const db = await createTestDatabase('warmline_bench_callbacks');
  const shared = { NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: db.url, MIGRATION_DATABASE_URL: db.url, AMQP_URL, ...TEST_KEYS, BUS_NAMESPACE: namespace };
  const ingestionPort = await freePort();
  const gatewayPort = await freePort();
  const barePort = await freePort();
  const proxyPort = await freePort();
  const proxyUrl = `http://127.0.0.1:${proxyPort}`;
  const ingestionUrl = `http://127.0.0.1:${ingestionPort}`;
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const bareUrl = `http://127.0.0.1:${barePort}`;
  const children: ChildProcess[] = [];
  const lines: string[] = [];
  const targets = new Targets('callback-ingestion');
  const loadBefore = os.loadavg()[0]!;

  const broker = await amqp.connect(AMQP_URL);
  const pool = createPool(db.url, INGESTION_SCHEMA, POOL_SIZE);
  try {
    children.push(startService('ingestion', { ...shared, INGESTION_PORT: String(ingestionPort), INGESTION_DB_POOL_SIZE: String(POOL_SIZE) }));
    await waitFor('the ingestion service', answers(`${ingestionUrl}/healthz`), { timeoutMs: 60_000, intervalMs: 250 });
    children.push(await startBenchGateway({ env: shared, port: gatewayPort, runId, redisPrefix, settings: { INGESTION_URL: ingestionUrl } }));

    // A vendor key, made as the admin route would (the service's own tables, hashed).
    const key = `wlv_${randomBytes(24).toString('base64url')}`;
    const keyId = randomUUID();
    await pool.query(`INSERT INTO vendor_keys (id, name, key_hash, key_hint) VALUES ($1, 'Bench Voice', $2, $3)`, [
      keyId,
      createHash('sha256').update(key).digest('hex'),
      key.slice(0, 8),
    ]);
    // The bare server's table: vendor_calls' copy, indexes included.
    await pool.query('CREATE TABLE bench_bare_calls (LIKE vendor_calls INCLUDING ALL)');
    const bareServer = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
      cwd: REPO_ROOT,
      env: { ...process.env, BENCH_ROLE: 'bare-server', BENCH_DATABASE_URL: db.url, BENCH_KEY_ID: keyId, BENCH_PORT: String(barePort) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(bareServer);
    await waitFor('the bare server', async () => (await fetch(bareUrl, { method: 'POST', body: JSON.stringify(nextCall()) }).catch(() => undefined))?.ok === true, {
      timeoutMs: 60_000,
      intervalMs: 250,
    });
    const bareProxy = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
      cwd: REPO_ROOT,
      env: { ...process.env, BENCH_ROLE: 'bare-proxy', BENCH_PORT: String(proxyPort), BENCH_TARGET_PORT: String(barePort) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(bareProxy);
    await waitFor('the bare proxy', async () => (await fetch(proxyUrl, { method: 'POST', body: JSON.stringify(nextCall()) }).catch(() => undefined))?.ok === true, {
      timeoutMs: 60_000,
      intervalMs: 250,
    });

    // Every callback.received of the run, counted off a queue bound for it.
    const channel = await broker.createChannel();
    const tap = `${namespace}.bench-events`;
    await channel.assertQueue(tap, { durable: false, autoDelete: true });
    await channel.bindQueue(tap, `${namespace}.${EVENTS_EXCHANGE}`, 'callback.received');
    let delivered = 0;
    await channel.consume(tap, () => { delivered += 1; }, { noAck: true });

    const request = {
      method: 'POST',
      path: CALLBACK_WEBHOOK_PATH,
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      setupRequest: (req: { body?: string }) => ({ ...req, body: JSON.stringify(nextCall()) }),
    };
    const database = new URL(db.url).pathname.slice(1);
    const [ingestionProcess, gatewayProcess] = children as [ChildProcess, ChildProcess];
    const serverNames = new Map([[bareUrl, 'bare server'], [proxyUrl, 'bare proxy → bare server'], [gatewayUrl, 'webhook']]);
    const shares = sharedPids();

    /** CPU per call (ms) of each process over `work`, which answers `calls()` calls. */
    async function cpuPerCallOver<T>(pids: Record<string, number | undefined>, work: () => Promise<T>, calls: (result: T) => number) {
      const idle = await idleRates(shares);
      const started = Date.now();
      const own = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
      const backends = backendSeconds(database);
      const sharedBefore = sharedCpu(shares);
      const result = await work();
      const seconds = (Date.now() - started) / 1000;
      const n = Math.max(1, calls(result));
      const perCall: Record<string, number> = {};
      for (const [name, pid] of Object.entries(pids)) perCall[name] = ((cpuSeconds(pid) - own[name]!) / n) * 1000;
      perCall['PostgreSQL backends'] = (backendSecondsSince(database, backends) / n) * 1000;
      const sharedAfter = sharedCpu(shares);
      for (const name of Object.keys(SHARED) as SharedName[]) perCall[name] = (Math.max(0, sharedAfter[name] - sharedBefore[name] - idle[name] * seconds) / n) * 1000;
      return { result, perCall, total: Object.values(perCall).reduce((a, b) => a + b, 0), calls: n };
    }
    const cpuText = (perCall: Record<string, number>) => Object.entries(perCall).map(([name, ms]) => `${name} ${ms.toFixed(2)}`).join(', ');

    /* ---- warm-up (JIT, pools, the relay), both servers ---- */
    let answered2xx = (await autocannon({ url: gatewayUrl, connections: 10, duration: 3, requests: [request] }))['2xx'];
    await autocannon({ url: bareUrl, connections: 10, duration: 3, requests: [{ ...request, path: '/' }] });

    /* ---- maximum rate: closed loop, the best of a few connection counts, each server ---- */
    const maxRate = async (url: string, pathName: string, pids: Record<string, number | undefined>) => {
      const steps: Array<{ connections: number; rate: number; result: CannonResult; cpu: number; perCall: Record<string, number> }> = [];
      for (const connections of CONNECTION_STEPS) {
        const measured = await cpuPerCallOver(pids, () => autocannon({ url, connections, duration: SECONDS, requests: [{ ...request, path: pathName }] }), (r) => r['2xx']);
        const result = measured.result;
        steps.push({ connections, rate: result['2xx'] / SECONDS, result, cpu: measured.total, perCall: measured.perCall });
        log(`${serverNames.get(url)}, ${connections} connections: ${(result['2xx'] / SECONDS).toFixed(0)}/s, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}; CPU per call ${measured.total.toFixed(2)} ms (${cpuText(measured.perCall)})`);
      }
      const clean = steps.filter((s) => s.result.non2xx === 0 && s.result.errors === 0 && s.result.timeouts === 0);
      return { steps, best: (clean.length > 0 ? clean : steps).reduce((a, b) => (b.rate > a.rate ? b : a)) };
    };
    const bare = await maxRate(bareUrl, '/', { 'bare server': bareServer.pid });
    const twoHops = await maxRate(proxyUrl, '/', { 'bare proxy': bareProxy.pid, 'bare server': bareServer.pid });
    const webhook = await maxRate(gatewayUrl, CALLBACK_WEBHOOK_PATH, { gateway: gatewayProcess.pid, ingestion: ingestionProcess.pid });
    answered2xx += webhook.steps.reduce((n, s) => n + s.result['2xx'], 0);
    const ratio = webhook.best.rate / bare.best.rate;

    /* ---- half the webhook's maximum, paced (open model), latency from the scheduled send ---- */
    const halfRate = Math.max(1, Math.floor(webhook.best.rate / 2));
    const pacedSeconds = Math.max(SECONDS, 10);
    const paced = await cpuPerCallOver(
      { gateway: gatewayProcess.pid, ingestion: ingestionProcess.pid },
      () =>
        pacedLoad({
          url: gatewayUrl,
          rate: halfRate,
          seconds: pacedSeconds,
          sockets: 256,
          request: () => ({ method: 'POST', path: CALLBACK_WEBHOOK_PATH, headers: request.headers, body: JSON.stringify(nextCall()) }),
        }),
      (r) => r.ok,
    );
    answered2xx += paced.result.ok;
    log(`webhook paced at ${halfRate}/s for ${pacedSeconds} s: p50 ${paced.result.latency.p50} ms, p99 ${paced.result.latency.p99} ms, max ${paced.result.latency.max} ms, sender lag ≤ ${paced.result.maxSendLagMs} ms, statuses ${JSON.stringify(paced.result.statuses)}; CPU per call ${paced.total.toFixed(2)} ms (${cpuText(paced.perCall)})`);

    /* ---- zero lost ---- */
    const rows = async () => (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM vendor_calls')).rows[0]!.n;
    await waitFor('every event delivered', async () => delivered >= (await rows()), { timeoutMs: 120_000, intervalMs: 500 }).catch(() => undefined);
    const stored = await rows();
    const lost = answered2xx - stored;
    log(`answered 2xx ${answered2xx}, rows ${stored}, events delivered ${delivered}`);

    const pgVersion = (await pool.query<{ v: string }>("SELECT split_part(version(), ' on ', 1) AS v")).rows[0]?.v ?? '?';
    const check = (name: string, ok: boolean, measured: string) => targets.check(name, ok, measured);
    const cpuRow = (label: string, cpu: { total: number; perCall: Record<string, number> }) => `| ${label} | ${cpu.total.toFixed(2)} ms: ${cpuText(cpu.perCall)} | |`;
    lines.push(
      `Last run: ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPU cores shared by PostgreSQL, RabbitMQ, Redis, the gateway, the ingestion service, the bare server and the bare proxy (each its own process) and the load generators (this process: autocannon 9 for the closed-loop maximum, infra/bench/kit/paced-load.ts for the paced run), ${pgVersion}, Node ${process.version}; ` +
        `pool of ${POOL_SIZE} connections in both servers; ${SECONDS} s per step after a 3 s warm-up; every call distinct (no repeats); the machine's 1-minute load average was ${loadBefore.toFixed(1)} before and ${os.loadavg()[0]!.toFixed(1)} after. ` +
        'CPU from /proc (user + system); RabbitMQ, Redis and PostgreSQL\'s shared workers net of their idle rate measured just before each step (other helpers use them too).',
      '',
      '| measure | value | target |',
      '|---|---|---|',
      ...bare.steps.map((s) => `| bare Node HTTP server, one-statement INSERT, ${s.connections} connections | ${s.rate.toFixed(0)} calls/s (p99 ${s.result.latency.p99} ms), CPU ${s.cpu.toFixed(2)} ms per call | |`),
      ...twoHops.steps.map((s) => `| diagnostic, two Node hops: the bare server behind a bare Node proxy (body piped, keep-alive), ${s.connections} connections | ${s.rate.toFixed(0)} calls/s (p99 ${s.result.latency.p99} ms), CPU ${s.cpu.toFixed(2)} ms per call | |`),
      ...webhook.steps.map((s) => `| webhook through the gateway, ${s.connections} connections | ${s.rate.toFixed(0)} calls/s (p99 ${s.result.latency.p99} ms, non-2xx ${s.result.non2xx}), CPU ${s.cpu.toFixed(2)} ms per call | |`),
      `| **maximum webhook rate ÷ bare server** | **${(ratio * 100).toFixed(0)} %** (${webhook.best.rate.toFixed(0)}/s ÷ ${bare.best.rate.toFixed(0)}/s) | ≥ ${TARGET_RATIO * 100} %: ${check('webhook rate ≥ 50 % of the bare server', ratio >= TARGET_RATIO, `${webhook.best.rate.toFixed(0)}/s = ${(ratio * 100).toFixed(0)} % of ${bare.best.rate.toFixed(0)}/s`)} |`,
      cpuRow(`CPU per call, bare server at its best (${bare.best.connections} connections)`, { total: bare.best.cpu, perCall: bare.best.perCall }),
      cpuRow(`CPU per call, two Node hops at their best (${twoHops.best.connections} connections)`, { total: twoHops.best.cpu, perCall: twoHops.best.perCall }),
      cpuRow(`CPU per call, webhook at its best (${webhook.best.connections} connections)`, { total: webhook.best.cpu, perCall: webhook.best.perCall }),
      `| maximum webhook rate ÷ the two Node hops (diagnostic: how much of the gap the second process alone makes) | ${((webhook.best.rate / twoHops.best.rate) * 100).toFixed(0)} % (${webhook.best.rate.toFixed(0)}/s ÷ ${twoHops.best.rate.toFixed(0)}/s; the two hops alone are ${((twoHops.best.rate / bare.best.rate) * 100).toFixed(0)} % of the bare server) | |`,
      `| **CPU per call, webhook paced at ${halfRate}/s** (${paced.calls} calls) | **${paced.total.toFixed(2)} ms**: ${cpuText(paced.perCall)} | ≤ ${TARGET_CPU_MS} ms: ${check(`CPU per call ≤ ${TARGET_CPU_MS} ms`, paced.total <= TARGET_CPU_MS, `${paced.total.toFixed(2)} ms paced at ${halfRate}/s (bare server ${bare.best.cpu.toFixed(2)} ms)`)} |`,
      `| **p99 at half the maximum, paced** (${halfRate}/s for ${pacedSeconds} s, open model, from the scheduled send; sender lag ≤ ${paced.result.maxSendLagMs} ms) | **${paced.result.latency.p99} ms** (p50 ${paced.result.latency.p50} ms, max ${paced.result.latency.max} ms, ${JSON.stringify(paced.result.statuses)}) | ≤ ${TARGET_P99_MS} ms: ${check(`p99 ≤ ${TARGET_P99_MS} ms at half rate, paced`, paced.result.latency.p99 <= TARGET_P99_MS && paced.result.ok === paced.result.sent, `p99 ${paced.result.latency.p99} ms at ${halfRate}/s, ${paced.result.ok} of ${paced.result.sent} 2xx`)} |`,
      // autocannon stops a step with calls in flight: those are stored (and delivered) without a counted answer.
      `| **lost** (2xx answers ${answered2xx}, rows ${stored} — ${Math.max(0, stored - answered2xx)} of them in flight when a step ended, callback.received delivered ${delivered}) | **${Math.max(0, lost) + Math.max(0, stored - delivered)}** | 0: ${check('nothing lost', lost <= 0 && delivered >= stored, `${Math.max(0, lost) + Math.max(0, stored - delivered)} lost`)} |`,
      '',
      'Reproduce: `npx tsx infra/bench/callback-ingestion.ts` (BENCH_SECONDS, BENCH_CONNECTIONS=25,50,100, BENCH_POOL_SIZE to vary; BENCH_CPU_PROF_DIR=/tmp/prof for V8 profiles of the gateway and the ingestion service).',
    );
    await channel.close();
  } finally {
    for (const child of children.reverse()) await stopProcess(child);
    await pool.end();
    await broker.close().catch(() => undefined);
    await deleteBusNames(namespace, ['bench-events'], AMQP_URL).catch(() => undefined);
    await deleteRedisKeys(redisPrefix).catch(() => undefined);
    await db.drop();
  }
  if (lines.length > 0) writeSection('callback-ingestion', lines);
  targets.finish();
}

/* ------------------------------------------------ the system as make start runs it ---------- */

/**
 * BENCH_SYSTEM=1: measures the system `make start` is running (start it first; with
 * VENDOR_WEBHOOK_CALLS_PER_MINUTE raised above the paced rate, or the demo key is throttled):
 * every process of infra/services.json found by its command line in /proc, the backends of its
 * database, and RabbitMQ, Redis and PostgreSQL's shared workers net of their idle rate; the demo
 * vendor key of var/local.env; paced load at BENCH_SYSTEM_RATE (default 100/s) for
 * BENCH_SYSTEM_SECONDS (default 30). Writes the bench:callback-ingestion-system section.
 */
async function measureRunningSystem(): Promise<void> {
  const envFile = path.join(REPO_ROOT, 'var/local.env');
  const fileEnv = Object.fromEntries(
    readFileSync(envFile, 'utf8')
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  const key = process.env.DEMO_VENDOR_KEY ?? fileEnv.DEMO_VENDOR_KEY;
  if (!key) throw new Error(`no DEMO_VENDOR_KEY in the environment or ${envFile}`);
  const url = `http://127.0.0.1:${process.env.GATEWAY_PORT ?? 3000}`;
  const rate = Number(process.env.BENCH_SYSTEM_RATE ?? 100);
  const seconds = Number(process.env.BENCH_SYSTEM_SECONDS ?? 30);
  const database = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/warmline').pathname.slice(1);
  const listed = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'infra/services.json'), 'utf8')) as { services: Array<{ name: string; entry?: string }> }).services;
  const pids: Record<string, number> = {};
  for (const service of listed) {
    const entry = service.entry ?? `services/${service.name}/src/main.ts`;
    // This checkout's processes only (their working directory): other checkouts may run theirs.
    const found = pidsMatching(new RegExp(`^node --import tsx ${entry.replaceAll('.', '\\.')}\\s*$`)).filter(ownCheckout);
    if (found.length === 0) throw new Error(`${service.name} (${entry}) is not running: start the system first (make start)`);
    found.forEach((pid, i) => (pids[found.length > 1 ? `${service.name}#${i + 1}` : service.name] = pid));
  }
  // make start's supervisor (concurrently) carries every process's log lines.
  const supervisor = pidsMatching(/^node \S*concurrently /).filter(ownCheckout);
  if (supervisor[0] !== undefined) pids['supervisor (concurrently, the logs)'] = supervisor[0];
  /** Waits until the processes are idle (a backlog of earlier calls' events would count as idle work). */
  const quiet = async () => {
    for (let i = 0; i < 60; i += 1) {
      const before = Object.values(pids).reduce((n, pid) => n + cpuSeconds(pid), 0);
      await new Promise((r) => setTimeout(r, 1000));
      if (Object.values(pids).reduce((n, pid) => n + cpuSeconds(pid), 0) - before < 0.1) return;
    }
  };
  await quiet();
  const loadBefore = os.loadavg()[0]!;
  const shares = sharedPids();
  // Each process's idle rate too: consumers, relays and timers tick without calls.
  const idleSeconds = 5;
  const ownIdle0 = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
  const backendsIdle0 = backendSeconds(database);
  const sharedIdle = await idleRates(shares, idleSeconds);
  const ownIdle = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, (cpuSeconds(pid) - ownIdle0[name]!) / idleSeconds]));
  const backendsIdle = backendSecondsSince(database, backendsIdle0) / idleSeconds;

  const started = Date.now();
  const own0 = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
  const backends0 = backendSeconds(database);
  const shared0 = sharedCpu(shares);
  const result = await pacedLoad({
    url,
    rate,
    seconds,
    request: () => ({ method: 'POST', path: CALLBACK_WEBHOOK_PATH, headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(nextCall()) }),
  });
  // The work the calls started (the relay, the catalog's consumers) counts too: until it is done.
  await quiet();
  const elapsed = (Date.now() - started) / 1000;
  const calls = Math.max(1, result.ok);
  const perCall: Record<string, number> = {};
  for (const [name, pid] of Object.entries(pids)) perCall[name] = (Math.max(0, cpuSeconds(pid) - own0[name]! - ownIdle[name]! * elapsed) / calls) * 1000;
  perCall['PostgreSQL backends'] = (Math.max(0, backendSecondsSince(database, backends0) - backendsIdle * elapsed) / calls) * 1000;
  const shared1 = sharedCpu(shares);
  for (const name of Object.keys(SHARED) as SharedName[]) perCall[name] = (Math.max(0, shared1[name] - shared0[name] - sharedIdle[name] * elapsed) / calls) * 1000;
  const total = Object.values(perCall).reduce((a, b) => a + b, 0);
  const text = Object.entries(perCall).map(([name, ms]) => `${name} ${ms.toFixed(2)}`).join(', ');
  log(`system at ${rate}/s for ${seconds} s: ${JSON.stringify(result.statuses)}, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; CPU per call ${total.toFixed(2)} ms (${text})`);
  writeSection('callback-ingestion-system', [
    `Last run: ${new Date().toISOString().slice(0, 10)}, the system as \`make start\` runs it (every process of infra/services.json, LOG_LEVEL ${process.env.LOG_LEVEL ?? 'info'}), the demo vendor key, paced at ${rate}/s for ${seconds} s; load average ${loadBefore.toFixed(1)} before and ${os.loadavg()[0]!.toFixed(1)} after. Each process's CPU is net of its own idle rate over ${idleSeconds} s just before.`,
    '',
    '| measure | value | target |',
    '|---|---|---|',
    `| answers | ${JSON.stringify(result.statuses)} (p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms) | |`,
    `| **CPU per call, all processes** | **${total.toFixed(2)} ms**: ${text} | ≤ ${TARGET_CPU_MS} ms: ${total <= TARGET_CPU_MS ? 'within target' : '**over target**'} |`,
    '',
    'Reproduce: `VENDOR_WEBHOOK_CALLS_PER_MINUTE=1000000 make start`, then `BENCH_SYSTEM=1 npx tsx infra/bench/callback-ingestion.ts` (BENCH_SYSTEM_RATE, BENCH_SYSTEM_SECONDS).',
  ]);
  // Its own record, so the next `make bench` (which does not run this mode) does not clear it.
  const targets = new Targets('callback-ingestion-system');
  targets.check(`CPU per call ≤ ${TARGET_CPU_MS} ms on the system make start runs`, total <= TARGET_CPU_MS, `${total.toFixed(2)} ms at ${rate}/s`);
  targets.finish();
}
