import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { usPhoneDigits } from '@warmline/contracts';
import { BlobNotFoundError, type BlobStore } from '@warmline/platform/blob-store/index';
import { inTransaction, releaseSessionLock, trySessionLock, type Pool, type PoolClient } from '@warmline/platform/db/index';
import { unavailableDependency } from '@warmline/platform/faults';
import type { Logger } from '@warmline/platform/log';
import { SerialRunner } from '@warmline/platform/work/serial-runner';
import {
  analyzeRegistryNumbers,
  copyIntoRegistryStaging,
  dropRegistryStaging,
  failRegistryUpload,
  findRegistryUpload,
  markRegistryUploadRunning,
  recordRegistryProgress,
  swapInRegistry,
  unfinishedRegistryUploadIds,
} from '../db/dnc-registry';

/**
 * The importer's load of one national DNC registry upload (issue 24 item 2, docs/adr/0033):
 * the stored file is streamed line by line (memory holds one chunk, however many millions of
 * lines), each valid number COPYed into a staging table on this connection, then one
 * transaction replaces the numbers of every area code the file holds and dates those area
 * codes — a reader sees the old registry or the new one, never half of either. A worker that
 * dies mid-file starts the file again (the staging table died with its connection).
 */

export interface RegistryRunDeps {
  pool: Pool;
  blobs: BlobStore;
  log: Logger;
  clock: () => Date;
  /** True once the worker is shutting down: a load stops where it is, to start again in the next worker. */
  stopping?: () => boolean;
}

/** The worker is shutting down: the upload stays running, loaded again from the start later. */
class RegistryLoadPaused extends Error {}

/** Progress is written at most this often (another connection; the load's is busy copying). */
const PROGRESS_EVERY_LINES = 100_000;

async function runRegistryUpload(deps: RegistryRunDeps, uploadId: string): Promise<'ended' | 'taken-elsewhere' | 'already-ended' | 'paused'> {
  const client = await deps.pool.connect();
  let locked = false;
  try {
    locked = await trySessionLock(client, `dnc-registry:${uploadId}`);
    if (!locked) return 'taken-elsewhere';
    const upload = await findRegistryUpload(client, uploadId);
    if (!upload || upload.finished_at) return 'already-ended';
    await markRegistryUploadRunning(client, uploadId, deps.clock());
    try {
      await loadRegistry(deps, client, uploadId, upload.file_key, upload.registry_date);
      // The planner's picture of the registry after millions of rows changed (the market's anti-join leans on it).
      await analyzeRegistryNumbers(client).catch((err: unknown) => deps.log.warn({ err, uploadId }, 'could not refresh the registry statistics'));
    } catch (err) {
      if (err instanceof RegistryLoadPaused) return 'paused';
      if (unavailableDependency(err)) throw err;
      const message = err instanceof BlobNotFoundError ? 'The uploaded file is no longer stored; upload it again' : 'The registry load stopped on an unexpected error; upload the file again';
      deps.log.error({ err, uploadId }, 'DNC registry load failed');
      await failRegistryUpload(client, uploadId, message, deps.clock());
    }
    return 'ended';
  } finally {
    await dropRegistryStaging(client).catch(() => undefined);
    if (locked) await releaseSessionLock(client, `dnc-registry:${uploadId}`).catch(() => undefined);
    client.release();
  }
}

async function loadRegistry(deps: RegistryRunDeps, client: PoolClient, uploadId: string, fileKey: string, registryDate: string): Promise<void> {
  const source = await deps.blobs.get(fileKey);
  const lines = new RegistryLines(async (counts) => recordRegistryProgress(deps.pool, uploadId, counts), deps.stopping);
  await pipeline(source, lines, await copyIntoRegistryStaging(client));
  const counts = lines.counts();
  const swapped = await inTransaction(client, () => swapInRegistry(client, { uploadId, registryDate, ...counts, at: deps.clock() }));
  deps.log.info({ uploadId, ...counts, ...swapped }, 'DNC registry loaded');
}

/**
 * A registry file's bytes in, COPY text out: one valid number a line. Blank lines are skipped;
 * a line with anything else than a ten-digit number (a leading 1 and punctuation allowed) is
 * counted as invalid. CRLF and a last line without a newline are fine.
 */
class RegistryLines extends Transform {
  private rest = '';
  private linesRead = 0;
  private invalidLines = 0;
  private bytesRead = 0;
  private nextProgress = PROGRESS_EVERY_LINES;

  constructor(
    private readonly progress: (counts: { linesRead: number; invalidLines: number; bytesRead: number }) => Promise<void>,
    private readonly stopping: () => boolean = () => false,
  ) {
    super();
  }

  counts(): { linesRead: number; invalidLines: number; bytesRead: number } {
    return { linesRead: this.linesRead, invalidLines: this.invalidLines, bytesRead: this.bytesRead };
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.stopping()) return done(new RegistryLoadPaused('worker stopping'));
    this.bytesRead += chunk.length;
    const text = this.rest + chunk.toString('latin1');
    const last = text.lastIndexOf('\n');
    this.rest = last < 0 ? text : text.slice(last + 1);
    // A line with no end in sight is no number: keep only enough of it to count it once.
    if (this.rest.length > 1024) this.rest = this.rest.slice(0, 1024);
    const out = last < 0 ? '' : this.lines(text.slice(0, last));
    if (this.linesRead < this.nextProgress) return done(null, out);
    this.nextProgress = this.linesRead + PROGRESS_EVERY_LINES;
    this.progress(this.counts()).then(
      () => done(null, out),
      (err: unknown) => done(err instanceof Error ? err : new Error(String(err))),
    );
  }

  override _flush(done: TransformCallback): void {
    done(null, this.lines(this.rest));
  }

  private lines(text: string): string {
    let out = '';
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      if (line === '') continue;
      this.linesRead += 1;
      const phone = usPhoneDigits(line);
      if (phone) out += `${phone}\n`;
      else this.invalidLines += 1;
    }
    return out;
  }
}

/** Loads unfinished registry uploads one after another, oldest first, whenever woken. */
export function registryRunner(deps: RegistryRunDeps): SerialRunner {
  return new SerialRunner({
    unfinished: () => unfinishedRegistryUploadIds(deps.pool),
    run: (id) => runRegistryUpload(deps, id),
    failed: (err) => {
      if (unavailableDependency(err)) deps.log.warn({ err }, 'registry loads wait for PostgreSQL');
      else deps.log.error({ err }, 'loading registry uploads failed; the next scan tries again');
    },
  });
}
