import { describe, expect, it } from 'vitest';
import {
  addSample,
  formatBytes,
  formatDuration,
  formatRowRate,
  importProgress,
  percentDone,
  ratePerSecond,
  secondsLeft,
  secondsTaken,
  type ProgressSample,
} from '../src/features/admin/lead-imports/lead-import-progress';

/** The Upload Aged Leads bars' arithmetic (issue 13): rate, time left, percent and their words. */

const readings = (...pairs: Array<[number, number]>): ProgressSample[] => pairs.map(([at, done]) => ({ at, done }));

describe('the rate', () => {
  it('when readings span a few seconds, then the rate is the units moved per second between the first and the last', () => {
    expect(ratePerSecond(readings([0, 0], [1_000, 800], [4_000, 10_000]))).toBe(2_500);
  });

  it('when there is one reading, or readings under a second apart, then there is no rate yet', () => {
    expect(ratePerSecond([])).toBeNull();
    expect(ratePerSecond(readings([5_000, 100]))).toBeNull();
    expect(ratePerSecond(readings([5_000, 100], [5_200, 900]))).toBeNull();
  });

  it('when readings get older than the window, then they are dropped but one stays as the baseline', () => {
    let samples: ProgressSample[] = [];
    for (const [at, done] of [[0, 0], [5_000, 5_000], [12_000, 6_000], [16_000, 10_000]] as const) samples = addSample(samples, { at, done }, 10_000);
    // The cut-off is 6,000 ms: 5,000 is the last reading before it, 0 is gone.
    expect(samples.map((s) => s.at)).toEqual([5_000, 12_000, 16_000]);
    expect(ratePerSecond(samples)).toBeCloseTo(5_000 / 11, 6);
  });

  it('when the count goes back (a resumed import re-reads from its last batch), then the readings start again', () => {
    const samples = addSample(readings([0, 0], [2_000, 4_000]), { at: 3_000, done: 3_000 });
    expect(samples).toEqual(readings([3_000, 3_000]));
  });
});

describe('time left and percent', () => {
  it('when the rate is known, then time left is the rows left at that rate', () => {
    expect(secondsLeft(2_500, 10_000, 2_500)).toBe(3);
    expect(secondsLeft(10_000, 10_000, 2_500)).toBe(0);
  });

  it('when nothing moves or there is no rate, then there is no time left to give', () => {
    expect(secondsLeft(100, 1_000, null)).toBeNull();
    expect(secondsLeft(100, 1_000, 0)).toBeNull();
    expect(secondsLeft(0, 0, 100)).toBeNull();
  });

  it('when almost done, then the percent says 99, never 100 before the end', () => {
    expect(percentDone(9_996, 10_000)).toBe(99);
    expect(percentDone(10_000, 10_000)).toBe(100);
    expect(percentDone(0, 0)).toBe(0);
    expect(percentDone(1, 3)).toBe(33);
  });

  it('when an import counted its rows, then the bar goes by rows; without a count, by the bytes of its file', () => {
    expect(importProgress({ rowsRead: 40, rowsTotal: 100, bytesRead: 10, fileBytes: 900, status: 'running' })).toEqual({ done: 40, total: 100, unit: 'rows' });
    expect(importProgress({ rowsRead: 0, rowsTotal: 0, bytesRead: 300, fileBytes: 900, status: 'running' })).toEqual({ done: 300, total: 900, unit: 'bytes' });
    expect(importProgress({ rowsRead: 0, rowsTotal: 0, bytesRead: 0, fileBytes: 0, status: 'failed' })).toEqual({ done: 1, total: 1, unit: 'bytes' });
  });

  it('when an import ran from start to finish, then the time it took comes from its own two times', () => {
    expect(secondsTaken('2026-11-25T09:00:00.000Z', '2026-11-25T09:02:05.000Z')).toBe(125);
    expect(secondsTaken('2026-11-25T09:00:00.000Z', null)).toBeNull();
  });
});

describe('the words', () => {
  it('when durations are shown, then they read in seconds, minutes or hours, rounded up', () => {
    expect(formatDuration(0.2)).toBe('1 s');
    expect(formatDuration(44.1)).toBe('45 s');
    expect(formatDuration(200)).toBe('3 min 20 s');
    expect(formatDuration(180)).toBe('3 min');
    expect(formatDuration(3_900)).toBe('1 h 5 min');
    expect(formatDuration(7_200)).toBe('2 h');
  });

  it('when rates are shown, then they have thousands separators, and one decimal under ten', () => {
    expect(formatRowRate(12_345.6)).toBe('12,346 rows/s');
    expect(formatRowRate(2.345)).toBe('2.3 rows/s');
    expect(formatRowRate(1)).toBe('1 row/s');
  });

  it('when sizes are shown, then they are in bytes, KB, MB or GB', () => {
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(12_800)).toBe('12.5 KB');
    expect(formatBytes(500 * 1024 * 1024)).toBe('500 MB');
    expect(formatBytes(1.25 * 1024 ** 3)).toBe('1.3 GB');
  });
});
