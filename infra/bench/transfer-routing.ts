/**
 * `make bench` (issues 23, 27): live-transfer routing and outcomes through the gateway. Not a
 * test: it measures, prints, writes its section of docs/benchmarks.md (between the
 * bench:transfer-routing markers) and exits 1 naming each target missed.
 *
 * - A fresh database (dropped at the end) and broker namespace. The gateway and the transfers
 *   service run as their own processes (`node --import tsx services/<name>/src/main.ts`).
 * - The hour: a decision routes only while the prospect's state is inside its calling hours, by
 *   the service's own clock (Node's; every time the routing SQL compares is that clock, passed as
 *   a parameter: PostgreSQL's now() decides nothing there). So that the bench measures routing at
 *   any hour, the gateway and the transfers service run under libfaketime (LD_PRELOAD, Debian's
 *   faketime package, which `make bench` installs): their wall clock shifted to 20:00 UTC, when
 *   every state is inside its hours, unless it already is for the whole run; monotonic clocks
 *   (timers, latencies) and file times stay real. Both processes, because the gateway's signed
 *   identity expires by the gateway's clock and the service checks it by its own. No clock
 *   setting in the product. BENCH_REAL_CLOCK=1: the machine's own hour (it may route none).
 * - 5,000 agents with delivery settings (every hour of the week, 8 of the states each, two at
 *   once) and balances (a credit lot and its ledger row each), written in bulk SQL.
 * - /healthz through the gateway at 50 connections (the baseline), one route call at a time.
 * - Maximum route rate: closed loop (autocannon), the best of a few connection counts with no
 *   non-2xx answer; then every routed transfer's outcome (durations 0–300 s, one in five sent
 *   twice), closed loop at 50 connections: the outcomes' maximum rate. Outcomes free the agents'
 *   slots, so the paced run starts from the same agents.
 * - Then half of each maximum, PACED (infra/bench/kit/paced-load.ts, open model, latency from
 *   each request's scheduled send): routes, then the outcomes of the transfers they routed.
 *   Target p99 ≤ 25 ms for both. CPU per call from /proc (kit cpuMeter: the gateway, the
 *   transfers service, the run's PostgreSQL backends) beside every figure. Each step starts once
 *   the relay has published the events of the one before.
 * - Zero double charges (one charge row per charged transfer at most), every ledger equal to its rows.
 */
