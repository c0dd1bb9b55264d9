/**
 * `make bench` (part 4): the aged-lead importer (issue 13). Not a test: it measures, prints, and
 * writes its section of docs/benchmarks.md (between the bench:lead-import markers).
 *
 * - Generated vendor files of 100,000 and 1,000,000 rows (about 1 % bad rows, 1 % duplicates,
 *   consent columns) under var/bench/, written once and reused.
 * - Baseline, in the same run (issue 27): `COPY … FROM STDIN` of the same leads — the rows this
 *   import stored, in file order and in the table's form — into a copy of `aged_leads` with the
 *   same indexes and constraints (`CREATE TABLE … (LIKE aged_leads INCLUDING ALL)`), holding the
 *   inventory `aged_leads` held before the import. What PostgreSQL alone takes for the same work.
 *   The old baseline (the vendor file as is into text columns with no index) stays as a diagnostic.
 * - The importer runs as its own process (`services/catalog/src/importer-main.ts`, as make start
 *   runs it); the catalog service runs in-process and takes the upload. The import's rate is
 *   its leads stored ÷ (finished_at − started_at), as a ratio of the indexed COPY's. Target ≥ 60 %.
 *   CPU per 1,000 rows from /proc: the importer process plus its PostgreSQL backend, beside the
 *   COPY's backend.
 * - The importer's peak RSS (VmHWM from /proc) for each file size: target ≤ 200 MB and flat as
 *   the file grows.
 * - `GET /api/aged-leads` p95 on the catalog while the million-row import runs, beside its p95
 *   idle just before: target ≤ 2× idle. After the import, the stock counts the market adds up
 *   must equal the unsold leads.
 * A missed target is printed as such and the run exits 1.
 * The database (BENCH_IMPORT_DATABASE_URL, default …/warmline_bench_import) is recreated each run.
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { LEAD_IMPORT_COLUMNS, stateOfAreaCode } from '@warmline/contracts';
import { parseConfig } from '@warmline/platform/config';
import { createLogger } from '@warmline/platform/log';
import { IDENTITY_HEADER } from '@warmline/platform/http/identity';
import { type Identity } from '@warmline/platform/identity';
import { deleteBusNames } from '@warmline/platform/testing/system';
import { freePort, signTestIdentity, TEST_KEYS, waitFor } from '@warmline/platform/testing/index';
import { catalogEnv } from '@warmline/catalog/config';
import { startCatalog } from '@warmline/catalog/service';
import { entryEnv, listServices } from '../scripts/services';
import { cpuSeconds, percentileOfSorted, REPO_ROOT, say, Targets, writeSection } from './kit/index.js';

const DATABASE_URL = process.env.BENCH_IMPORT_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/warmline_bench_import';
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const SIZES = (process.env.BENCH_IMPORT_ROWS ?? '100000,1000000').split(',').map(Number);
/** BENCH_IMPORT_MARKET=off: no market samples (a batch-size sweep: LEAD_IMPORT_BATCH_ROWS reaches the importer). */
const MARKET_SAMPLES = process.env.BENCH_IMPORT_MARKET !== 'off';
const BENCH_DIR = path.join(REPO_ROOT, 'var/bench');
const DAY_MS = 86_400_000;

const importerEntry = listServices().find((s) => s.name === 'importer')!;

/* -------------------------------------------------------------------- the files ---------- */

const FIRST = ['James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth'];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez'];
const STATES = ['TX', 'CA', 'FL', 'NY', 'OH', 'GA', 'AZ', 'NC', 'PA', 'IL'];
/** Geographic area codes only: the rules refuse the others (issue 22), and the files' bad rows are their own. */
const AREA_CODES = Array.from({ length: 700 }, (_, k) => String(200 + k)).filter((code) => stateOfAreaCode(`${code}5550000`) !== null);

/**
 * Row i of a generated file (the same i gives the same row; phones distinct up to 8 million rows).
 * Each file numbers its rows from its own size, so the two files share no phone.
 */
