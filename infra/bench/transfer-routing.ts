/**
 * `make bench` (issue 23): live-transfer routing and outcomes through the gateway. Not a test: it
 * measures, prints, and writes its section of docs/benchmarks.md (between the
 * bench:transfer-routing markers).
 *
 * - A fresh database (dropped at the end) and broker namespace. The gateway and the transfers
 *   service run as their own processes (`tsx services/<name>/src/main.ts`); autocannon drives them
 *   from this one, on loopback.
 * - 5,000 agents with delivery settings (every hour of the week, 8 of the 50 states each, two at
 *   once) and balances (a credit lot and its ledger row each), written in bulk SQL.
 * - /healthz through the gateway at 50 connections, then `POST /api/transfers/route` at 50
 *   connections for the same time: p99 of each and their ratio. Prospects are spread over the
 *   states whose own clock is inside calling hours now (the service's clock is the real one).
 * - Then the outcome of every routed transfer at 50 connections (durations 0–300 s, one in five
 *   sent twice): p99, and zero double charges (one charge row per charged transfer at most) with
 *   every ledger equal to its rows.
 */
import { type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import { stateOfAreaCode, TRANSFER_ROUTE_PATH, transferOutcomePath, US_STATE_CODES, withinCallingHours, type UsStateCode } from '@warmline/contracts';
import { createPool } from '@warmline/platform/db/index';
import { createTestDatabase, freePort, TEST_KEYS, waitFor } from '@warmline/platform/testing/index';
import { deleteBusNames, deleteRedisKeys } from '@warmline/platform/testing/system';
import { TRANSFERS_SCHEMA } from '@warmline/transfers/service';
import { answers, autocannon, cpuMeter, cpuText, say, startBenchGateway, startService, stopProcess, Targets, writeSection, type CannonRequest } from './kit/index.js';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const AGENTS = Number(process.env.BENCH_AGENTS ?? 5000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const TARGET_P99_MS = 25;

/** One area code per state (the first the table names), so a prospect's phone matches its state. */
const AREA_CODE_OF = new Map<UsStateCode, string>();
for (let code = 201; code <= 999; code++) {
  const state = stateOfAreaCode(`${code}5550100`);
  if (state && !AREA_CODE_OF.has(state)) AREA_CODE_OF.set(state, String(code));
}

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
  children.push(startService('transfers', { ...shared, TRANSFERS_PORT: new URL(transfersUrl).port, BUSINESS_TIMEZONE: 'America/Chicago' }));
  await waitFor('the transfers service', answers(`${transfersUrl}/healthz`), { timeoutMs: 60_000, intervalMs: 250 });
  children.push(await startBenchGateway({ env: shared, port: gatewayPort, runId, redisPrefix, settings: { TRANSFERS_URL: transfersUrl } }));

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

  const now = new Date();
  const open = US_STATE_CODES.filter((s) => withinCallingHours(s, `${AREA_CODE_OF.get(s)}5550100`, now));
  if (open.length === 0) say('no state is inside calling hours now: every decision is a refusal (run it in US daytime)');
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

  /* ---- /healthz and routing, same connections, same time ---- */
  await autocannon({ url: gatewayUrl, connections: 10, duration: 2, requests: [{ method: 'GET', path: '/healthz' }] });
  const health = await autocannon({ url: gatewayUrl, connections: CONNECTIONS, duration: SECONDS, requests: [{ method: 'GET', path: '/healthz' }] });
  say(`/healthz, ${CONNECTIONS} connections: p50 ${health.latency.p50} ms, p99 ${health.latency.p99} ms`);
  const routedIds: string[] = [];
  const reasons = new Map<string, number>();
  const onRoute = (status: number, body: string) => {
    if (status !== 200) return;
    const answer = JSON.parse(body) as { routed: boolean; transfer_id?: string; reason?: string };
    if (answer.routed && answer.transfer_id) routedIds.push(answer.transfer_id);
    else reasons.set(answer.reason ?? '?', (reasons.get(answer.reason ?? '?') ?? 0) + 1);
  };
  const routeRequest = { method: 'POST', path: TRANSFER_ROUTE_PATH, headers: vendorHeaders, setupRequest: (req: CannonRequest) => ({ ...req, body: nextProspect() }), onResponse: onRoute };
  await autocannon({ url: gatewayUrl, connections: 10, duration: 2, requests: [routeRequest] });
  // One call at a time: what a decision costs without queueing behind others.
  const single = await autocannon({ url: gatewayUrl, connections: 1, duration: Math.max(2, Math.floor(SECONDS / 2)), requests: [routeRequest] });
  say(`route, 1 connection: p50 ${single.latency.p50} ms, p99 ${single.latency.p99} ms`);
  const warmedUp = routedIds.length;
  const [transfersProcess, gatewayProcess] = children as [ChildProcess, ChildProcess];
  const database = new URL(db.url).pathname.slice(1);
  const routeCpu = cpuMeter({ transfers: transfersProcess.pid, gateway: gatewayProcess.pid }, database);
  const route = await autocannon({ url: gatewayUrl, connections: CONNECTIONS, duration: SECONDS, requests: [routeRequest] });
  const routeCpuPerCall = routeCpu.perOperation(route['2xx']);
  const routeRate = route['2xx'] / SECONDS;
  const refusals = [...reasons.entries()].map(([r, n]) => `${r} ${n}`).join(', ') || 'none';
  say(`route, ${CONNECTIONS} connections: ${routeRate.toFixed(0)}/s, p50 ${route.latency.p50} ms, p99 ${route.latency.p99} ms, non-2xx ${route.non2xx}, routed ${routedIds.length - warmedUp}, refused: ${refusals}`);

  /* ---- outcomes of every routed transfer, one in five twice ---- */
  const outcomes: Array<{ id: string; body: string }> = [];
  routedIds.forEach((id, i) => {
    const body = JSON.stringify({ connected: i % 10 !== 0, duration_seconds: (i * 37) % 301 });
    outcomes.push({ id, body });
    if (i % 5 === 0) outcomes.push({ id, body });
  });
  let next = 0;
  const outcomeCpu = cpuMeter({ transfers: transfersProcess.pid, gateway: gatewayProcess.pid }, database);
  // None routed (no state inside calling hours at this hour, 07:00–12:00 UTC): no outcome to send.
  const outcome = outcomes.length === 0 ? null : await autocannon({
    url: gatewayUrl,
    connections: CONNECTIONS,
    amount: outcomes.length,
    requests: [
      {
        method: 'POST',
        path: '/',
        headers: vendorHeaders,
        setupRequest: (req: CannonRequest) => {
          const o = outcomes[next++ % outcomes.length]!;
          return { ...req, path: transferOutcomePath(o.id), body: o.body };
        },
      },
    ],
  });
  const outcomeCpuPerCall = outcome ? outcomeCpu.perOperation(outcome['2xx']) : null;
  const outcomeText = outcome
    ? `p50 ${outcome.latency.p50} ms, p99 ${outcome.latency.p99} ms (non-2xx ${outcome.non2xx})`
    : 'not measured: no transfer was routed (no state inside calling hours now; run between 12:00 and 07:00 UTC)';
  say(`CPU per route call: ${cpuText(routeCpuPerCall)}; per outcome call: ${outcomeCpuPerCall ? cpuText(outcomeCpuPerCall) : '–'}`);
  say(`outcomes, ${CONNECTIONS} connections: ${outcomes.length} sent, ${outcomeText}`);

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
  const ratio = route.latency.p99 / Math.max(1, health.latency.p99);
  // A run that routed nothing measured refusals only: its target is not shown met.
  const routed = routedIds.length - warmedUp;
  const routeMet = targets.check(
    `transfer route: p99 ≤ ${TARGET_P99_MS} ms at ${CONNECTIONS} connections`,
    routed > 0 && route.latency.p99 <= TARGET_P99_MS,
    routed > 0 ? `p99 ${route.latency.p99} ms, ${ratio.toFixed(1)}× /healthz` : `not measured: none routed (refusals p99 ${route.latency.p99} ms)`,
  );
  const chargedOnceMet = targets.check('transfer outcomes: none charged twice', twice === 0 && charges === charged, `charged ${charged}, charge rows ${charges}, twice ${twice}`);
  const ledgersMet = targets.check('transfer outcomes: every ledger equal to its rows', mismatched === 0, `${mismatched} not equal`);
  lines.push(
    `Last run: ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPU cores shared by PostgreSQL, RabbitMQ, Redis, the gateway and the transfers service (each its own process) and autocannon (this process), ${pgVersion}, Node ${process.version}; ` +
      `${AGENTS} agents (8 states each, every hour, two at once, 50 transfers each); ${SECONDS} s per step after a warm-up; prospects over the ${open.length} states inside calling hours at the time; the machine's 1-minute load average was ${loadBefore.toFixed(1)} before and ${os.loadavg()[0]!.toFixed(1)} after.`,
    '',
    '| measure | value | target |',
    '|---|---|---|',
    `| \`/healthz\` through the gateway, ${CONNECTIONS} connections | p50 ${health.latency.p50} ms, p99 ${health.latency.p99} ms | (baseline) |`,
    `| **route** through the gateway, ${CONNECTIONS} connections | ${routeRate.toFixed(0)} calls/s, p50 ${route.latency.p50} ms, **p99 ${route.latency.p99} ms** (non-2xx ${route.non2xx}; routed ${routedIds.length - warmedUp}, refused: ${refusals}) | ≤ ${TARGET_P99_MS} ms: ${routeMet} |`,
    `| route through the gateway, 1 connection (no queueing) | p50 ${single.latency.p50} ms, p99 ${single.latency.p99} ms | |`,
    `| route p99 ÷ /healthz p99, same run | ${ratio.toFixed(1)}× | |`,
    `| outcomes through the gateway, ${CONNECTIONS} connections (${outcomes.length}, one in five repeated) | ${outcomeText} | |`,
    `| CPU per route call (user + system, ${route['2xx']} calls; RabbitMQ, Redis and autocannon not counted) | ${cpuText(routeCpuPerCall)} | |`,
    `| CPU per outcome call (${outcome?.['2xx'] ?? 0} calls) | ${outcomeCpuPerCall ? cpuText(outcomeCpuPerCall) : '–'} | |`,
    `| **charged twice** (charged ${charged}, charge rows ${charges}) | **${twice}** | 0: ${chargedOnceMet} |`,
    `| ledgers not equal to their rows | ${mismatched} | 0: ${ledgersMet} |`,
    '',
    'Database round trips per decision (docs/adr/0031, issue 27): a routed call 7 (key look-up; BEGIN with the call lock; earlier decision + suppression; candidates with the first free one locked; re-check + reserve; transfer.routed; COMMIT), a refusal 5–6; a charged outcome 8 (key; BEGIN; the transfer\'s agent locked; the transfer locked; the charge with its ledger row and balance; settle; transfer.completed; COMMIT). Before issue 27: 8 and 12.',
    '',
    'Reproduce: `npx tsx infra/bench/transfer-routing.ts` (BENCH_AGENTS, BENCH_SECONDS, BENCH_CONNECTIONS to vary).',
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
