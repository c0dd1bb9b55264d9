/**
 * `make bench`: every benchmark in turn, each in its own process (a crash in one does not hide
 * the others' figures), then one summary naming every target missed. Exit 1 when any target was
 * missed or any bench failed. BENCH_ONLY=aged-leads,lead-import runs only those.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, summarise, TARGETS_DIR, type TargetResult } from './kit/report.js';

/** In the order `make bench` has always run them: the cheap and the reused databases first. */
const BENCHES = ['aged-leads', 'customer-search', 'lead-import', 'event-pipeline', 'callback-ingestion', 'transfer-routing', 'lighthouse'];

const only = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
const unknown = only.filter((name) => !BENCHES.includes(name));
if (unknown.length > 0) {
  process.stderr.write(`make bench: no bench named ${unknown.join(', ')} (benches: ${BENCHES.join(', ')})\n`);
  process.exit(2);
}
const chosen = only.length > 0 ? BENCHES.filter((name) => only.includes(name)) : BENCHES;

rmSync(TARGETS_DIR, { recursive: true, force: true });
const failed: string[] = [];
const results: TargetResult[] = [];
for (const bench of chosen) {
  process.stdout.write(`\nmake bench: ${bench} (infra/bench/${bench}.ts)\n`);
  const run = spawnSync('npx', ['tsx', path.join('infra/bench', `${bench}.ts`)], { cwd: REPO_ROOT, stdio: 'inherit' });
  const record = path.join(TARGETS_DIR, `${bench}.json`);
  if (existsSync(record)) results.push(...(JSON.parse(readFileSync(record, 'utf8')) as TargetResult[]));
  if (run.status !== 0 || !existsSync(record)) failed.push(bench);
}

const summary = summarise(results, failed);
process.stdout.write(`\n${summary.lines.join('\n')}\n`);
process.exitCode = summary.ok ? 0 : 1;
