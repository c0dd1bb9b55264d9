/**
 * `make bench` (part 3): the admin's customer search at 100,000 users, 100,000 survey responses
 * and 100,000 orders. Not a test: it measures, prints, and writes its section of
 * docs/benchmarks.md (between the bench:customer-search markers).
 *
 * - A dedicated database (BENCH_SEARCH_DATABASE_URL, default .../warmline_bench_search) is filled
 *   the first time with generated people (one INSERT … SELECT generate_series per table, a few
 *   seconds) and reused afterwards; `dropdb warmline_bench_search` to start over.
 * - The gateway and the orders service run in-process against it on free ports, as in
 *   production: the admin logs in, and every search goes through the gateway, which asks its own
 *   tables and the orders service's /internal/search in parallel (the fan-out is in the time).
 * - Searches of mixed kinds (exact e-mail, username, phone; part of a phone; a name; a common
 *   last name; an agency; a customer's e-mail; a word in a quarter of all rows; two letters;
 *   nothing found), sequential, p50/p95/p99 each and over all, beside a baseline measured in the
 *   same run, one request before each search (GET /api/current-user through the same gateway:
 *   session, no search), as a ratio.
 *   Target: p95 ≤ 50 ms.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createLogger } from '@warmline/platform/log';
import { deleteBusNames, deleteRedisKeys } from '@warmline/platform/testing/system';
import { TEST_KEYS } from '@warmline/platform/testing/index';
import { parseConfig } from '@warmline/platform/config';
import { createPool, type Pool } from '@warmline/platform/db/index';
import { gatewayEnv } from '@warmline/gateway/config';
import { GATEWAY_SCHEMA, startGateway } from '@warmline/gateway/service';
import { ordersEnv } from '@warmline/orders/config';
import { ORDERS_SCHEMA, startOrders } from '@warmline/orders/service';
import { ensureDatabase, ms, say, stats, Targets, writeSection, type Stats } from './kit/index.js';

const DATABASE_URL = process.env.BENCH_SEARCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/warmline_bench_search';
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROWS = Number(process.env.BENCH_SEARCH_ROWS ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 50);
const TARGET_P95_MS = 50;

/* ------------------------------------------------------------------ database ---------- */

// 40 × 50 names: a full name is shared by ~50 people, a last name by ~2,000, as in a real list.
const FIRST = ['James', 'Mary', 'John', 'Patricia', 'Robert', 'Jennifer', 'Michael', 'Linda', 'William', 'Elizabeth', 'David', 'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen', 'Dana', 'Nancy', 'Daniel', 'Lisa', 'Matthew', 'Betty', 'Anthony', 'Margaret', 'Mark', 'Sandra', 'Donald', 'Ashley', 'Steven', 'Kimberly', 'Paul', 'Emily', 'Andrew', 'Donna', 'Joshua', 'Michelle'];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Cole'];
const DOMAINS = ['gmail.com', 'yahoo.com', 'outlook.com', 'icloud.com'];
const sqlArray = (values: string[]) => `ARRAY[${values.map((v) => `'${v}'`).join(',')}]`;

/**
 * Person `i` of a table, the same in SQL (for the load) and here (to know what to search):
 * names from the lists, e-mail first.last<i>@domain, username <prefix><i>, phone from i.
 */
function person(prefix: string, i: number) {
  const first = FIRST[i % FIRST.length]!;
  const last = LAST[Math.floor(i / FIRST.length) % LAST.length]!;
  const area = 200 + (i % 800);
  const exchange = String((i * 7919) % 1000).padStart(3, '0');
  const line = String(Math.floor(i / 10) % 10000).padStart(4, '0');
  return {
    first,
    last,
    email: `${first}.${last}${i}@${DOMAINS[i % DOMAINS.length]}`.toLowerCase(),
    username: `${prefix}${i}`,
    phone: `(${area}) ${exchange}-${line}`,
    digits: `${area}${exchange}${line}`,
  };
}

