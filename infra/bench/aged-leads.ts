/**
 * `make bench` (part 2): the aged-lead market at a million leads. Not a test: it measures,
 * prints, and writes its section of docs/benchmarks.md (between the bench:aged-leads markers).
 *
 * - A dedicated database (BENCH_DATABASE_URL, default .../warmline_bench) is filled to 1,000,000
 *   leads with the generator of `npm run seed:leads` the first time, and reused afterwards.
 * - The catalog and orders services run in-process against it, on free ports.
 * - Server time of GET /api/aged-leads (sent straight to the catalog with a signed identity, as
 *   the gateway would) for page 1, page 200, 'CA,TX' and '512': p50/p95/p99 over repeated
 *   requests, each also as a ratio to a baseline measured in the same run (GET /healthz on the
 *   same server: the HTTP stack with no database work). Target: p95 ≤ 50 ms.
 * - EXPLAIN (ANALYZE) of the page query on page 1, page 200 and the last page: the rows the
 *   index scans read, which must not grow with the page number.
 * - The purchase race: 200 buyers at once, each wanting 5 of the same 100 leads; every winner
 *   pays with the sandbox card; then zero double sales is checked and p99 recorded.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { createLogger } from '@warmline/platform/log';
import { deleteBusNames } from '@warmline/platform/testing/system';
import { parseConfig } from '@warmline/platform/config';
import { createPool, runMigrations, type Pool, type PoolClient } from '@warmline/platform/db/index';
import { IDENTITY_HEADER } from '@warmline/platform/http/identity';
import { type Identity } from '@warmline/platform/identity';
import { audienceOf } from '@warmline/platform/testing/calls';
import { signTestIdentity, TEST_KEYS } from '@warmline/platform/testing/index';
import { catalogEnv } from '@warmline/catalog/config';
import { CATALOG_MIGRATIONS_DIR, CATALOG_SCHEMA, startCatalog } from '@warmline/catalog/service';
import { bulkLoadDemoLeads } from '@warmline/catalog/demo-leads';
import { insertLeads } from '@warmline/catalog/db/leads';
import { listMarketLeads } from '@warmline/catalog/market/domain/market';
import { ordersEnv } from '@warmline/orders/config';
import { startOrders } from '@warmline/orders/service';
import { ensureDatabase, ms, sample, say, stats, Targets, timed, writeSection, type Stats } from './kit/index.js';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/warmline_bench';
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const LEADS = Number(process.env.BENCH_LEADS ?? 1_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const RACE_BUYERS = 200;
const RACE_LEADS = 100;
const TARGET_P95_MS = 50;

/* ------------------------------------------------------------------ database ---------- */

async function ensureLeads(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM aged_leads');
  const have = rows[0]?.n ?? 0;
  if (have < LEADS) {
    const missing = LEADS - have;
    say(`loading ${missing.toLocaleString('en-US')} generated leads (once; later runs reuse them)…`);
    const started = Date.now();
    await bulkLoadDemoLeads(pool, missing, { seed: 20_251_121 + have });
    say(`loaded in ${Math.round((Date.now() - started) / 1000)} s`);
  }
  await pool.query('VACUUM (ANALYZE) aged_leads');
  await pool.query('ANALYZE lead_stock');
  await pool.query('ANALYZE lead_stock_daily');
  const after = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM aged_leads');
  return after.rows[0]?.n ?? 0;
}

/* -------------------------------------------------------------- EXPLAIN capture ---------- */

/**
 * A pool whose transactions run the market's page query twice: first under EXPLAIN ANALYZE
 * (kept), then for real. Lets the bench show the plan of exactly the SQL the service sends.
 */
