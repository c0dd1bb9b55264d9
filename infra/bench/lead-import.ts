/**
 * `make bench` (part 4): the aged-lead importer (issue 13). Not a test: it measures, prints, and
 * writes its section of docs/benchmarks.md (between the bench:lead-import markers).
 *
 * - Generated vendor files of 100,000 and 1,000,000 rows (about 1 % bad rows, 1 % duplicates,
 *   consent columns) under var/bench/, written once and reused.
 * - Baseline, in the same run: a bare `COPY … FROM STDIN (FORMAT csv)` of the same file into a
 *   scratch table of text columns with no index (what PostgreSQL alone can take).
 * - The importer runs as its own process (`services/catalog/src/importer-main.ts`, as make start
 *   runs it); the catalog service runs in-process and takes the upload. The import's rate is
 *   rows read ÷ (finished_at − started_at), as a ratio of the bare COPY's. Target ≥ 60 %.
 * - The importer's peak RSS (VmHWM from /proc) for each file size: target ≤ 200 MB and flat as
 *   the file grows.
 * - `GET /api/aged-leads` p95 on the catalog while the million-row import runs, beside its p95
 *   idle just before.
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
import { from as copyFrom } from 'pg-copy-streams';
import { LEAD_IMPORT_COLUMNS } from '@warmline/contracts';
import { parseConfig } from '@warmline/platform/config';
import { createLogger } from '@warmline/platform/log';
import { IDENTITY_HEADER } from '@warmline/platform/http/identity';
import { type Identity } from '@warmline/platform/identity';
import { deleteBusNames } from '@warmline/platform/testing/system';
import { freePort, signTestIdentity, TEST_KEYS, waitFor } from '@warmline/platform/testing/index';
import { catalogEnv } from '@warmline/catalog/config';
import { startCatalog } from '@warmline/catalog/service';
import { entryEnv, listServices } from '../scripts/services';
import { percentileOfSorted, REPO_ROOT, say, Targets, writeSection } from './kit/index.js';

const DATABASE_URL = process.env.BENCH_IMPORT_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/warmline_bench_import';
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const SIZES = (process.env.BENCH_IMPORT_ROWS ?? '100000,1000000').split(',').map(Number);
const BENCH_DIR = path.join(REPO_ROOT, 'var/bench');
const DAY_MS = 86_400_000;

const importerEntry = listServices().find((s) => s.name === 'importer')!;

/* -------------------------------------------------------------------- the files ---------- */

const FIRST = ['James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth'];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez'];
const STATES = ['TX', 'CA', 'FL', 'NY', 'OH', 'GA', 'AZ', 'NC', 'PA', 'IL'];

/**
 * Row i of a generated file (the same i gives the same row; phones distinct up to 8 million rows).
 * Each file numbers its rows from its own size, so the two files share no phone.
 */
