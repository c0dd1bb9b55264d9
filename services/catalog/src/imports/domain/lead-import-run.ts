import { parse as parseCsv } from 'csv-parse';
import { Transform, type TransformCallback } from 'node:stream';
import {
  LEAD_SUPPRESSED_MESSAGE,
  leadRowRules,
  rowProblems,
} from '@warmline/contracts';
import { cellsOfRow, matchLeadImportHeader } from './import-header';
import { BlobNotFoundError, type BlobStore } from '@warmline/platform/blob-store/index';
import { enqueue } from '@warmline/platform/bus/index';
import { inTransaction, releaseSessionLock, trySessionLock, type Pool, type PoolClient } from '@warmline/platform/db/index';
import { unavailableDependency } from '@warmline/platform/faults';
import type { Logger } from '@warmline/platform/log';
import { loadLeadBatch, type BatchLead } from '../db/lead-batch-load';
import {
  addBatchProgress,
  analyzeAgedLeads,
  findLeadImport,
  finishLeadImport,
  insertRowErrors,
  markLeadImportRunning,
  type LeadImportRow,
  type RowError,
} from '../db/lead-imports';
import { endOfImportMessages, progressMessage } from './lead-import-events';

/**
 * The importer's work (issue 13): one import, from its stored file to the inventory. The file
 * is streamed through csv-parse, each row checked with the contracts' rules, and the good rows
 * loaded batch by batch (COPY). Each batch commits its leads, its refused rows and the import's
 * counts together, so a worker that dies mid-file resumes after the last committed batch and
 * nothing is loaded twice; memory holds one batch, however long the file.
 */

export interface ImportRunDeps {
  pool: Pool;
  blobs: BlobStore;
  log: Logger;
  clock: () => Date;
  timeZone: string;
  batchRows: number;
  /** True once the worker is shutting down: the run stops after the batch in hand, to resume later. */
  stopping?: () => boolean;
}

/** Why a run stopped without ending its import: another worker has it. */
export type RunResult = 'ended' | 'taken-elsewhere' | 'already-ended' | 'paused';

/**
 * Runs the import to its end. A lost dependency (PostgreSQL, the store) is thrown: the import
 * stays running and the worker resumes it later. Anything else about the file ends it as failed.
 */
export async function runLeadImport(deps: ImportRunDeps, importId: string, correlationId: string): Promise<RunResult> {
  // A session lock held on this connection for the whole run: one worker per import, released
  // by PostgreSQL if this process dies.
  const client = await deps.pool.connect();
  let locked = false;
  try {
    locked = await trySessionLock(client, `lead-import:${importId}`);
    if (!locked) return 'taken-elsewhere';
    const job = await findLeadImport(client, importId);
    if (!job || job.finished_at) return 'already-ended';
    if (job.cancel_requested_at) {
      await end(client, job.id, 'cancelled', correlationId, deps.clock());
      return 'ended';
    }
    await markLeadImportRunning(client, importId, deps.clock());
    try {
      const outcome = await loadFile(deps, client, job, correlationId);
      await end(client, importId, outcome, correlationId, deps.clock());
      await refreshMarketStatistics(deps, client, importId);
    } catch (err) {
      if (err instanceof ImportPaused) return 'paused';
      if (unavailableDependency(err) || isStoreUnavailable(err)) throw err;
      const message =
        err instanceof ImportFileError
          ? err.message
          : err instanceof BlobNotFoundError
            ? 'The uploaded file is no longer stored; upload it again'
            : 'The import stopped on an unexpected error; try again or contact support';
      deps.log.error({ err, importId }, 'lead import failed');
      await end(client, importId, 'failed', correlationId, deps.clock(), message);
    }
    return 'ended';
  } finally {
    if (locked) await releaseSessionLock(client, `lead-import:${importId}`).catch(() => undefined);
    client.release();
  }
}

/**
 * After a large load the planner's picture of aged_leads is out of date (autovacuum may be off
 * or late), and the market's plans lean on it (docs/adr/0008): refresh it once the import is in.
 */
async function refreshMarketStatistics(deps: ImportRunDeps, client: PoolClient, importId: string): Promise<void> {
  const job = await findLeadImport(client, importId);
  if (!job || job.rows_imported < ANALYZE_AFTER_ROWS) return;
  await analyzeAgedLeads(client).catch((err: unknown) => deps.log.warn({ err, importId }, 'could not refresh the market statistics after an import'));
}

const ANALYZE_AFTER_ROWS = 5_000;

/** A problem of the file itself (not of one row): the import ends as failed with this message. */
class ImportFileError extends Error {}

/** The worker is shutting down: the import stays running, resumed by the next worker. */
class ImportPaused extends Error {}

async function end(client: PoolClient, importId: string, status: 'done' | 'failed' | 'cancelled', correlationId: string, at: Date, error: string | null = null): Promise<void> {
  await inTransaction(client, async () => {
    const ended = await finishLeadImport(client, importId, status, at, error);
    if (ended) for (const message of endOfImportMessages(ended, correlationId)) await enqueue(client, message);
  });
}

interface Batch {
  leads: BatchLead[];
  errors: RowError[];
  /** Rows refused by the rules (a row with three problems counts once). */
  rejected: number;
}