import { type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import os from 'node:os';
import {
  stateOfAreaCode,
  TRANSFER_RESERVATION_SECONDS,
  TRANSFER_ROUTE_PATH,
  transferOutcomePath,
  US_STATE_CODES,
  withinCallingHours,
  type UsStateCode,
} from '@warmline/contracts';
import { createPool } from '@warmline/platform/db/index';
import { createTestDatabase, freePort, TEST_KEYS, waitFor } from '@warmline/platform/testing/index';
import { deleteBusNames, deleteRedisKeys } from '@warmline/platform/testing/system';
import { TRANSFERS_SCHEMA } from '@warmline/transfers/service';
import {
  answers,
  autocannon,
  cpuMeter,
  cpuText,
  pacedLoad,
  say,
  startBenchGateway,
  startService,
  stopProcess,
  Targets,
  writeSection,
  type CannonRequest,
  type CannonResult,
  type PacedLoadResult,
} from './kit/index.js';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const AGENTS = Number(process.env.BENCH_AGENTS ?? 5000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const CONNECTION_STEPS = (process.env.BENCH_CONNECTION_STEPS ?? '10,25,50').split(',').map(Number);
const TARGET_P99_MS = 25;
/** Longer than a run takes: the shifted clock keeps every state inside its hours throughout. */
const RUN_MINUTES = 20;
/** When every state (AK and HI too, DST or not) is well inside its calling hours. */
const ALL_STATES_OPEN_UTC_HOUR = 20;

/** One area code per state (the first the table names), so a prospect's phone matches its state. */
const AREA_CODE_OF = new Map<UsStateCode, string>();
for (let code = 201; code <= 999; code++) {
  const state = stateOfAreaCode(`${code}5550100`);
  if (state && !AREA_CODE_OF.has(state)) AREA_CODE_OF.set(state, String(code));
}
const openStates = (at: Date) => US_STATE_CODES.filter((s) => withinCallingHours(s, `${AREA_CODE_OF.get(s)}5550100`, at));
const allOpenThroughRun = (at: Date) => [0, RUN_MINUTES].every((m) => openStates(new Date(at.getTime() + m * 60_000)).length === US_STATE_CODES.length);

/** libfaketime where Debian's package puts it (or BENCH_LIBFAKETIME); null when it is not installed. */
function libfaketime(): string | null {
  const multiarch = ({ x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' } as Record<string, string>)[process.arch];
  const candidates = [process.env.BENCH_LIBFAKETIME, multiarch && `/usr/lib/${multiarch}/faketime/libfaketime.so.1`, '/usr/lib/faketime/libfaketime.so.1'];
  return candidates.find((file): file is string => typeof file === 'string' && file !== '' && existsSync(file)) ?? null;
}

/**
 * How far the services' wall clock is moved (ms): none when every state is inside its hours for
 * the whole run already, else forward to the next ALL_STATES_OPEN_UTC_HOUR. Forward only, so the
 * rows seeded with PostgreSQL's now() (credit lots, settings) are in the services' past.
 */
function clockShiftMs(real: Date): number {
  if (allOpenThroughRun(real)) return 0;
  const at = new Date(real);
  at.setUTCHours(ALL_STATES_OPEN_UTC_HOUR, 0, 0, 0);
  if (at.getTime() <= real.getTime()) at.setUTCDate(at.getUTCDate() + 1);
  // Whole seconds: libfaketime's offset is given in seconds.
  return Math.round((at.getTime() - real.getTime()) / 1000) * 1000;
}

const preload = process.env.BENCH_REAL_CLOCK ? null : libfaketime();
if (!process.env.BENCH_REAL_CLOCK && !preload) {
  say('libfaketime is not installed (Debian: apt-get install faketime; make bench installs it): the services run on the machine\'s clock and route only while a state is inside its calling hours');
}
const shiftMs = preload ? clockShiftMs(new Date()) : 0;
/** The services' clock, as this process reckons it. */
const serviceNow = () => new Date(Date.now() + shiftMs);
// Wall clock shifted; timers and latencies (the monotonic clock) and file times left real.
const clockEnv: Record<string, string> = preload
  ? { LD_PRELOAD: preload, FAKETIME: `+${shiftMs / 1000}`, FAKETIME_DONT_FAKE_MONOTONIC: '1', NO_FAKE_STAT: '1' }
  : {};
const clockText = preload
  ? `the gateway and the transfers service on a clock shifted by libfaketime ${shiftMs === 0 ? 'by nothing (every state was inside its hours at the machine\'s hour)' : `to ${new Date(Math.round(serviceNow().getTime() / 60_000) * 60_000).toISOString().slice(11, 16)} UTC (+${(shiftMs / 3_600_000).toFixed(1)} h; monotonic clocks real)`}`
  : 'the services on the machine\'s own clock';

const runId = randomBytes(4).toString('hex');
const namespace = `bench_transfers_${runId}`;
const redisPrefix = `bench:transfers:${runId}:`;
const db = await createTestDatabase('warmline_bench_transfers');
const shared = { NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: db.url, MIGRATION_DATABASE_URL: db.url, AMQP_URL, ...TEST_KEYS, BUS_NAMESPACE: namespace };
const transfersUrl = `http://127.0.0.1:${await freePort()}`;
const gatewayPort = await freePort();
const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
const children: ChildProcess[] = [];
const lines: string[] = [];
const targets = new Targets('transfer-routing');
const loadBefore = os.loadavg()[0]!;
const pool = createPool(db.url, TRANSFERS_SCHEMA, 5);
try {
  children.push(startService('transfers', { ...shared, ...clockEnv, TRANSFERS_PORT: new URL(transfersUrl).port, BUSINESS_TIMEZONE: 'America/Chicago' }));
  await waitFor('the transfers service', answers(`${transfersUrl}/healthz`), { timeoutMs: 60_000, intervalMs: 250 });
  children.push(await startBenchGateway({ env: { ...shared, ...clockEnv }, port: gatewayPort, runId, redisPrefix, settings: { TRANSFERS_URL: transfersUrl } }));
  say(`clock: ${clockText}`);

  /* ---- 5,000 agents with settings and balances, a vendor key ---- */
  const seeded = Date.now();
  const hours = JSON.stringify(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => ({ day, from: '00:00', to: '24:00' })));
  await pool.query(
    `INSERT INTO agents (user_id, display_name, transfer_phone, states, time_zone, hours, daily_cap, at_once, settings_saved_at)
     SELECT gen_random_uuid(), 'Agent ' || i, '512' || lpad((2000000 + i)::text, 7, '0'),
            ARRAY(SELECT ($1::text[])[1 + ((i * 7 + k * 13) % array_length($1::text[], 1))] FROM generate_series(0, 7) k),
            'America/Chicago', $2::jsonb, 1000, 2, now()
       FROM generate_series(1, $3::int) i`,
    [US_STATE_CODES, hours, AGENTS],
  );
  await pool.query(
    `WITH lots AS (
       INSERT INTO credit_lots (id, agent_id, source, order_id, description, unit_cents, paid_cents, credited, remaining, credited_at)
       SELECT gen_random_uuid(), user_id, 'order', gen_random_uuid(), 'Bench package: 50 transfers', 3700, 185000, 50, 50, now() - interval '1 day' FROM agents
       RETURNING id, agent_id, order_id)
     INSERT INTO ledger_entries (agent_id, lot_id, kind, transfers, unit_cents, cause, cause_id, at)
     SELECT agent_id, id, 'order_credit', 50, 3700, 'Paid order', order_id::text, now() - interval '1 day' FROM lots`,
  );
  await pool.query('UPDATE agents SET balance = 50');
  await pool.query('ANALYZE');
  const key = `wlv_${randomBytes(24).toString('base64url')}`;
  await pool.query("INSERT INTO vendor_keys (id, name, key_hash, created_at) VALUES ($1, 'Bench Voice', $2, now())", [randomUUID(), createHash('sha256').update(key).digest('hex')]);
  say(`seeded ${AGENTS} agents with settings and 50 transfers each in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);

  // The states by the services' clock, not this process's.
  const open = openStates(serviceNow());
  if (open.length === 0) say('no state is inside calling hours by the services\' clock: every decision is a refusal');
  let sequence = 0;
  const nextProspect = () => {
    sequence += 1;
    const state = open.length > 0 ? open[sequence % open.length]! : 'TX';
    return JSON.stringify({
      call_id: `bench-${runId}-${sequence}`,
      first_name: 'Maria',
      last_name: 'Lopez',
      phone_number: `${AREA_CODE_OF.get(state)}${String(2000000 + (sequence % 7_999_999)).padStart(7, '0')}`,
      state,
    });
  };
  const vendorHeaders = { 'content-type': 'application/json', 'x-api-key': key };
  const [transfersProcess, gatewayProcess] = children as [ChildProcess, ChildProcess];
  const database = new URL(db.url).pathname.slice(1);
  const meter = () => cpuMeter({ transfers: transfersProcess.pid, gateway: gatewayProcess.pid }, database);
  const cpuTotal = (perCall: Record<string, number>) => Object.values(perCall).reduce((a, b) => a + b, 0);
  /** Before each measured step: the relay has published what the last one queued (its backlog would land on this one). */
  const drained = () =>
    waitFor('the outbox published', async () => (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL')).rows[0]!.n === 0, {
      timeoutMs: 120_000,
      intervalMs: 250,
    });

  /* ---- /healthz, the baseline ---- */
  await autocannon({ url: gatewayUrl, connections: 10, duration: 2, requests: [{ method: 'GET', path: '/healthz' }] });
  const health = await autocannon({ url: gatewayUrl, connections: CONNECTIONS, duration: SECONDS, requests: [{ method: 'GET', path: '/healthz' }] });
  say(`/healthz, ${CONNECTIONS} connections: p50 ${health.latency.p50} ms, p99 ${health.latency.p99} ms`);

  /* ---- routing: every answer read; the routed ones kept for their outcomes ---- */
  let routedIds: string[] = [];
  let refusedSince = new Map<string, number>();
  let serviceClockSkewMs: number | null = null;
  const onRoute = (status: number, body: string) => {
    if (status !== 200) return;
    const answer = JSON.parse(body) as { routed: boolean; transfer_id?: string; reason?: string; expires_at?: string };
    if (answer.routed && answer.transfer_id) {
      routedIds.push(answer.transfer_id);
      // The service's clock read off its answer (its reservation ends TRANSFER_RESERVATION_SECONDS after its now).
      serviceClockSkewMs ??= new Date(answer.expires_at!).getTime() - TRANSFER_RESERVATION_SECONDS * 1000 - serviceNow().getTime();
    } else refusedSince.set(answer.reason ?? '?', (refusedSince.get(answer.reason ?? '?') ?? 0) + 1);
  };
  /** The routed ids and refusals since the last call (and starts counting anew). */
  const takeDecisions = () => {
    const taken = { routed: routedIds, refused: refusedSince };
    routedIds = [];
    refusedSince = new Map();
    return taken;
  };
  const refusalText = (refused: Map<string, number>) => [...refused.entries()].map(([r, n]) => `${r} ${n}`).join(', ') || 'none';
  const routeRequest = { method: 'POST', path: TRANSFER_ROUTE_PATH, headers: vendorHeaders, setupRequest: (req: CannonRequest) => ({ ...req, body: nextProspect() }), onResponse: onRoute };
  await autocannon({ url: gatewayUrl, connections: 10, duration: 2, requests: [routeRequest] });
  // One call at a time: what a decision costs without queueing behind others.
  const single = await autocannon({ url: gatewayUrl, connections: 1, duration: Math.max(2, Math.floor(SECONDS / 2)), requests: [routeRequest] });
  say(`route, 1 connection: p50 ${single.latency.p50} ms, p99 ${single.latency.p99} ms`);
  const unsettled = takeDecisions().routed;
  if (serviceClockSkewMs !== null) say(`the transfers service's clock is ${(serviceClockSkewMs / 1000).toFixed(1)} s from the shifted one this bench reckons with`);
  if (serviceClockSkewMs !== null && Math.abs(serviceClockSkewMs) > 5_000) throw new Error(`the transfers service's clock is ${serviceClockSkewMs} ms away from the shifted clock: the preload did not take`);
  const dbClockMs = (await pool.query<{ now: Date }>('SELECT now()')).rows[0]!.now.getTime() - Date.now();

  /* ---- maximum route rate: closed loop, the best of a few connection counts ---- */
  const routeSteps: Array<{ connections: number; rate: number; result: CannonResult; perCall: Record<string, number>; routed: number; refused: Map<string, number> }> = [];
  for (const connections of CONNECTION_STEPS) {
    await drained();
    const cpu = meter();
    const result = await autocannon({ url: gatewayUrl, connections, duration: SECONDS, requests: [routeRequest] });
    const perCall = cpu.perOperation(Math.max(1, result['2xx']));
    const decided = takeDecisions();
    unsettled.push(...decided.routed);
    routeSteps.push({ connections, rate: result['2xx'] / SECONDS, result, perCall, routed: decided.routed.length, refused: decided.refused });
    say(`route, ${connections} connections: ${(result['2xx'] / SECONDS).toFixed(0)}/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, routed ${decided.routed.length}, refused: ${refusalText(decided.refused)}; CPU per call ${cpuText(perCall)}`);
  }
  const cleanSteps = routeSteps.filter((s) => s.result.non2xx === 0 && s.result.errors === 0 && s.result.timeouts === 0);
  const routeBest = (cleanSteps.length > 0 ? cleanSteps : routeSteps).reduce((a, b) => (b.rate > a.rate ? b : a));

  /* ---- outcomes: every routed transfer's, one in five twice ---- */
  const outcomesOf = (ids: readonly string[]) => {
    const list: Array<{ id: string; body: string }> = [];
    ids.forEach((id, i) => {
      const body = JSON.stringify({ connected: i % 10 !== 0, duration_seconds: (i * 37) % 301 });
      list.push({ id, body });
      if (i % 5 === 0) list.push({ id, body });
    });
    return list;
  };
  const settleAll = outcomesOf(unsettled);
  let next = 0;
  await drained();
  const outcomeCpu = meter();
  // None routed (the services' clock outside every state's hours): no outcome to send.
  const outcomeMax =
    settleAll.length === 0
      ? null
      : await autocannon({
          url: gatewayUrl,
          connections: CONNECTIONS,
          amount: settleAll.length,
          requests: [
            {
              method: 'POST',
              path: '/',
              headers: vendorHeaders,
              setupRequest: (req: CannonRequest) => {
                const o = settleAll[next++ % settleAll.length]!;
                return { ...req, path: transferOutcomePath(o.id), body: o.body };
              },
            },
          ],
        });
  const outcomeMaxCpu = outcomeMax ? outcomeCpu.perOperation(Math.max(1, outcomeMax['2xx'])) : null;
  const outcomeMaxRate = outcomeMax ? outcomeMax['2xx'] / Math.max(0.001, outcomeMax.duration) : 0;
  if (outcomeMax) say(`outcomes, ${CONNECTIONS} connections: ${settleAll.length} sent, ${outcomeMaxRate.toFixed(0)}/s, p50 ${outcomeMax.latency.p50} ms, p99 ${outcomeMax.latency.p99} ms, non-2xx ${outcomeMax.non2xx}; CPU per call ${cpuText(outcomeMaxCpu!)}`);

  /* ---- half of each maximum, paced (open model) ---- */
  const pacedSeconds = Math.max(SECONDS, 10);
  const routeHalf = Math.max(1, Math.floor(routeBest.rate / 2));
  await drained();
  // What the processes use with no call at all (the relay's and consumers' timers): at a paced
  // rate this is part of every call's share, and is shown beside it.
  const idleCpu = meter();
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const idlePerSecond = idleCpu.perOperation(3);
  const pacedRouteCpu = meter();
  const pacedRoute = await pacedLoad({
    url: gatewayUrl,
    rate: routeHalf,
    seconds: pacedSeconds,
    request: () => ({ method: 'POST', path: TRANSFER_ROUTE_PATH, headers: vendorHeaders, body: nextProspect() }),
    onResponse: onRoute,
  });
  const pacedRoutePerCall = pacedRouteCpu.perOperation(Math.max(1, pacedRoute.ok));
  const pacedDecided = takeDecisions();
  say(`route paced at ${routeHalf}/s for ${pacedSeconds} s: p50 ${pacedRoute.latency.p50} ms, p99 ${pacedRoute.latency.p99} ms, max ${pacedRoute.latency.max} ms, sender lag ≤ ${pacedRoute.maxSendLagMs} ms, ${JSON.stringify(pacedRoute.statuses)}, routed ${pacedDecided.routed.length}, refused: ${refusalText(pacedDecided.refused)}; CPU per call ${cpuText(pacedRoutePerCall)}`);

  const pacedOutcomes = outcomesOf(pacedDecided.routed);
  const outcomeHalf = Math.max(1, Math.floor(outcomeMaxRate / 2));
  let pacedNext = 0;
  await drained();
  const pacedOutcomeCpu = meter();
  const pacedOutcome: PacedLoadResult | null =
    pacedOutcomes.length === 0 || outcomeMax === null
      ? null
      : await pacedLoad({
          url: gatewayUrl,
          rate: outcomeHalf,
          seconds: pacedOutcomes.length / outcomeHalf,
          request: () => {
            const o = pacedOutcomes[pacedNext++ % pacedOutcomes.length]!;
            return { method: 'POST', path: transferOutcomePath(o.id), headers: vendorHeaders, body: o.body };
          },
        });
  const pacedOutcomePerCall = pacedOutcome ? pacedOutcomeCpu.perOperation(Math.max(1, pacedOutcome.ok)) : null;
  if (pacedOutcome) say(`outcomes paced at ${outcomeHalf}/s: ${pacedOutcome.sent} sent, p50 ${pacedOutcome.latency.p50} ms, p99 ${pacedOutcome.latency.p99} ms, max ${pacedOutcome.latency.max} ms, ${JSON.stringify(pacedOutcome.statuses)}; CPU per call ${cpuText(pacedOutcomePerCall!)}`);

  /* ---- zero double charges, every ledger equal to its rows ---- */
  const twice = (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM (SELECT cause_id FROM ledger_entries WHERE kind = 'charge' GROUP BY cause_id HAVING count(*) > 1) d")).rows[0]!.n;
  const charged = (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM transfers WHERE status = 'charged'")).rows[0]!.n;
  const charges = (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM ledger_entries WHERE kind = 'charge'")).rows[0]!.n;
  const mismatched = (
    await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM agents a
        WHERE a.balance <> COALESCE((SELECT sum(transfers) FROM ledger_entries e WHERE e.agent_id = a.user_id), 0)
           OR a.balance <> COALESCE((SELECT sum(remaining) FROM credit_lots l WHERE l.agent_id = a.user_id), 0)`,
    )
  ).rows[0]!.n;
  say(`charged ${charged}, charge rows ${charges}, charged twice ${twice}, ledgers not equal to their rows ${mismatched}`);

  const pgVersion = (await pool.query<{ v: string }>("SELECT split_part(version(), ' on ', 1) AS v")).rows[0]?.v ?? '?';
  // A run that routed nothing measured refusals only: its targets are not shown met.
  const routedPaced = pacedDecided.routed.length;
  const pacedAllOk = (r: PacedLoadResult) => r.ok === r.sent;
  const routeMet = targets.check(
    `transfer route: p99 ≤ ${TARGET_P99_MS} ms paced at half the maximum rate`,
    routedPaced > 0 && pacedAllOk(pacedRoute) && pacedRoute.latency.p99 <= TARGET_P99_MS,
    routedPaced > 0
      ? `p99 ${pacedRoute.latency.p99} ms at ${routeHalf}/s (maximum ${routeBest.rate.toFixed(0)}/s), ${pacedRoute.ok} of ${pacedRoute.sent} 2xx`
      : `not measured: none routed (refusals p99 ${pacedRoute.latency.p99} ms)`,
  );
  const outcomeMet = targets.check(
    `transfer outcome: p99 ≤ ${TARGET_P99_MS} ms paced at half the maximum rate`,
    pacedOutcome !== null && pacedAllOk(pacedOutcome) && pacedOutcome.latency.p99 <= TARGET_P99_MS,
    pacedOutcome ? `p99 ${pacedOutcome.latency.p99} ms at ${outcomeHalf}/s (maximum ${outcomeMaxRate.toFixed(0)}/s), ${pacedOutcome.ok} of ${pacedOutcome.sent} 2xx` : 'not measured: none routed',
  );
  const chargedOnceMet = targets.check('transfer outcomes: none charged twice', twice === 0 && charges === charged, `charged ${charged}, charge rows ${charges}, twice ${twice}`);
  const ledgersMet = targets.check('transfer outcomes: every ledger equal to its rows', mismatched === 0, `${mismatched} not equal`);
  const cpuCell = (perCall: Record<string, number> | null) => (perCall ? cpuText(perCall) : '–');
  const pacedText = (r: PacedLoadResult) => `p50 ${r.latency.p50} ms, max ${r.latency.max} ms, ${JSON.stringify(r.statuses)}, sender lag ≤ ${r.maxSendLagMs} ms`;
  lines.push(
    `Last run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${os.cpus().length} CPU cores shared by PostgreSQL, RabbitMQ, Redis, the gateway and the transfers service (each its own process) and the load generators (this process: autocannon for the closed-loop maximum, infra/bench/kit/paced-load.ts for the paced runs), ${pgVersion}, Node ${process.version}; ` +
      `${clockText}, PostgreSQL on the machine's own (${(Math.round(dbClockMs / 100) / 10 + 0).toFixed(1)} s from this process's; routing reads none of it); prospects over the ${open.length} of ${US_STATE_CODES.length} state codes (DC and PR among them) inside calling hours by the services' clock; ` +
      `${AGENTS} agents (8 states each, every hour, two at once, 50 transfers each); ${SECONDS} s per step after a warm-up; the machine's 1-minute load average was ${loadBefore.toFixed(1)} before and ${os.loadavg()[0]!.toFixed(1)} after. CPU per call from /proc (user + system) of the gateway, the transfers service and the run's PostgreSQL backends; RabbitMQ, Redis and the load generators not counted.`,
    '',
    '| measure | value | target |',
    '|---|---|---|',
    `| \`/healthz\` through the gateway, ${CONNECTIONS} connections | p50 ${health.latency.p50} ms, p99 ${health.latency.p99} ms | (baseline) |`,
    `| route through the gateway, 1 connection (no queueing) | p50 ${single.latency.p50} ms, p99 ${single.latency.p99} ms | |`,
    ...routeSteps.map(
      (s) =>
        `| route, closed loop, ${s.connections} connections | ${s.rate.toFixed(0)} calls/s, p50 ${s.result.latency.p50} ms, p99 ${s.result.latency.p99} ms (non-2xx ${s.result.non2xx}; routed ${s.routed}, refused: ${refusalText(s.refused)}); CPU ${cpuCell(s.perCall)} per call | |`,
    ),
    `| **maximum route rate** (closed loop, best clean step) | **${routeBest.rate.toFixed(0)} calls/s** at ${routeBest.connections} connections | (sets the paced rate) |`,
    `| **route p99, paced at half the maximum** (${routeHalf}/s for ${pacedSeconds} s, open model, from the scheduled send; routed ${routedPaced}, refused: ${refusalText(pacedDecided.refused)}) | **${pacedRoute.latency.p99} ms** (${pacedText(pacedRoute)}) | ≤ ${TARGET_P99_MS} ms: ${routeMet} |`,
    `| CPU per route call, paced (${pacedRoute.ok} calls) | ${cpuCell(pacedRoutePerCall)} | |`,
    `| CPU with no calls (3 s just before the paced run), a second | ${cpuCell(idlePerSecond)} (at ${routeHalf}/s: ${(cpuTotal(idlePerSecond) / routeHalf).toFixed(2)} ms of each call's share) | |`,
    `| outcomes, closed loop, ${CONNECTIONS} connections (every transfer routed so far: ${settleAll.length} calls, one in five repeated) | ${outcomeMax ? `**${outcomeMaxRate.toFixed(0)} calls/s**, p50 ${outcomeMax.latency.p50} ms, p99 ${outcomeMax.latency.p99} ms (non-2xx ${outcomeMax.non2xx}); CPU ${cpuCell(outcomeMaxCpu)} per call` : 'not measured: no transfer was routed'} | (sets the paced rate) |`,
    `| **outcome p99, paced at half the maximum** (${outcomeHalf}/s, the ${pacedOutcomes.length} outcomes of the paced run's transfers) | ${pacedOutcome ? `**${pacedOutcome.latency.p99} ms** (${pacedText(pacedOutcome)})` : 'not measured'} | ≤ ${TARGET_P99_MS} ms: ${outcomeMet} |`,
    `| CPU per outcome call, paced (${pacedOutcome?.ok ?? 0} calls) | ${cpuCell(pacedOutcomePerCall)} | |`,
    `| **charged twice** (charged ${charged}, charge rows ${charges}) | **${twice}** | 0: ${chargedOnceMet} |`,
    `| ledgers not equal to their rows | ${mismatched} | 0: ${ledgersMet} |`,
    '',
    'Database round trips per decision (docs/adr/0031, issue 27): a routed call 7 (key look-up; BEGIN with the call lock; earlier decision + suppression; candidates with the first free one locked; re-check + reserve; transfer.routed; COMMIT), a refusal 5–6; a charged outcome 8 (key; BEGIN; the transfer\'s agent locked; the transfer locked; the charge with its ledger row and balance; settle; transfer.completed; COMMIT). Before issue 27: 8 and 12.',
    '',
    'Reproduce: `npx tsx infra/bench/transfer-routing.ts` (needs Debian\'s faketime package, which `make bench` installs; BENCH_AGENTS, BENCH_SECONDS, BENCH_CONNECTIONS for the outcomes, BENCH_CONNECTION_STEPS=10,25,50 for the maximum; BENCH_REAL_CLOCK=1 for the machine\'s own hour).',
  );
} finally {
  for (const child of children.reverse()) await stopProcess(child);
  await pool.end();
  await deleteBusNames(namespace, [], AMQP_URL).catch(() => undefined);
  await deleteRedisKeys(redisPrefix).catch(() => undefined);
  await db.drop();
}

if (lines.length > 0) writeSection('transfer-routing', lines);
targets.finish();