function row(i: number, today: number): string {
  const area = 200 + (i % 700);
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
  const file = path.join(BENCH_DIR, `leads-v2-${rows}-${new Date(today).toISOString().slice(0, 10)}.csv`);
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

/** The baseline: the file as is, COPY'd into text columns with no index, no checks. */
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

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

interface Result {
  rows: number;
  fileMb: number;
  copySeconds: number;
  importSeconds: number;
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
try {
  for (const rows of SIZES) {
    const file = await ensureFile(rows, today);
    const fileMb = statSync(file).size / 1024 / 1024;
    const copySeconds = await bareCopy(file);
    say(`${rows.toLocaleString('en-US')} rows: bare COPY ${copySeconds.toFixed(1)} s`);

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
      const isLast = rows === SIZES[SIZES.length - 1];
      if (isLast) {
        // Warm up first (connections, JIT), then the idle sample.
        for (let i = 0; i < 100; i++) await marketSample(catalog.url);
        for (let i = 0; i < 300; i++) idle.push(await marketSample(catalog.url));
      }

      const restingRssMb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${worker.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
      const upload = await request('POST', `${catalog.url}/api/admin/lead-imports?fileName=bench-${rows}.csv`, admin, { file });
      if (upload.status !== 202) throw new Error(`upload answered ${upload.status}: ${upload.text}`);
      const id = (JSON.parse(upload.text) as { id: string }).id;
      const busy: number[] = [];
      for (;;) {
        const { rows: jobs } = await pool.query<{ status: string }>('SELECT status FROM lead_imports WHERE id = $1', [id]);
        if (['done', 'failed', 'cancelled'].includes(jobs[0]!.status)) break;
        if (isLast && jobs[0]!.status === 'running') busy.push(await marketSample(catalog.url));
        else await new Promise((r) => setTimeout(r, 100));
      }
      const { rows: done } = await pool.query<{ status: string; seconds: number; rows_imported: number; rows_rejected: number; rows_duplicate: number; error: string | null }>(
        'SELECT status, extract(epoch FROM finished_at - started_at)::float8 AS seconds, rows_imported, rows_rejected, rows_duplicate, error FROM lead_imports WHERE id = $1',
        [id],
      );
      const job = done[0]!;
      if (job.status !== 'done') throw new Error(`import ${job.status}: ${job.error}`);
      const rss = peakRssMb(worker.pid!);
      results.push({
        rows,
        fileMb,
        copySeconds,
        importSeconds: job.seconds,
        rowsImported: job.rows_imported,
        rowsRejected: job.rows_rejected,
        rowsDuplicate: job.rows_duplicate,
        peakRssMb: rss,
        restingRssMb,
        ...(isLast ? { marketIdleP95: percentile(idle, 0.95), marketBusyP95: percentile(busy, 0.95), marketBusyN: busy.length } : {}),
      });
      say(`${rows.toLocaleString('en-US')} rows: import ${job.seconds.toFixed(1)} s (${Math.round(rows / job.seconds).toLocaleString('en-US')} rows/s), peak RSS ${rss.toFixed(0)} MB`);
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

const lines = [
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB (load ${os.loadavg()[0]!.toFixed(1)}); \`npx tsx infra/bench/lead-import.ts\`.`,
  '',
  '| rows | file | bare COPY | import | rate vs COPY (target ≥ 60 %) | imported / rejected / duplicate | importer RSS at rest → peak (target ≤ 200 MB) |',
  '|---:|---:|---:|---:|---:|---|---:|',
  ...results.map((r) => {
    const copyRate = r.rows / r.copySeconds;
    const importRate = r.rows / r.importSeconds;
    return `| ${r.rows.toLocaleString('en-US')} | ${r.fileMb.toFixed(0)} MB | ${r.copySeconds.toFixed(1)} s (${Math.round(copyRate).toLocaleString('en-US')}/s) | ${r.importSeconds.toFixed(1)} s (${Math.round(importRate).toLocaleString('en-US')}/s) | ${((importRate / copyRate) * 100).toFixed(0)} % | ${r.rowsImported.toLocaleString('en-US')} / ${r.rowsRejected.toLocaleString('en-US')} / ${r.rowsDuplicate.toLocaleString('en-US')} | ${r.restingRssMb.toFixed(0)} → ${r.peakRssMb.toFixed(0)} MB |`;
  }),
  '',
  ...results
    .filter((r) => r.marketIdleP95 !== undefined)
    .map((r) => `\`GET /api/aged-leads\` (page 1) p95: ${r.marketIdleP95!.toFixed(1)} ms idle, ${r.marketBusyP95!.toFixed(1)} ms while the ${r.rows.toLocaleString('en-US')}-row import ran (${r.marketBusyN} requests).`),
];
say('\n' + lines.join('\n'));
const targets = new Targets('lead-import');
for (const r of results) {
  const rate = r.rows / r.importSeconds / (r.rows / r.copySeconds);
  targets.check(`import of ${r.rows.toLocaleString('en-US')} rows: ≥ 60 % of COPY`, rate >= 0.6, `${(rate * 100).toFixed(0)} % of COPY`);
  targets.check(`import of ${r.rows.toLocaleString('en-US')} rows: importer RSS ≤ 200 MB`, r.peakRssMb <= 200, `peak ${r.peakRssMb.toFixed(0)} MB`);
  if (r.marketIdleP95 !== undefined && r.marketBusyP95 !== undefined) {
    targets.check(
      `market p95 during the ${r.rows.toLocaleString('en-US')}-row import ≤ 2× idle`,
      r.marketBusyP95 <= 2 * r.marketIdleP95,
      `${r.marketBusyP95.toFixed(1)} ms busy, ${r.marketIdleP95.toFixed(1)} ms idle`,
    );
  }
}
writeSection('lead-import', lines);
targets.finish();
process.exit();
