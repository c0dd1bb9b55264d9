/**
 * `make bench` (part 6): Lighthouse on the public pages (issue 16). Not a test: it measures,
 * prints, and writes its section of docs/benchmarks.md (between the bench:lighthouse markers).
 *
 * The gateway runs as its own process, as `make start` runs it, serving the SPA build in web/dist
 * (`make bench` builds it first): the public pages need nothing else — they are prerendered, and
 * the site settings come in the page. Lighthouse 12 (13 needs Node 22) drives /usr/bin/chromium
 * (`--headless=new --no-sandbox`) with its default settings: the mobile preset (Moto G Power
 * screen, simulated slow 4G and 4× CPU slowdown), performance category only. Each page is
 * measured RUNS times; the median of each figure is reported. Target: a score ≥ 95 on every page.
 * The median run's full report is kept in test-results/lighthouse/ (not committed) for the why.
 *
 *   BENCH_LIGHTHOUSE_RUNS=5 CHROMIUM_PATH=/usr/bin/chromium npx tsx infra/bench/lighthouse.ts
 */
import { type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { createTestDatabase, freePort, TEST_KEYS, waitFor } from '@warmline/platform/testing/index';
import { deleteBusNames, deleteRedisKeys } from '@warmline/platform/testing/system';
import { answers, REPO_ROOT, say, startBenchGateway, startCommand, stopProcess, Targets, writeSection } from './kit/index.js';

const REPORTS_DIR = path.join(REPO_ROOT, 'test-results/lighthouse');
const WEB_DIST_DIR = path.join(REPO_ROOT, 'web/dist');
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5);
const PAGES = ['/', '/pricing', '/premium-pricing'];
const TARGET_SCORE = 95;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** One Lighthouse run's figures: score 0–100, times in ms, CLS unitless. */
interface Run {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  speedIndex: number;
  /** Lighthouse's measure of this machine's CPU at the time (a typical desktop ~1500+; under 1000 it warns the simulated figures are unreliable). */
  benchmarkIndex: number;
  report: string;
}

/* ------------------------------------------------------------------- lighthouse ---------- */

async function measure(url: string, port: number): Promise<Run> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse could not measure ${url}: ${lhr.runtimeError.message}`);
  const metric = (id: string) => {
    const value = lhr.audits[id]?.numericValue;
    if (typeof value !== 'number') throw new Error(`${url}: Lighthouse reported no ${id}`);
    return value;
  };
  const score = lhr.categories.performance?.score;
  if (typeof score !== 'number') throw new Error(`${url}: Lighthouse reported no performance score`);
  return {
    score: Math.round(score * 100),
    fcp: metric('first-contentful-paint'),
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    speedIndex: metric('speed-index'),
    benchmarkIndex: lhr.environment.benchmarkIndex,
    report: typeof result.report === 'string' ? result.report : result.report.join('\n'),
  };
}

/* -------------------------------------------------------------------- the run ---------- */

if (!existsSync(path.join(WEB_DIST_DIR, 'prerender-manifest.json'))) {
  throw new Error(`${WEB_DIST_DIR} has no prerendered pages: run 'npm run build -w web' first`);
}
const runId = randomBytes(4).toString('hex');
const namespace = `bench_lighthouse_${runId}`;
const redisPrefix = `bench:lighthouse:${runId}:`;
const db = await createTestDatabase('warmline_bench_lighthouse');
const gatewayPort = await freePort();
const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
const chromiumPort = await freePort();
const chromiumProfile = mkdtempSync(path.join(os.tmpdir(), 'wl-bench-lighthouse-'));
const children: ChildProcess[] = [];
const loadBefore = os.loadavg()[0]!;
const results = new Map<string, Run[]>();

try {
  const env = { NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: db.url, MIGRATION_DATABASE_URL: db.url, AMQP_URL, BUS_NAMESPACE: namespace, ...TEST_KEYS };
  children.push(await startBenchGateway({ env, port: gatewayPort, runId, redisPrefix, settings: { PUBLIC_URL: gatewayUrl, WEB_DIST_DIR } }));

  children.push(
    startCommand(
      'chromium',
      CHROMIUM_PATH,
      ['--headless=new', '--no-sandbox', `--remote-debugging-port=${chromiumPort}`, `--user-data-dir=${chromiumProfile}`, '--no-first-run', 'about:blank'],
      {},
      { quiet: true },
    ),
  );
  await waitFor('Chromium', answers(`http://127.0.0.1:${chromiumPort}/json/version`), { timeoutMs: 30_000, intervalMs: 250 });

  // One unmeasured load first: the gateway's first answers (module loading, JIT) are not what a visitor meets.
  for (const page of PAGES) await measure(`${gatewayUrl}${page}`, chromiumPort);
  for (const page of PAGES) {
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const run = await measure(`${gatewayUrl}${page}`, chromiumPort);
      runs.push(run);
      say(`${page} run ${i + 1}/${RUNS}: score ${run.score}, FCP ${run.fcp.toFixed(0)} ms, LCP ${run.lcp.toFixed(0)} ms, TBT ${run.tbt.toFixed(0)} ms, CLS ${run.cls.toFixed(3)}, CPU index ${run.benchmarkIndex.toFixed(0)}`);
    }
    results.set(page, runs);
  }
} finally {
  for (const child of children.reverse()) await stopProcess(child);
  rmSync(chromiumProfile, { recursive: true, force: true });
  await deleteBusNames(namespace, [], AMQP_URL).catch(() => undefined);
  await deleteRedisKeys(redisPrefix).catch(() => undefined);
  await db.drop();
}

