import type { LeadImportStatus, LeadImportView } from '@warmline/contracts/lead-imports';

/**
 * The arithmetic of the Upload Aged Leads progress bars (issue 13): how far along, how fast, how
 * long is left, and how those read. Pure, so the tab's tests and the maths' tests stay apart.
 * The same functions serve the file's upload (bytes) and the import that follows (rows).
 */

/** One reading of a count at a moment (Date.now() milliseconds). */
export interface ProgressSample {
  at: number;
  done: number;
}

/**
 * The readings a rate is taken over. A file of hundreds of MB runs for minutes, and the speed
 * changes (a slow batch, a busy database): the rate follows the last few seconds, not the
 * average since the start.
 */
const RATE_WINDOW_MS = 10_000;
/** Below this span the rate is noise (two polls a few milliseconds apart), so none is given. */
const MIN_RATE_SPAN_MS = 900;

/** Adds a reading and drops those older than the window, keeping at least one older than it as the baseline. */
export function addSample(samples: readonly ProgressSample[], sample: ProgressSample, windowMs = RATE_WINDOW_MS): ProgressSample[] {
  const last = samples[samples.length - 1];
  // A count that went back (a resumed import re-read from its last batch) starts a new series.
  const kept = last && sample.done < last.done ? [] : samples.filter((s) => s.at <= sample.at);
  const cutoff = sample.at - windowMs;
  let start = 0;
  while (start < kept.length - 1 && kept[start + 1]!.at <= cutoff) start += 1;
  return [...kept.slice(start), sample];
}

/** Units per second over the readings, or null while they span too short a time to say. */
export function ratePerSecond(samples: readonly ProgressSample[]): number | null {
  const first = samples[0];
  const last = samples[samples.length - 1];
  if (!first || !last) return null;
  const span = last.at - first.at;
  if (span < MIN_RATE_SPAN_MS) return null;
  return Math.max(0, ((last.done - first.done) * 1000) / span);
}

/** Seconds until `total` at `rate`; null when there is no rate (or no movement) to go by. */
export function secondsLeft(done: number, total: number, rate: number | null): number | null {
  if (total <= 0) return null;
  const left = Math.max(0, total - done);
  if (left === 0) return 0;
  if (rate === null || rate <= 0) return null;
  return left / rate;
}

/**
 * Whole percent done. 100 only when everything is done: 99.6 % reads 99 %, so a bar never
 * says finished while rows are still coming.
 */
export function percentDone(done: number, total: number): number {
  if (total <= 0) return 0;
  if (done >= total) return 100;
  return Math.max(0, Math.floor((done / total) * 100));
}

/** Statuses in which the importer may still move an import (the rest are final). */
export function isUnfinished(status: LeadImportStatus): boolean {
  return status === 'queued' || status === 'running';
}

/**
 * How far an import is, as the bar shows it: rows read of the rows counted at upload. An import
 * whose rows were not counted (an old one) goes by the bytes of its file instead.
 */
export function importProgress(view: Pick<LeadImportView, 'rowsRead' | 'rowsTotal' | 'bytesRead' | 'fileBytes' | 'status'>): { done: number; total: number; unit: 'rows' | 'bytes' } {
  if (view.rowsTotal > 0) return { done: Math.min(view.rowsRead, view.rowsTotal), total: view.rowsTotal, unit: 'rows' };
  // A finished import with nothing counted is as far as it will go.
  if (view.fileBytes <= 0) return { done: isUnfinished(view.status) ? 0 : 1, total: 1, unit: 'bytes' };
  return { done: Math.min(view.bytesRead, view.fileBytes), total: view.fileBytes, unit: 'bytes' };
}

/** Seconds an import ran, from the importer's own clock (no skew with the browser's). */
export function secondsTaken(startedAt: string | null, finishedAt: string | null): number | null {
  if (!startedAt || !finishedAt) return null;
  const ms = Date.parse(finishedAt) - Date.parse(startedAt);
  return Number.isFinite(ms) && ms >= 0 ? ms / 1000 : null;
}

const whole = (n: number) => Math.round(n).toLocaleString('en-US');

/** '45 s', '3 min 20 s', '1 h 5 min'; rounded up, so a wait still running never reads '0 s'. */
export function formatDuration(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) {
    const min = Math.floor(s / 60);
    const sec = s % 60;
    return sec ? `${min} min ${sec} s` : `${min} min`;
  }
  const h = Math.floor(s / 3600);
  const min = Math.floor((s % 3600) / 60);
  return min ? `${h} h ${min} min` : `${h} h`;
}

/** '2,345 rows/s'; under 10 a second with one decimal, so a slow start does not read '0 rows/s'. */
export function formatRowRate(rate: number): string {
  const shown = rate < 10 ? (Math.round(rate * 10) / 10).toLocaleString('en-US') : whole(rate);
  return `${shown} ${shown === '1' ? 'row' : 'rows'}/s`;
}

/** File sizes in the units people read them in: '512 bytes', '12.5 KB', '312.4 MB', '1.2 GB' (1 KB = 1024 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${whole(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB'] as const;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toLocaleString('en-US', { maximumFractionDigits: 1 })} ${units[unit]}`;
}

/** '1,234' — counts as the tab prints them. */
export function formatCount(n: number): string {
  return whole(n);
}

/** '1 row', '2,345 rows'. */
export const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;
