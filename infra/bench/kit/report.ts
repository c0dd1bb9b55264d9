/**
 * What a benchmark leaves behind: its section of docs/benchmarks.md and its targets. A target
 * missed makes the bench exit 1 and is written to var/bench/targets/<bench>.json, which
 * `make bench` (infra/bench/run-all.ts) reads to name every miss at the end.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const BENCHMARKS_MD = path.join(REPO_ROOT, 'docs/benchmarks.md');
export const TARGETS_DIR = path.join(REPO_ROOT, 'var/bench/targets');

export const say = (message: string): void => {
  process.stdout.write(`bench: ${message}\n`);
};

/** Replaces what stands between `<!-- bench:<name>:start -->` and its end marker in `file`. */
export function writeSection(name: string, lines: readonly string[], file = BENCHMARKS_MD): void {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const doc = readFileSync(file, 'utf8');
  const at = doc.indexOf(start);
  const until = doc.indexOf(end);
  if (at < 0 || until < at) throw new Error(`${file} has no ${start} … ${end} section to write into`);
  writeFileSync(file, `${doc.slice(0, at + start.length)}\n${lines.join('\n')}\n${doc.slice(until)}`);
  say(`results written to ${path.relative(REPO_ROOT, file)}`);
}

export interface TargetResult {
  bench: string;
  target: string;
  met: boolean;
  /** The figure beside its baseline, e.g. "p95 12.1 ms, 2.3× /healthz". */
  measured: string;
}

/** The targets of one bench, checked as it goes and reported once at the end. */
export class Targets {
  readonly results: TargetResult[] = [];

  constructor(
    readonly bench: string,
    private readonly dir = TARGETS_DIR,
  ) {}

  /** Records a target; returns the words the docs' tables use for it. */
  check(target: string, met: boolean, measured: string): string {
    this.results.push({ bench: this.bench, target, met, measured });
    say(`${met ? 'target met' : 'TARGET MISSED'}: ${target} — ${measured}`);
    return verdict(met);
  }

  get missed(): TargetResult[] {
    return this.results.filter((r) => !r.met);
  }

  /** Writes the record for `make bench` and sets the exit code: 1 when any target was missed. */
  finish(): void {
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(path.join(this.dir, `${this.bench}.json`), `${JSON.stringify(this.results, null, 2)}\n`);
    if (this.missed.length > 0) process.exitCode = 1;
  }
}

/** The docs' words for a target's state. */
const verdict = (met: boolean): string => (met ? 'within target' : '**over target**');

/** What `make bench` prints at the end: every missed target by bench, or that all were met. */
export function summarise(results: readonly TargetResult[], failedBenches: readonly string[]): { ok: boolean; lines: string[] } {
  const missed = results.filter((r) => !r.met);
  const lines = [`make bench: ${results.length - missed.length} of ${results.length} targets met`];
  for (const r of missed) lines.push(`  missed — ${r.bench}: ${r.target} (${r.measured})`);
  for (const bench of failedBenches) {
    if (!missed.some((r) => r.bench === bench)) lines.push(`  failed — ${bench}: exited without meeting its checks (see its output above)`);
  }
  return { ok: missed.length === 0 && failedBenches.length === 0, lines };
}