async function loadFile(deps: ImportRunDeps, client: PoolClient, job: LeadImportRow, correlationId: string): Promise<'done' | 'cancelled'> {
  const rules = leadRowRules({ now: deps.clock(), timeZone: deps.timeZone, defaultSource: `import:${job.file_name}` });
  const source = await deps.blobs.get(job.file_key);
  const bytes = new ByteCounter();
  const parser = parseCsv({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    // A runaway quote would otherwise swallow the rest of the file into one field.
    max_record_size: 64 * 1024,
  });
  source.on('error', (err) => parser.destroy(err));
  source.pipe(bytes).pipe(parser);

  let columnIndex: ReturnType<typeof headerOf> | null = null;
  let record = 0; // data records read, the header not counted
  const skip = job.rows_read; // committed by an earlier run of this import
  let batch: Batch = { leads: [], errors: [], rejected: 0 };
  const inFlight = new BatchInFlight();
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      if (!columnIndex) {
        columnIndex = headerOf(cells);
        continue;
      }
      record += 1;
      if (record <= skip) continue;
      const rowNumber = record + 1;
      const parsed = rules.safeParse(cellsOfRow(cells, columnIndex));
      if (parsed.success) batch.leads.push({ rowNumber, lead: parsed.data });
      else {
        batch.rejected += 1;
        for (const p of rowProblems(parsed.error)) batch.errors.push({ rowNumber, column: p.column, message: p.message });
      }
      if (batch.leads.length + batch.rejected >= deps.batchRows) {
        // The batch before this one has had the parsing of this one to commit: wait for it
        // (one connection, one batch at a time), then let this one load while the next is read.
        if ((await inFlight.settled()) === 'cancelled') return 'cancelled';
        if (deps.stopping?.()) throw new ImportPaused('worker stopping');
        inFlight.start(commitBatch(deps, client, job, batch, record, bytes.count, correlationId));
        batch = { leads: [], errors: [], rejected: 0 };
      }
    }
    if ((await inFlight.settled()) === 'cancelled') return 'cancelled';
  } catch (err) {
    // A batch still loading must end before the connection is used again (or given back).
    await inFlight.settled().catch(() => undefined);
    if (err instanceof ImportPaused) throw err;
    if (isCsvError(err)) throw new ImportFileError(`Row ${record + 2}: ${err.message}`);
    throw err;
  } finally {
    source.destroy();
  }
  if (!columnIndex) throw new ImportFileError('The file has no header row');
  const cancelled = await commitBatch(deps, client, job, batch, Math.max(record, skip), job.file_bytes ? Number(job.file_bytes) : bytes.count, correlationId);
  return cancelled ? 'cancelled' : 'done';
}

function headerOf(cells: string[]) {
  const header = matchLeadImportHeader(cells);
  if (!header.ok) throw new ImportFileError(header.message);
  return header.columnIndex;
}

/**
 * Commits one batch: its leads, its refused rows (suppressed phones among them) and the
 * import's counts, with an import.progress event. Returns whether a cancel was asked for.
 */
async function commitBatch(deps: ImportRunDeps, client: PoolClient, job: LeadImportRow, batch: Batch, rowsRead: number, bytesRead: number, correlationId: string): Promise<boolean> {
  return inTransaction(client, async () => {
    const outcome = await loadLeadBatch(client, batch.leads, { importId: job.id, timeZone: deps.timeZone });
    const suppressed = outcome.suppressedRows.map((rowNumber) => ({ rowNumber, column: 'Phone', message: LEAD_SUPPRESSED_MESSAGE }));
    await insertRowErrors(client, job.id, [...batch.errors, ...suppressed]);
    const after = await addBatchProgress(client, job.id, {
      rowsRead,
      bytesRead,
      imported: outcome.insertedRows.length,
      rejected: batch.rejected + suppressed.length,
      duplicate: outcome.duplicateRows.length,
    });
    await enqueue(client, progressMessage(after, correlationId, deps.clock()));
    return after.cancel_requested_at !== null;
  });
}

/** The one batch committing while the next is parsed; its outcome (or error) when asked. */
class BatchInFlight {
  private pending: Promise<{ ok: true; cancelled: boolean } | { ok: false; error: unknown }> | null = null;

  start(commit: Promise<boolean>): void {
    this.pending = commit.then(
      (cancelled) => ({ ok: true as const, cancelled }),
      (error: unknown) => ({ ok: false as const, error }),
    );
  }

  /** Waits for the batch in flight: 'cancelled' when a cancel was asked for; throws its error. */
  async settled(): Promise<'cancelled' | 'go-on'> {
    if (!this.pending) return 'go-on';
    const outcome = await this.pending;
    this.pending = null;
    if (!outcome.ok) throw outcome.error;
    return outcome.cancelled ? 'cancelled' : 'go-on';
  }
}

/** Counts the bytes of the file read so far (for the progress bar's time left). */
class ByteCounter extends Transform {
  count = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.count += chunk.length;
    done(null, chunk);
  }
}

function isCsvError(err: unknown): err is Error & { code: string } {
  return err instanceof Error && 'code' in err && typeof err.code === 'string' && err.code.startsWith('CSV_');
}

/** The store could not be reached (not: the file is gone). */
function isStoreUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'ETIMEDOUT' || err.name === 'TimeoutError';
}