function explainingPool(pool: Pool, plans: string[]): Pool {
  const wrap = (client: PoolClient): PoolClient =>
    new Proxy(client, {
      get(target, prop, receiver) {
        if (prop !== 'query') return Reflect.get(target, prop, receiver) as unknown;
        return async (text: unknown, params?: unknown[]) => {
          if (typeof text === 'string' && text.includes('JOIN aged_leads l ON l.id = page.id')) {
            const { rows } = await target.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${text}`, params);
            plans.push(rows.map((r) => r['QUERY PLAN']).join('\n'));
          }
          return target.query(text as string, params);
        };
      },
    });
  return new Proxy(pool, {
    get(target, prop, receiver) {
      if (prop === 'connect') return async () => wrap(await target.connect());
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}

/** The largest "actual rows" of an index scan in a plan: what the page cost in index entries. */
function indexRowsRead(plan: string): number {
  let most = 0;
  for (const line of plan.split('\n')) {
    if (!/Index (Only )?Scan/.test(line)) continue;
    const match = /actual time=[\d.]+\.\.[\d.]+ rows=(\d+) loops=(\d+)/.exec(line);
    if (match) most = Math.max(most, Number(match[1]) * Number(match[2]));
  }
  return most;
}

/* ---------------------------------------------------------------------- run ---------- */

const namespace = `bench_${Date.now().toString(36)}`;
const quiet = createLogger('bench', 'silent');
const agent = (name: string): Identity => ({ userId: randomUUID(), username: `${name}_${randomUUID().slice(0, 6)}`, isAdmin: false });

async function call(base: string, method: string, pathname: string, identity: Identity, body?: unknown) {
  const response = await fetch(`${base}${pathname}`, {
    method,
    headers: {
      [IDENTITY_HEADER]: signTestIdentity(await audienceOf(base), identity),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

await ensureDatabase(DATABASE_URL);
await runMigrations({ databaseUrl: DATABASE_URL, schema: CATALOG_SCHEMA, dir: CATALOG_MIGRATIONS_DIR });
const pool = createPool(DATABASE_URL, CATALOG_SCHEMA, 4);
const totalLeads = await ensureLeads(pool);

const shared = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATABASE_URL,
  MIGRATION_DATABASE_URL: DATABASE_URL,
  AMQP_URL,
  ...TEST_KEYS,
  BUS_NAMESPACE: namespace,
};
const orders = await startOrders(parseConfig(ordersEnv, { ...shared, ORDERS_PORT: '0', PAYMENT_PROVIDER: 'sandbox' }), quiet);
const catalog = await startCatalog(parseConfig(catalogEnv, { ...shared, CATALOG_PORT: '0', ORDERS_URL: orders.url }), quiet, { sweeper: false });

const lines: string[] = [];
const targets = new Targets('aged-leads');
try {
  const viewer = agent('bench_viewer');
  const dbBaseline = await sample(() => pool.query('SELECT 1'), SAMPLES);
  const httpBaseline = await sample(async () => {
    const response = await fetch(`${catalog.url}/healthz`);
    await response.text();
  }, SAMPLES);
  say(`baseline: SELECT 1 p95 ${ms(dbBaseline.p95)} ms; GET /healthz p95 ${ms(httpBaseline.p95)} ms`);

  const scenarios: Array<{ label: string; page: number; filter: string }> = [
    { label: 'page 1, no filter', page: 1, filter: '' },
    { label: 'page 200, no filter', page: 200, filter: '' },
    { label: "page 1, filter 'CA,TX'", page: 1, filter: 'CA,TX' },
    { label: "page 1, filter '512'", page: 1, filter: '512' },
    { label: "page 200, filter 'CA,TX'", page: 200, filter: 'CA,TX' },
  ];
  const results: Array<{ label: string; total: number; stats: Stats }> = [];
  for (const scenario of scenarios) {
    const query = `/api/aged-leads?page=${scenario.page}&filter=${encodeURIComponent(scenario.filter)}`;
    let total = 0;
    const s = await sample(async () => {
      const answer = await call(catalog.url, 'GET', query, viewer);
      if (answer.status !== 200) throw new Error(`${query} answered ${answer.status}`);
      total = Number(answer.json.total);
    }, SAMPLES);
    results.push({ label: scenario.label, total, stats: s });
    say(`${scenario.label}: ${total} leads; p50 ${ms(s.p50)} / p95 ${ms(s.p95)} / p99 ${ms(s.p99)} ms`);
  }

  // The page query's plan at increasing depth, on the exact SQL the service sends.
  const plans: string[] = [];
  const ctx = { pool: explainingPool(pool, plans), log: quiet, clock: () => new Date(), orders: {} as never };
  const unfiltered = await listMarketLeads(ctx, viewer.userId as string, { page: 1, filter: '' });
  const lastPage = Math.ceil(unfiltered.total / 50);
  const depths = [1, 200, 2000, lastPage];
  plans.length = 0;
  for (const page of depths) await listMarketLeads(ctx, viewer.userId as string, { page, filter: '' });
  const depthRows = depths.map((page, i) => ({ page, rows: indexRowsRead(plans[i] ?? '') }));
  plans.length = 0;
  await listMarketLeads(ctx, viewer.userId as string, { page: 200, filter: 'CA,TX' });
  const filteredPlan = plans[0] ?? '';
  plans.length = 0;
  await listMarketLeads(ctx, viewer.userId as string, { page: 200, filter: '' });
  const page200Plan = plans[0] ?? '';
  say(`index entries read by the page query: ${depthRows.map((d) => `page ${d.page}: ${d.rows}`).join(', ')}`);

  // The purchase race.
  const now = Date.now();
  const raceLeads = Array.from({ length: RACE_LEADS }, (_, i) => ({
    id: randomUUID(),
    name: `Race Lead${i}`,
    phone: `512${String(7000000 + i).padStart(7, '0')}`,
    email: null,
    state: 'TX',
    formFillTime: new Date(now - 45 * 86_400_000 - i * 1000),
    source: 'bench',
    consent: {},
  }));
  await insertLeads(pool, raceLeads);
  const buyers = Array.from({ length: RACE_BUYERS }, (_, i) => agent(`racer${i}`));
  const wants = buyers.map((_, i) => Array.from({ length: 5 }, (__, k) => raceLeads[(i * 7 + k * 13) % RACE_LEADS]!.id));
  const raceStarted = Date.now();
  const attempts = await Promise.all(
    buyers.map(async (buyer, i) => {
      const [time, answer] = await timed(() => call(catalog.url, 'POST', '/api/bulk-purchase-leads', buyer, { leadIds: wants[i] }));
      return { buyer, time, answer, leads: wants[i]! };
    }),
  );
  const raceWall = Date.now() - raceStarted;
  const race = stats(attempts.map((a) => a.time));
  const statusCounts = new Map<number, number>();
  for (const a of attempts) statusCounts.set(a.answer.status, (statusCounts.get(a.answer.status) ?? 0) + 1);
  const winners = attempts.filter((a) => a.answer.status === 201);
  await Promise.all(
    winners.map((w) =>
      call(orders.url, 'POST', '/api/payments/sandbox/confirm', w.buyer, {
        clientSecret: w.answer.json.clientSecret,
        cardNumber: '4242424242424242',
        expMonth: 12,
        expYear: new Date().getUTCFullYear() + 2,
        cvc: '123',
      }),
    ),
  );
  const orderIds = winners.map((w) => String(w.answer.json.orderId));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { rows } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM lead_reservations WHERE order_id = ANY($1::uuid[]) AND status = 'paid'",
      [orderIds],
    );
    if ((rows[0]?.n ?? 0) === orderIds.length || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const { rows: doubles } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (
       SELECT lead_id FROM lead_reservation_items WHERE lead_id = ANY($1::uuid[]) AND outcome = 'sold'
        GROUP BY lead_id HAVING count(*) > 1) AS twice`,
    [raceLeads.map((l) => l.id)],
  );
  const { rows: sold } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM aged_leads WHERE id = ANY($1::uuid[]) AND sold_at IS NOT NULL',
    [raceLeads.map((l) => l.id)],
  );
  const reservedCount = winners.reduce((n, w) => n + new Set(w.leads).size, 0);
  const doubleSales = doubles[0]?.n ?? 0;
  const soldCount = sold[0]?.n ?? 0;
  say(
    `race: ${RACE_BUYERS} buyers in ${raceWall} ms — ${[...statusCounts].map(([s, n]) => `${n}×${s}`).join(', ')}; ` +
      `${soldCount} leads sold (${reservedCount} reserved), ${doubleSales} double sales; p99 ${ms(race.p99)} ms`,
  );

  // ------------------------------------------------------------------ the report ----------
  const pgVersion = (await pool.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]?.v ?? '?';
  const date = new Date().toISOString().slice(0, 10);
  const verdict = (r: { label: string; stats: Stats }) =>
    targets.check(`GET /api/aged-leads ${r.label}: p95 ≤ ${TARGET_P95_MS} ms`, r.stats.p95 <= TARGET_P95_MS, `p95 ${ms(r.stats.p95)} ms, ${(r.stats.p95 / httpBaseline.p95).toFixed(1)}× /healthz`);
  lines.push(
    `Last run: ${date}, ${totalLeads.toLocaleString('en-US')} leads in the bench database, ` +
      `${os.cpus().length} CPU cores, PostgreSQL ${pgVersion}, Node ${process.version}; ${SAMPLES} sequential requests per row after 20 warm-up requests.`,
    '',
    `Baselines in the same run: \`SELECT 1\` round trip p95 ${ms(dbBaseline.p95)} ms; \`GET /healthz\` on the catalog p95 ${ms(httpBaseline.p95)} ms.`,
    '',
    '| GET /api/aged-leads | total | p50 ms | p95 ms | p99 ms | p95 ÷ healthz p95 | target p95 ≤ 50 ms |',
    '|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.label} | ${r.total.toLocaleString('en-US')} | ${ms(r.stats.p50)} | ${ms(r.stats.p95)} | ${ms(r.stats.p99)} | ${(r.stats.p95 / httpBaseline.p95).toFixed(1)}× | ${verdict(r)} |`,
    ),
    '',
    'Index entries the page query reads (EXPLAIN ANALYZE of the service\'s own SQL, largest index scan), unfiltered:',
    '',
    `| page | ${depthRows.map((d) => String(d.page)).join(' | ')} |`,
    `|---|${depthRows.map(() => '---').join('|')}|`,
    `| index entries read | ${depthRows.map((d) => String(d.rows)).join(' | ')} |`,
    '',
    'The page starts at the day the per-day counts point to, so it reads at most one day of index entries plus the page, whatever its number.',
    '',
    '<details><summary>EXPLAIN ANALYZE, page 200 unfiltered</summary>',
    '',
    '```',
    page200Plan,
    '```',
    '',
    '</details>',
    '',
    "<details><summary>EXPLAIN ANALYZE, page 200 of 'CA,TX'</summary>",
    '',
    '```',
    filteredPlan,
    '```',
    '',
    '</details>',
    '',
    `Purchase race: ${RACE_BUYERS} buyers at once, each wanting 5 of the same ${RACE_LEADS} leads, every winner then paying with the sandbox card.`,
    '',
    '| answers | leads reserved | leads sold | double sales | p50 ms | p95 ms | p99 ms | wall ms |',
    '|---|---|---|---|---|---|---|---|',
    `| ${[...statusCounts].sort(([a], [b]) => a - b).map(([s, n]) => `${n} × ${s}`).join(', ')} | ${reservedCount} | ${soldCount} | **${doubleSales}** | ${ms(race.p50)} | ${ms(race.p95)} | ${ms(race.p99)} | ${raceWall} |`,
  );
  targets.check('purchase race: zero double sales', doubleSales === 0, `${doubleSales} leads sold twice of ${soldCount} sold`);
  const unexpected = [...statusCounts.keys()].filter((s) => s !== 201 && s !== 409);
  targets.check('purchase race: every answer 201 or 409', unexpected.length === 0, unexpected.length === 0 ? 'none other' : `answered ${unexpected.join(', ')}`);
} finally {
  await catalog.stop();
  await orders.stop();
  await pool.end();
  await deleteBusNames(namespace, [], AMQP_URL);
}

if (lines.length > 0) writeSection('aged-leads', lines);
targets.finish();