function row(i: number, today: number): string {
  const area = AREA_CODES[i % AREA_CODES.length]!;
  const phone = `${area}${String(2_000_000 + ((i * 7919) % 7_999_999)).padStart(7, '0')}`;
  const fill = new Date(today - (31 + (i % 149)) * DAY_MS + (i % 43_200) * 1000).toISOString();
  if (i % 100 === 99) return `${FIRST[i % 10]} ${LAST[(i * 7) % 10]},555-01,,TX,,${fill},,,,`; // bad phone
  const source = i % 100 === 98 ? row(i - 1, today) : null; // a duplicate of the row before
  if (source) return source;
  return [
    `${FIRST[i % 10]} ${LAST[(i * 7) % 10]}`,
    `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`,
    i % 4 === 0 ? '' : `lead${i}@example.com`,
    STATES[i % STATES.length],
    i % 5 === 0 ? '' : String(10_000 + (i % 89_999)),
    fill,
    'vendor-bench',
    i % 10 === 0 ? '' : `https://cert.trustedform.com/${String(i).padStart(40, '0')}`,
    i % 10 === 0 ? '' : fill,
    i % 10 === 0 ? '' : `203.0.113.${i % 250}`,
  ].join(',');
}

async function ensureFile(rows: number, today: number): Promise<string> {
  mkdirSync(BENCH_DIR, { recursive: true });
  const file = path.join(BENCH_DIR, `leads-v3-${rows}-${new Date(today).toISOString().slice(0, 10)}.csv`);
  if (existsSync(file)) return file;
  say(`writing ${file}`);
  const out = createWriteStream(file);
  out.write(LEAD_IMPORT_COLUMNS.join(',') + '\n');
  let chunk = '';
  for (let i = rows; i < 2 * rows; i++) {
    chunk += row(i, today) + '\n';
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  return file;
}

/* ------------------------------------------------------------------ the database ---------- */

async function recreateDatabase(): Promise<void> {
  const name = new URL(DATABASE_URL).pathname.slice(1);
  const admin = new URL(DATABASE_URL);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

/** The old baseline, kept as a diagnostic: the file as is, COPY'd into text columns with no index, no checks. */
async function bareCopy(file: string): Promise<number> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP TABLE IF EXISTS public.bench_copy_scratch`);
    // A logged table like aged_leads: the comparison is with the same durability.
    await client.query(`CREATE TABLE public.bench_copy_scratch (${LEAD_IMPORT_COLUMNS.map((_, i) => `c${i} text`).join(', ')})`);
    const started = process.hrtime.bigint();
    await pipeline(createReadStream(file), client.query(copyFrom('COPY public.bench_copy_scratch FROM STDIN (FORMAT csv, HEADER true)')));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    await client.query('DROP TABLE public.bench_copy_scratch');
    return seconds;
  } finally {
    await client.end();
  }
}

interface IndexedCopy {
  seconds: number;
  rows: number;
  backendCpuSeconds: number;
  load: number;
}

/**
 * The baseline (issue 27): the leads the import stored, exported in file order (time-ordered ids)
 * in the table's form, COPY'd into `LIKE aged_leads INCLUDING ALL` (every index, CHECK and
 * default; not the stock triggers) that first holds the inventory aged_leads held before.
 */
async function indexedCopy(importId: string): Promise<IndexedCopy> {
  const client = new pg.Client({ connectionString: DATABASE_URL, options: '-c search_path=catalog,public' });
  await client.connect();
  const file = path.join(BENCH_DIR, `stored-${runId}.tsv`);
  try {
    const { rows: columns } = await client.query<{ name: string }>(
      `SELECT quote_ident(column_name) AS name FROM information_schema.columns
        WHERE table_schema = 'catalog' AND table_name = 'aged_leads' AND is_generated = 'NEVER' ORDER BY ordinal_position`,
    );
    const list = columns.map((c) => c.name).join(', ');
    const id = pg.escapeLiteral(importId);
    await pipeline(client.query(copyTo(`COPY (SELECT ${list} FROM aged_leads WHERE import_id = ${id} ORDER BY id) TO STDOUT`)), createWriteStream(file));
    await client.query('DROP TABLE IF EXISTS public.bench_copy_indexed');
    await client.query('CREATE TABLE public.bench_copy_indexed (LIKE catalog.aged_leads INCLUDING ALL)');
    await client.query(`INSERT INTO public.bench_copy_indexed (${list}) SELECT ${list} FROM aged_leads WHERE import_id IS DISTINCT FROM ${id}`);
    // Both start from a checkpoint: neither pays for the other's dirty pages.
    await client.query('CHECKPOINT');
    const { rows: me } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const cpuBefore = cpuSeconds(me[0]!.pid);
    const started = process.hrtime.bigint();
    const copy = client.query(copyFrom(`COPY public.bench_copy_indexed (${list}) FROM STDIN`));
    await pipeline(createReadStream(file), copy);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const backendCpuSeconds = cpuSeconds(me[0]!.pid) - cpuBefore;
    await client.query('DROP TABLE public.bench_copy_indexed');
    return { seconds, rows: Number(copy.rowCount), backendCpuSeconds, load: os.loadavg()[0]! };
  } finally {
    rmSync(file, { force: true });
    await client.end();
  }
}

/** A process's CPU so far, or the last reading once it has gone (the kit's cpuSeconds is then NaN). */
const lastReading = (last: number, now: number): number => (Number.isFinite(now) ? now : last);

/** The PostgreSQL backend running an import: the session holding its lock (lead-import-run.ts). */
async function importBackendPid(db: pg.Pool, importId: string): Promise<number | null> {
  const { rows } = await db.query<{ pid: number }>(
    `SELECT l.pid FROM pg_locks l
      WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended('lead-import:' || $1, 0)`,
    [importId],
  );
  return rows[0]?.pid ?? null;
}

/* -------------------------------------------------------------------- the run ---------- */

const runId = randomBytes(4).toString('hex');
const namespace = `bench_import_${runId}`;
const blobDir = path.join(BENCH_DIR, `blobs-${runId}`);
const admin = { userId: randomUUID(), username: 'bench_admin', isAdmin: true };
const agent = { userId: randomUUID(), username: 'bench_agent', isAdmin: false };
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const shared = { NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL, MIGRATION_DATABASE_URL: DATABASE_URL, AMQP_URL, ...TEST_KEYS, BUS_NAMESPACE: namespace, BLOB_STORE: 'local', BLOB_DIR: blobDir };

function request(method: string, url: string, identity: Identity, body?: { file: string }): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method,
      headers: {
        [IDENTITY_HEADER]: signTestIdentity('catalog', identity),
        ...(body ? { 'content-type': 'text/csv', 'content-length': String(statSync(body.file).size) } : {}),
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    if (body) createReadStream(body.file).pipe(req);
    else req.end();
  });
}

const percentile = (samples: number[], q: number): number => percentileOfSorted([...samples].sort((a, b) => a - b), q);

async function marketSample(url: string): Promise<number> {
  const started = process.hrtime.bigint();
  const answer = await request('GET', `${url}/api/aged-leads?page=1`, agent);
  if (answer.status !== 200) throw new Error(`market answered ${answer.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/**
 * One market request, then a pause to make it one every MARKET_PACE_MS: buyers browsing, not a
 * loop that saturates the market's own process and backend (which would compete with the
 * import for the cores and measure the market's saturation rather than the import's effect).
 */
async function pacedMarketSample(url: string): Promise<number> {
  const took = await marketSample(url);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, MARKET_PACE_MS - took)));
  return took;
}
const MARKET_PACE_MS = 100;

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

