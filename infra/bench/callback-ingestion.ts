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
import { type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import amqp from 'amqplib';
import { CALLBACK_WEBHOOK_PATH, EVENTS_EXCHANGE } from '@warmline/contracts';
import { createPool } from '@warmline/platform/db/index';
import { createTestDatabase, freePort, TEST_KEYS, waitFor } from '@warmline/platform/testing/index';
import { deleteBusNames, deleteRedisKeys } from '@warmline/platform/testing/system';
import { INGESTION_SCHEMA } from '@warmline/ingestion/service';
import { answers, autocannon, backendSeconds, backendSecondsSince, cpuSeconds, say, startBenchGateway, startService, stopProcess, Targets, writeSection, type CannonRequest, type CannonResult } from './kit/index.js';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTION_STEPS = (process.env.BENCH_CONNECTIONS ?? '10,25,50').split(',').map(Number);
const TARGET_RATIO = 0.7;
const TARGET_P99_MS = 25;

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
  say(`baseline: ${inserted} bare INSERTs in ${SECONDS} s on ${POOL_SIZE} connections = ${baselineRate.toFixed(0)}/s`);

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
    say(`webhook, ${connections} connections: ${rate.toFixed(0)}/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`);
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
  say(`CPU per call: ${cpuText} (${callsMeasured} calls)`);
  say(`webhook at half that (${halfRate}/s): p50 ${paced.latency.p50} ms, p99 ${paced.latency.p99} ms, non-2xx ${paced.non2xx}`);

  /* ---- zero lost ---- */
  const rows = async () => (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM vendor_calls')).rows[0]!.n;
  await waitFor('every event delivered', async () => delivered >= (await rows()), { timeoutMs: 120_000, intervalMs: 500 }).catch(() => undefined);
  const stored = await rows();
  const lost = answered2xx - stored;
  say(`answered 2xx ${answered2xx}, rows ${stored}, events delivered ${delivered}`);

  const pgVersion = (await pool.query<{ v: string }>("SELECT split_part(version(), ' on ', 1) AS v")).rows[0]?.v ?? '?';
  const rateMet = targets.check(`vendor webhook: maximum rate ≥ ${TARGET_RATIO * 100} % of the baseline`, ratio >= TARGET_RATIO, `${best.rate.toFixed(0)}/s, ${(ratio * 100).toFixed(0)} % of ${baselineRate.toFixed(0)}/s`);
  const p99Met = targets.check(`vendor webhook: p99 ≤ ${TARGET_P99_MS} ms at half the maximum rate`, paced.latency.p99 <= TARGET_P99_MS, `p99 ${paced.latency.p99} ms at ${halfRate}/s`);
  const lostMet = targets.check('vendor webhook: nothing lost', lost <= 0 && delivered >= stored, `2xx ${answered2xx}, rows ${stored}, delivered ${delivered}`);
  lines.push(
    `Last run: ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPU cores shared by PostgreSQL, RabbitMQ, Redis, the gateway and the ingestion service (each its own process) and autocannon 9 (this process), ${pgVersion}, Node ${process.version}; ` +
      `pool of ${POOL_SIZE} connections; ${SECONDS} s per step after a 3 s warm-up; every call distinct (no repeats); the machine's 1-minute load average was ${loadBefore.toFixed(1)} before and ${os.loadavg()[0]!.toFixed(1)} after. ` +
      'No k6 binary here, so no k6 run.',
    '',
    '| measure | value | target |',
    '|---|---|---|',
    `| bare \`pg\` INSERT loop of the same rows, ${POOL_SIZE} loops on ${POOL_SIZE} connections | ${baselineRate.toFixed(0)} rows/s | (baseline) |`,
    ...steps.map((s) => `| webhook through the gateway, ${s.connections} connections | ${s.rate.toFixed(0)} calls/s (p50 ${s.result.latency.p50} ms, p99 ${s.result.latency.p99} ms, non-2xx ${s.result.non2xx}) | |`),
    `| **maximum sustained webhook rate ÷ INSERT loop** | **${(ratio * 100).toFixed(0)} %** (${best.rate.toFixed(0)}/s at ${best.connections} connections) | ≥ ${TARGET_RATIO * 100} %: ${rateMet} |`,
    `| CPU per call (user + system, after the warm-up, ${callsMeasured} calls) | ${cpuText} (RabbitMQ, Redis and autocannon not counted) | |`,
    `| **p99 at half that rate** (${halfRate}/s paced) | **${paced.latency.p99} ms** (p50 ${paced.latency.p50} ms) | ≤ ${TARGET_P99_MS} ms: ${p99Met} |`,
    // autocannon stops a step with calls in flight: those are stored (and delivered) without a counted answer.
    `| **lost** (2xx answers ${answered2xx}, rows ${stored} — ${Math.max(0, stored - answered2xx)} of them in flight when a step ended, callback.received delivered ${delivered}) | **${Math.max(0, lost) + Math.max(0, stored - delivered)}** | 0: ${lostMet} |`,
    '',
    'Reproduce: `npx tsx infra/bench/callback-ingestion.ts` (BENCH_SECONDS, BENCH_CONNECTIONS=10,25,50, BENCH_POOL_SIZE to vary).',
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
