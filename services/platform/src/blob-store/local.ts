import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readdir, rename, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  BlobNotFoundError,
  assertBlobKey,
  discardBody,
  meteredChunks,
  type BlobStore,
  type PutOptions,
  type StoredBlob,
} from './blob';

/** Unfinished files live here, inside the root so a rename into place stays on one filesystem. */
const PARTIAL_DIR = '.partial';
/** A partial file this old belonged to a put that crashed; any live upload ends sooner. */
const STALE_PARTIAL_MS = 24 * 60 * 60 * 1000;

/**
 * Blobs as files under a directory (created if missing), a key being a relative path in it.
 * A put writes a temporary file, fsyncs it and renames it into place: a reader never sees a
 * half file, and a crash or a failed put leaves nothing at the key.
 */
export class LocalBlobStore implements BlobStore {
  readonly root: string;
  private swept = false;

  constructor(directory: string) {
    this.root = path.resolve(directory);
  }

  async put(key: string, body: NodeJS.ReadableStream | Readable, options: PutOptions = {}): Promise<StoredBlob> {
    const metered = meteredChunks(body, options.maxBytes);
    const partialDir = path.join(this.root, PARTIAL_DIR);
    const partial = path.join(partialDir, `${randomUUID()}.partial`);
    let file: FileHandle | undefined;
    try {
      const target = this.pathOf(key);
      await mkdir(partialDir, { recursive: true });
      await this.sweepStalePartials(partialDir);
      file = await open(partial, 'wx');
      // One chunk written at a time: backpressure is the awaited write, and the source is only
      // read as fast as the disk takes it.
      for await (const chunk of metered.chunks) await file.write(chunk);
      await file.sync();
      await file.close();
      file = undefined;
      await mkdir(path.dirname(target), { recursive: true });
      await rename(partial, target);
      await syncDirectory(path.dirname(target));
      return { key, ...metered.result() };
    } catch (err) {
      // The source is destroyed too when the disk, not the body, failed.
      await metered.chunks.return(undefined);
      discardBody(body);
      await file?.close().catch(() => undefined);
      await unlink(partial).catch(() => undefined);
      throw err;
    }
  }

  async get(key: string, options: { start?: number } = {}): Promise<Readable> {
    const file = this.pathOf(key);
    const start = options.start ?? 0;
    if (!Number.isSafeInteger(start) || start < 0) throw new RangeError(`start must be a whole number of bytes, got ${start}`);
    let handle: FileHandle;
    try {
      // Opened before the stream is made, so a missing file rejects here rather than erroring later.
      handle = await open(file, 'r');
    } catch (err) {
      if (isMissing(err)) throw new BlobNotFoundError(key);
      throw err;
    }
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      throw new BlobNotFoundError(key);
    }
    return handle.createReadStream({ start, autoClose: true });
  }

  async stat(key: string): Promise<{ bytes: number } | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { bytes: info.size } : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.R_OK | constants.W_OK);
  }

  private pathOf(key: string): string {
    assertBlobKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  /** Once per store: removes what crashed puts left behind (best effort, never fails a put). */
  private async sweepStalePartials(partialDir: string): Promise<void> {
    if (this.swept) return;
    this.swept = true;
    try {
      const cutoff = Date.now() - STALE_PARTIAL_MS;
      for (const name of await readdir(partialDir)) {
        const file = path.join(partialDir, name);
        const info = await stat(file).catch(() => null);
        if (info && info.mtimeMs < cutoff) await rm(file, { force: true });
      }
    } catch {
      // A sweep that fails is retried at the next start; the put goes on.
    }
  }
}

/** The rename is durable only once its directory entry is on disk too. */
async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
