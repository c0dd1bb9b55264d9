import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { summarise, Targets, writeSection, type TargetResult } from '../../../infra/bench/kit/report';
import { percentileOfSorted, stats } from '../../../infra/bench/kit/stats';

/** `make bench`'s contract: a missed target is named and makes the run exit 1 (issue 27 item 6). */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('infra/bench/kit', () => {
  let dir: string;
  let exitCode: typeof process.exitCode;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'wl-bench-kit-'));
    exitCode = process.exitCode;
  });
  afterEach(async () => {
    process.exitCode = exitCode;
    await rm(dir, { recursive: true, force: true });
  });

  it('when a bench misses a target, then its record names it and the bench exits 1', async () => {
    const targets = new Targets('aged-leads', dir);
    expect(targets.check('GET /api/aged-leads page 1: p95 ≤ 15 ms', true, 'p95 9.0 ms')).toBe('within target');
    expect(targets.check('GET /api/aged-leads page 200: p95 ≤ 15 ms', false, 'p95 31.0 ms')).toBe('**over target**');
    targets.finish();

    expect(process.exitCode).toBe(1);
    const record = JSON.parse(await readFile(path.join(dir, 'aged-leads.json'), 'utf8')) as TargetResult[];
    expect(record).toEqual([
      { bench: 'aged-leads', target: 'GET /api/aged-leads page 1: p95 ≤ 15 ms', met: true, measured: 'p95 9.0 ms' },
      { bench: 'aged-leads', target: 'GET /api/aged-leads page 200: p95 ≤ 15 ms', met: false, measured: 'p95 31.0 ms' },
    ]);
  });

  it('when every target is met, then the bench leaves the exit code alone', () => {
    process.exitCode = undefined;
    const targets = new Targets('lighthouse', dir);
    targets.check('score of / ≥ 95', true, 'median 98');
    targets.finish();
    expect(process.exitCode).toBeUndefined();
  });

  it('when make bench sums up, then every missed target and every bench that failed without a record is named', () => {
    const results: TargetResult[] = [
      { bench: 'lead-import', target: 'import of 1,000,000 rows: ≥ 60 % of COPY', met: false, measured: '41 % of COPY' },
      { bench: 'lead-import', target: 'importer RSS ≤ 200 MB', met: true, measured: 'peak 170 MB' },
    ];
    const summary = summarise(results, ['lead-import', 'event-pipeline']);
    expect(summary.ok).toBe(false);
    expect(summary.lines).toEqual([
      'make bench: 1 of 2 targets met',
      '  missed — lead-import: import of 1,000,000 rows: ≥ 60 % of COPY (41 % of COPY)',
      '  failed — event-pipeline: exited without meeting its checks (see its output above)',
    ]);
    expect(summarise(results.filter((r) => r.met), []).ok).toBe(true);
  });

  it('when a section is written, then only what stands between its markers changes', async () => {
    const file = path.join(dir, 'benchmarks.md');
    await writeFile(file, '# B\n\n<!-- bench:a:start -->\nold a\n<!-- bench:a:end -->\n\n<!-- bench:b:start -->\nold b\n<!-- bench:b:end -->\n');
    writeSection('a', ['new a', '', 'line 2'], file);
    expect(await readFile(file, 'utf8')).toBe('# B\n\n<!-- bench:a:start -->\nnew a\n\nline 2\n<!-- bench:a:end -->\n\n<!-- bench:b:start -->\nold b\n<!-- bench:b:end -->\n');
    expect(() => writeSection('c', ['x'], file)).toThrow('has no <!-- bench:c:start --> … <!-- bench:c:end --> section');
  });

  it('when percentiles are taken, then they are nearest-rank', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(stats(hundred)).toEqual({ p50: 50, p95: 95, p99: 99, max: 100, n: 100 });
    expect(percentileOfSorted([], 0.95)).toBe(0);
    expect(percentileOfSorted([7], 0.5)).toBe(7);
  });

  it('when make bench is asked for a bench that does not exist, then it says which and runs nothing', () => {
    const run = spawnSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['infra/bench/run-all.ts'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, BENCH_ONLY: 'aged-leads,market-at-ten-billion' },
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('make bench: no bench named market-at-ten-billion (benches: aged-leads, customer-search, lead-import, event-pipeline, callback-ingestion, transfer-routing, lighthouse)');
  });
});