const personSql = (prefix: string) => `
  f.v AS first_name, l.v AS last_name,
  lower(f.v || '.' || l.v || i || '@' || (${sqlArray(DOMAINS)})[1 + i % ${DOMAINS.length}]) AS email,
  '${prefix}' || i AS username,
  '(' || (200 + i % 800) || ') ' || lpad(((i * 7919) % 1000)::text, 3, '0') || '-' || lpad(((i / 10) % 10000)::text, 4, '0') AS phone,
  now() - make_interval(mins => (i * 37) % (2 * 365 * 24 * 60)) AS created_at`;
const namesJoin = `
  CROSS JOIN LATERAL (SELECT (${sqlArray(FIRST)})[1 + i % ${FIRST.length}] AS v) f
  CROSS JOIN LATERAL (SELECT (${sqlArray(LAST)})[1 + (i / ${FIRST.length}) % ${LAST.length}] AS v) l`;

async function fill(pool: Pool, table: string, count: () => Promise<number>, insert: (from: number, to: number) => string): Promise<number> {
  const have = await count();
  if (have < ROWS) {
    const started = Date.now();
    await pool.query(insert(have + 1, ROWS));
    say(`${table}: loaded ${(ROWS - have).toLocaleString('en-US')} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  await pool.query(`VACUUM (ANALYZE) ${table}`);
  return count();
}

async function ensurePeople(gatewayPool: Pool, ordersPool: Pool): Promise<{ users: number; surveys: number; orders: number }> {
  const countOf = (p: Pool, sql: string) => async () => (await p.query<{ n: number }>(sql)).rows[0]?.n ?? 0;
  const users = await fill(gatewayPool, 'users', countOf(gatewayPool, `SELECT count(*)::int AS n FROM users WHERE username LIKE 'agent%'`), (from, to) => `
    INSERT INTO users (username, email, first_name, last_name, phone, agency_name, role, password_hash, created_at)
    SELECT username, email, first_name, last_name, phone, last_name || ' Insurance Group', CASE WHEN i % 3 = 0 THEN 'Agency Owner' ELSE 'Insurance Agent' END, 'not-a-hash', created_at
      FROM (SELECT i, ${personSql('agent')} FROM generate_series(${from}, ${to}) AS i ${namesJoin}) p`);
  const surveys = await fill(gatewayPool, 'survey_responses', countOf(gatewayPool, 'SELECT count(*)::int AS n FROM survey_responses'), (from, to) => `
    INSERT INTO survey_responses (funnel, brand, salesperson, first_name, last_name, agency_name, role, phone, email, username, lead_type, working_states, created_at)
    SELECT CASE WHEN i % 4 = 0 THEN 'ringcloud' ELSE 'main' END, CASE WHEN i % 4 = 0 THEN 'RingCloud' ELSE 'WarmLine' END,
           CASE WHEN i % 4 = 0 THEN 'RingCloud' ELSE 'Survey Form' END, first_name, last_name, last_name || ' Agency', 'Insurance Agent',
           phone, email, username, (ARRAY['Live Transfers', 'Call-Backs', 'Aged Leads', 'Insurance Recruiting'])[1 + i % 4], 'TX, OK', created_at
      FROM (SELECT i, ${personSql('prospect')} FROM generate_series(${from}, ${to}) AS i ${namesJoin}) p`);
  const orders = await fill(ordersPool, 'package_orders', countOf(ordersPool, `SELECT count(*)::int AS n FROM package_orders WHERE kind = 'package'`), (from, to) => `
    INSERT INTO package_orders (id, kind, tier, lead_type, count, unit_price_cents, amount_cents, description, provider, status, paid_at,
                                billing_name, billing_email, billing_phone, created_at)
    SELECT gen_random_uuid(), 'package', CASE WHEN i % 5 = 0 THEN 'ringcloud' ELSE 'premium' END, CASE WHEN i % 5 = 0 THEN 'Call-Backs' END,
           10, 3700, 37000, 'Generated order', 'sandbox', CASE WHEN i % 10 = 0 THEN 'pending' ELSE 'paid' END,
           CASE WHEN i % 10 = 0 THEN NULL ELSE created_at END, first_name || ' ' || last_name, email, phone, created_at
      FROM (SELECT i, ${personSql('buyer')} FROM generate_series(${from}, ${to}) AS i ${namesJoin}) p`);
  return { users, surveys, orders };
}

/* ------------------------------------------------------------------- timing ---------- */

/* ------------------------------------------------------------------- the run ---------- */

await ensureDatabase(DATABASE_URL);
const runId = randomBytes(4).toString('hex');
const namespace = `bench_search_${runId}`;
const redisPrefix = `bench:search:${runId}:`;
const admin = { username: `bench_admin_${runId}`, password: `bench-password-${runId}` };
const quiet = createLogger('bench', 'silent');
const shared = { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL, MIGRATION_DATABASE_URL: DATABASE_URL, AMQP_URL, ...TEST_KEYS, BUS_NAMESPACE: namespace };

// The gateway makes its first admin only when there is none: the last run's goes first.
{
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  const { rows } = await client.query<{ t: string | null }>("SELECT to_regclass('gateway.users')::text AS t");
  if (rows[0]?.t) await client.query("DELETE FROM gateway.users WHERE username LIKE 'bench\\_admin\\_%'");
  await client.end();
}
// Starting them migrates their schemas (and creates pg_trgm) before the load.
const orders = await startOrders(parseConfig(ordersEnv, { ...shared, ORDERS_PORT: '0', PAYMENT_PROVIDER: 'sandbox' }), quiet);
const gateway = await startGateway(
  parseConfig(gatewayEnv, {
    ...shared,
    GATEWAY_PORT: '0',
    GATEWAY_INTERNAL_PORT: '0',
    REDIS_URL,
    REDIS_PREFIX: redisPrefix,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ORDERS_URL: orders.url,
    ADMIN_USERNAME: admin.username,
    ADMIN_PASSWORD: admin.password,
    WEB_DIST_DIR: path.join(os.tmpdir(), 'no-web-dist'),
  }),
  { log: quiet },
);
const gatewayPool = createPool(DATABASE_URL, GATEWAY_SCHEMA, 2);
const ordersPool = createPool(DATABASE_URL, ORDERS_SCHEMA, 2);

const lines: string[] = [];
const targets = new Targets('customer-search');
try {
  const counts = await ensurePeople(gatewayPool, ordersPool);
  say(`people: ${counts.users} generated users, ${counts.surveys} survey responses, ${counts.orders} package orders`);

  const login = await fetch(new URL('/api/login', gateway.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify(admin),
  });
  if (login.status !== 200) throw new Error(`admin login failed: ${login.status} ${await login.text()}`);
  const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');

  let partialAnswers = 0;
  async function get(pathAndQuery: string): Promise<{ ms: number; count: number }> {
    const started = process.hrtime.bigint();
    const response = await fetch(new URL(pathAndQuery, gateway.url), { headers: { cookie } });
    const body = (await response.json()) as unknown;
    const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
    if (response.status !== 200) throw new Error(`${pathAndQuery} answered ${response.status}: ${JSON.stringify(body)}`);
    if (response.headers.get('x-search-partial')) partialAnswers += 1;
    return { ms: elapsed, count: Array.isArray(body) ? body.length : 1 };
  }

  // A deterministic spread of people to look for (not random: two runs ask the same).
  const pick = (k: number) => 1 + ((k * 7_919) % ROWS);
  const kinds: { label: string; q: (k: number) => string }[] = [
    { label: 'exact e-mail of a user', q: (k) => person('agent', pick(k)).email.toUpperCase() },
    { label: 'exact username of a survey answer', q: (k) => person('prospect', pick(k)).username },
    { label: 'exact phone, written (555) 123-4567', q: (k) => person('agent', pick(k)).phone },
    { label: "part of a phone '(555) 123'", q: (k) => person('prospect', pick(k)).phone.slice(0, 9) },
    { label: "a full name 'dana cole'", q: (k) => { const p = person('agent', pick(k)); return `${p.first} ${p.last}`.toLowerCase(); } },
    { label: "a last name (~6,000 rows) 'smith'", q: (k) => LAST[k % LAST.length]!.toLowerCase() },
    { label: "an agency 'lopez insurance'", q: (k) => `${LAST[k % LAST.length]} insurance` },
    { label: "a paying customer's e-mail", q: (k) => person('buyer', pick(k)).email },
    { label: "in a quarter of all rows 'gmail'", q: () => 'gmail' },
    { label: "two letters 'jo'", q: (k) => ['jo', 'ma', 'li', 'da'][k % 4]! },
    { label: 'nothing matches', q: (k) => `zzqx${k}` },
  ];

  const loadBefore = os.loadavg()[0]!;
  const baselineTimes: number[] = [];
  for (let k = 0; k < 20; k += 1) await get('/api/current-user');

  const rows: { label: string; example: string; results: number; s: Stats }[] = [];
  const all: number[] = [];
  for (const kind of kinds) for (let k = 0; k < 5; k += 1) await get(`/api/search-customers?q=${encodeURIComponent(kind.q(k))}`); // warm-up
  for (const kind of kinds) {
    const times: number[] = [];
    let results = 0;
    for (let k = 0; k < SAMPLES; k += 1) {
      // The baseline interleaved with the searches, so both see the same moments of the machine.
      baselineTimes.push((await get('/api/current-user')).ms);
      const answer = await get(`/api/search-customers?q=${encodeURIComponent(kind.q(k))}`);
      times.push(answer.ms);
      results += answer.count;
    }
    all.push(...times);
    const s = stats(times);
    rows.push({ label: kind.label, example: kind.q(1), results: Math.round(results / SAMPLES), s });
    say(`${kind.label}: p50 ${ms(s.p50)} ms, p95 ${ms(s.p95)} ms`);
  }
  const overall = stats(all);
  const baseline = stats(baselineTimes);
  say(`baseline GET /api/current-user p50 ${ms(baseline.p50)} ms, p95 ${ms(baseline.p95)} ms`);
  const verdict = (label: string, p95: number) =>
    targets.check(`customer search, ${label}: p95 ≤ ${TARGET_P95_MS} ms`, p95 <= TARGET_P95_MS, `p95 ${ms(p95)} ms, ${(p95 / baseline.p95).toFixed(1)}× GET /api/current-user`);
  const pgVersion = (await gatewayPool.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]?.v ?? '?';

  lines.push(
    `Last run: ${new Date().toISOString().slice(0, 10)}, ${counts.users.toLocaleString('en-US')} users, ${counts.surveys.toLocaleString('en-US')} survey responses and ` +
      `${counts.orders.toLocaleString('en-US')} package orders (90% paid) in the bench database, ${os.cpus().length} CPU cores, PostgreSQL ${pgVersion}, Node ${process.version}; ` +
      `${SAMPLES} sequential searches per row (different texts of the kind) after 5 warm-up searches each, all through the gateway with the orders service asked over HTTP; ` +
      `the machine's 1-minute load average was ${loadBefore.toFixed(1)} before and ${os.loadavg()[0]!.toFixed(1)} after (other work on it shows in the baseline too).`,
    '',
    `Baseline in the same run, one request before each search: \`GET /api/current-user\` through the same gateway (session, no search) p50 ${ms(baseline.p50)} ms, p95 ${ms(baseline.p95)} ms. ` +
      `Answers that left a source out (X-Search-Partial): ${partialAnswers}.`,
    '',
    `| GET /api/search-customers | e.g. | results | p50 ms | p95 ms | p99 ms | p95 ÷ baseline p95 | target p95 ≤ ${TARGET_P95_MS} ms |`,
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.label} | \`${r.example}\` | ${r.results} | ${ms(r.s.p50)} | ${ms(r.s.p95)} | ${ms(r.s.p99)} | ${(r.s.p95 / baseline.p95).toFixed(1)}× | ${verdict(r.label, r.s.p95)} |`),
    `| **all ${all.length} searches** | | | **${ms(overall.p50)}** | **${ms(overall.p95)}** | ${ms(overall.p99)} | ${(overall.p95 / baseline.p95).toFixed(1)}× | ${verdict('all searches', overall.p95)} |`,
  );
  say(`all: p50 ${ms(overall.p50)} ms, p95 ${ms(overall.p95)} ms; partial answers ${partialAnswers}`);
  targets.check('customer search: every answer whole', partialAnswers === 0, `${partialAnswers} partial answers`);
} finally {
  await gateway.stop();
  await orders.stop();
  await gatewayPool.end();
  await ordersPool.end();
  await deleteBusNames(namespace, [], AMQP_URL);
  await deleteRedisKeys(redisPrefix).catch(() => undefined);
}

if (lines.length > 0) writeSection('customer-search', lines);
targets.finish();