interface Result {
  rows: number;
  fileMb: number;
  bareCopySeconds: number;
  copy: IndexedCopy;
  importSeconds: number;
  importLoad: number;
  importerCpuSeconds: number;
  backendCpuSeconds: number;
  rowsImported: number;
  rowsRejected: number;
  rowsDuplicate: number;
  peakRssMb: number;
  restingRssMb: number;
  marketIdleP95?: number;
  marketBusyP95?: number;
  marketBusyN?: number;
}

await recreateDatabase();
const catalog = await startCatalog(parseConfig(catalogEnv, { ...shared, CATALOG_PORT: '0' }), createLogger('catalog', 'silent'), { sweeper: false });
const pool = new pg.Pool({ connectionString: DATABASE_URL, options: '-c search_path=catalog,public' });
const results: Result[] = [];
const targets = new Targets('lead-import');
try {
  for (const rows of SIZES) {
    const file = await ensureFile(rows, today);
    const fileMb = statSync(file).size / 1024 / 1024;
    const bareCopySeconds = await bareCopy(file);
    say(`${rows.toLocaleString('en-US')} rows: bare COPY (no index, diagnostic) ${bareCopySeconds.toFixed(1)} s`);

    const port = await freePort();
    const worker = spawn(process.execPath, ['--import', 'tsx', 'services/catalog/src/importer-main.ts'], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        ...shared,
        IMPORTER_PORT: String(port),
        LEAD_IMPORT_RECOVERY_SECONDS: '1',
        // As make start and the image run it (infra/services.json: its heap bounds).
        ...entryEnv(importerEntry),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    try {
      await waitFor('the importer to be ready', async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.ok === true, { timeoutMs: 60_000 });
      const idle: number[] = [];
      const isLast = MARKET_SAMPLES && rows === SIZES[SIZES.length - 1];
      if (isLast) {
        // Warm up first (connections, JIT), then the idle sample.
        for (let i = 0; i < 100; i++) await marketSample(catalog.url);
        for (let i = 0; i < 300; i++) idle.push(await pacedMarketSample(catalog.url));
      }

      await pool.query('CHECKPOINT');
      const restingRssMb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${worker.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
      const importerCpuBefore = cpuSeconds(worker.pid!);
      const upload = await request('POST', `${catalog.url}/api/admin/lead-imports?fileName=bench-${rows}.csv`, admin, { file });
      if (upload.status !== 202) throw new Error(`upload answered ${upload.status}: ${upload.text}`);
      const id = (JSON.parse(upload.text) as { id: string }).id;
      const busy: number[] = [];
      // The import's backend and its CPU: first seen once the run holds its lock, last read each poll.
      let backend: { pid: number; cpuAtStart: number; cpuNow: number } | null = null;
      for (;;) {
        const { rows: jobs } = await pool.query<{ status: string }>('SELECT status FROM lead_imports WHERE id = $1', [id]);
        if (['done', 'failed', 'cancelled'].includes(jobs[0]!.status)) break;
        if (jobs[0]!.status === 'running') {
          if (!backend) {
            const pid = await importBackendPid(pool, id);
            if (pid) backend = { pid, cpuAtStart: cpuSeconds(pid), cpuNow: cpuSeconds(pid) };
          } else backend.cpuNow = lastReading(backend.cpuNow, cpuSeconds(backend.pid));
        }
        if (isLast && jobs[0]!.status === 'running') busy.push(await pacedMarketSample(catalog.url));
        else await new Promise((r) => setTimeout(r, 100));
      }
      if (backend) backend.cpuNow = lastReading(backend.cpuNow, cpuSeconds(backend.pid));
      const importerCpuSeconds = cpuSeconds(worker.pid!) - importerCpuBefore;
      const importLoad = os.loadavg()[0]!;
      const { rows: done } = await pool.query<{ status: string; seconds: number; rows_imported: number; rows_rejected: number; rows_duplicate: number; error: string | null }>(
        'SELECT status, extract(epoch FROM finished_at - started_at)::float8 AS seconds, rows_imported, rows_rejected, rows_duplicate, error FROM lead_imports WHERE id = $1',
        [id],
      );
      const job = done[0]!;
      if (job.status !== 'done') throw new Error(`import ${job.status}: ${job.error}`);
      const rss = peakRssMb(worker.pid!);
      say(`${rows.toLocaleString('en-US')} rows: import ${job.seconds.toFixed(1)} s (${Math.round(job.rows_imported / job.seconds).toLocaleString('en-US')} leads/s), peak RSS ${rss.toFixed(0)} MB, load ${importLoad.toFixed(1)}`);

      // The market's counts stay right: the stock the market adds up is the unsold leads.
      const { rows: counts } = await pool.query<{ stock: number; daily: number; unsold: number }>(
        `SELECT (SELECT coalesce(sum(leads), 0) FROM lead_stock)::int AS stock, (SELECT coalesce(sum(leads), 0) FROM lead_stock_daily)::int AS daily,
                (SELECT count(*) FROM aged_leads WHERE sold_at IS NULL)::int AS unsold`,
      );
      const c = counts[0]!;
      targets.check(`the market's counts after the ${rows.toLocaleString('en-US')}-row import equal its unsold leads`, c.stock === c.unsold && c.daily === c.unsold, `stock ${c.stock}, daily ${c.daily}, unsold leads ${c.unsold}`);

      const copy = await indexedCopy(id);
      say(`${rows.toLocaleString('en-US')} rows: COPY of the same ${copy.rows.toLocaleString('en-US')} leads into LIKE aged_leads INCLUDING ALL ${copy.seconds.toFixed(1)} s, load ${copy.load.toFixed(1)}`);
      results.push({
        rows,
        fileMb,
        bareCopySeconds,
        copy,
        importSeconds: job.seconds,
        importLoad,
        importerCpuSeconds,
        backendCpuSeconds: backend ? backend.cpuNow - backend.cpuAtStart : Number.NaN,
        rowsImported: job.rows_imported,
        rowsRejected: job.rows_rejected,
        rowsDuplicate: job.rows_duplicate,
        peakRssMb: rss,
        restingRssMb,
        ...(isLast ? { marketIdleP95: percentile(idle, 0.95), marketBusyP95: percentile(busy, 0.95), marketBusyN: busy.length } : {}),
      });
    } finally {
      worker.kill('SIGTERM');
      await once(worker, 'exit');
    }
  }
} finally {
  await pool.end();
  await catalog.stop();
  await deleteBusNames(namespace, [], AMQP_URL).catch(() => undefined);
  rmSync(blobDir, { recursive: true, force: true });
}

/* ------------------------------------------------------------------ the report ---------- */

const RATE_TARGET = 0.6;
const RSS_TARGET_MB = 200;
const MARKET_TARGET_RATIO = 2;
const perThousand = (cpu: number, n: number) => `${((cpu / n) * 1000 * 1000).toFixed(0)} ms`;
const verdicts = results.map((r) => {
  const ratio = r.copy.seconds / r.importSeconds;
  const rate = targets.check(`import of ${r.rows.toLocaleString('en-US')} rows ≥ 60 % of the indexed COPY`, ratio >= RATE_TARGET, `${(ratio * 100).toFixed(0)} % of the indexed COPY`);
  const rss = targets.check(`importer RSS ≤ ${RSS_TARGET_MB} MB (${r.rows.toLocaleString('en-US')} rows)`, r.peakRssMb <= RSS_TARGET_MB, `peak ${r.peakRssMb.toFixed(0)} MB`);
  const market =
    r.marketIdleP95 !== undefined && r.marketBusyP95 !== undefined
      ? targets.check(
          `market p95 during the ${r.rows.toLocaleString('en-US')}-row import ≤ 2× idle`,
          r.marketBusyP95 <= MARKET_TARGET_RATIO * r.marketIdleP95,
          `${r.marketBusyP95.toFixed(1)} ms busy, ${r.marketIdleP95.toFixed(1)} ms idle`,
        )
      : null;
  return { rate, rss, market };
});

const lines = [
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB (load ${os.loadavg()[0]!.toFixed(1)} at the end), LEAD_IMPORT_BATCH_ROWS ${process.env.LEAD_IMPORT_BATCH_ROWS ?? 'unset (the default)'}; \`npx tsx infra/bench/lead-import.ts\`.`,
  '',
  '| rows | file | indexed COPY of the same leads (baseline) | import | rate vs indexed COPY (target ≥ 60 %) | CPU per 1,000 rows: import (importer + its backend) vs COPY | imported / rejected / duplicate | importer RSS at rest → peak (target ≤ 200 MB) | bare COPY, no index (diagnostic) |',
  '|---:|---:|---:|---:|---:|---:|---|---:|---:|',
  ...results.map((r, i) => {
    const copyRate = r.copy.rows / r.copy.seconds;
    const importRate = r.rowsImported / r.importSeconds;
    const importCpu = `${perThousand(r.importerCpuSeconds + r.backendCpuSeconds, r.rows)} (${perThousand(r.importerCpuSeconds, r.rows)} + ${perThousand(r.backendCpuSeconds, r.rows)})`;
    return `| ${r.rows.toLocaleString('en-US')} | ${r.fileMb.toFixed(0)} MB | ${r.copy.seconds.toFixed(1)} s (${Math.round(copyRate).toLocaleString('en-US')} leads/s, load ${r.copy.load.toFixed(1)}) | ${r.importSeconds.toFixed(1)} s (${Math.round(importRate).toLocaleString('en-US')} leads/s, load ${r.importLoad.toFixed(1)}) | ${((importRate / copyRate) * 100).toFixed(0)} %, ${verdicts[i]!.rate} | ${importCpu} vs ${perThousand(r.copy.backendCpuSeconds, r.rows)} | ${r.rowsImported.toLocaleString('en-US')} / ${r.rowsRejected.toLocaleString('en-US')} / ${r.rowsDuplicate.toLocaleString('en-US')} | ${r.restingRssMb.toFixed(0)} → ${r.peakRssMb.toFixed(0)} MB, ${verdicts[i]!.rss} | ${r.bareCopySeconds.toFixed(1)} s |`;
  }),
  '',
  ...results
    .map((r, i) => ({ r, market: verdicts[i]!.market }))
    .filter(({ r }) => r.marketIdleP95 !== undefined)
    .map(
      ({ r, market }) =>
        `\`GET /api/aged-leads\` (page 1) p95: ${r.marketIdleP95!.toFixed(1)} ms idle, ${r.marketBusyP95!.toFixed(1)} ms while the ${r.rows.toLocaleString('en-US')}-row import ran (${r.marketBusyN} requests, one every ${MARKET_PACE_MS} ms at most): ${(r.marketBusyP95! / r.marketIdleP95!).toFixed(1)}× idle (target ≤ 2×: ${market}).`,
    ),
];
say('\n' + lines.join('\n'));
writeSection('lead-import', lines);
targets.finish();
process.exit();
