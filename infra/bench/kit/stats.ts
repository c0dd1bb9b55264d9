/** Percentiles and timing for the benchmarks: one definition, so every section means the same p95. */

export interface Stats {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  n: number;
}

/** The nearest-rank percentile `q` (0–1) of samples already sorted ascending; 0 for none. */
export function percentileOfSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export function stats(samples: readonly number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50: percentileOfSorted(sorted, 0.5),
    p95: percentileOfSorted(sorted, 0.95),
    p99: percentileOfSorted(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? 0,
    n: sorted.length,
  };
}

/** Milliseconds with one decimal, as every table prints them. */
export const ms = (n: number): string => n.toFixed(1);

/** How long `work` took, in milliseconds, with its result. */
export async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const started = process.hrtime.bigint();
  const result = await work();
  return [Number(process.hrtime.bigint() - started) / 1e6, result];
}

/** `count` sequential runs of `work` after `warmup` unmeasured ones. */
export async function sample(work: () => Promise<unknown>, count: number, warmup = 20): Promise<Stats> {
  for (let i = 0; i < warmup; i += 1) await work();
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) times.push((await timed(work))[0]);
  return stats(times);
}