mkdirSync(REPORTS_DIR, { recursive: true });
const rows: string[] = [];
const targets = new Targets('lighthouse');
for (const [page, runs] of results) {
  const score = median(runs.map((r) => r.score));
  const met = score >= TARGET_SCORE;
  targets.check(`Lighthouse performance score of ${page} ≥ ${TARGET_SCORE} (median of ${runs.length})`, met, `median ${score}`);
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  rows.push(
    `| \`${page}\` | **${score}** (${runs.map((r) => r.score).join(', ')}) | ${met ? 'met' : '**not met**'} | ` +
      `${seconds(median(runs.map((r) => r.fcp)))} | ${seconds(median(runs.map((r) => r.lcp)))} | ` +
      `${median(runs.map((r) => r.tbt)).toFixed(0)} ms | ${median(runs.map((r) => r.cls)).toFixed(3)} | ${seconds(median(runs.map((r) => r.speedIndex)))} | ${median(runs.map((r) => r.benchmarkIndex)).toFixed(0)} |`,
  );
  // The run whose score is the median, in full, for finding out why.
  const medianRun = [...runs].sort((a, b) => a.score - b.score)[Math.floor(runs.length / 2)]!;
  writeFileSync(path.join(REPORTS_DIR, `${page === '/' ? 'landing' : page.slice(1)}.json`), medianRun.report);
}

const lines = [
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${os.cpus().length} cores (1-minute load ${loadBefore.toFixed(1)} before, ${os.loadavg()[0]!.toFixed(1)} after); ` +
    `\`npx tsx infra/bench/lighthouse.ts\`: Lighthouse 12.2.3, ${CHROMIUM_PATH} \`--headless=new --no-sandbox\`, mobile preset (simulated slow 4G, 4× CPU slowdown), performance only, median of ${RUNS} runs per page.`,
  '',
  `| page | score (runs) | ≥ ${TARGET_SCORE} | FCP | LCP | TBT | CLS | Speed Index | CPU benchmark index |`,
  '|---|---|---|---:|---:|---:|---:|---:|---:|',
  ...rows,
];
for (const line of lines) say(line);
writeSection('lighthouse', lines);
say(`the median runs' reports in ${path.relative(REPO_ROOT, REPORTS_DIR)}/`);
targets.finish();
