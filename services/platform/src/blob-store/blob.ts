import { createHash, type Hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AppError } from '../errors';

/**
 * Files of the platform (ARCHITECTURE §5): aged-lead import CSVs, later partner documents.
 * One interface, a local directory by default and S3-compatible storage (MinIO under
 * docker-compose) when configured. Bodies are streamed, never held whole in memory.
 */

export interface StoredBlob {
  key: string;
  bytes: number;
  /** Hex SHA-256 of the stored bytes, computed while they streamed. */
  sha256: string;
}

export interface PutOptions {
  /** More bytes than this: the put stops reading at once and rejects with BlobTooLargeError. */
  maxBytes?: number;
  contentType?: string;
}

export interface BlobStore {
  /**
   * Streams body to key. More than maxBytes: stops reading at once (bytes read <= maxBytes +
   * one chunk), removes what was written, rejects with BlobTooLargeError. Any stream error:
   * nothing left at key. The put owns body: it is destroyed when the put fails.
   */
  put(key: string, body: NodeJS.ReadableStream | Readable, options?: PutOptions): Promise<StoredBlob>;
  /** The blob as a stream, optionally from a byte offset; rejects BlobNotFoundError. */
  get(key: string, options?: { start?: number }): Promise<Readable>;
  stat(key: string): Promise<{ bytes: number } | null>;
  /** Idempotent. */
  delete(key: string): Promise<void>;
  /** What the store reaches (for /readyz): resolves, or rejects with the reason. */
  check(): Promise<void>;
}

const BYTES_PER_MB = 1024 * 1024;

/** A file over the size limit: 413, with the limit in MB for the user. */
export class BlobTooLargeError extends AppError {
  constructor(readonly maxBytes: number) {
    super('BlobTooLarge', `File is larger than ${megabytes(maxBytes)} MB`, 413);
  }
}

export class BlobNotFoundError extends AppError {
  constructor(readonly key: string) {
    super('BlobNotFound', 'File not found', 404);
  }
}

/** 500 MB, 1.5 MB, 0.002 MB: whole numbers stay whole, small limits still show something. */
function megabytes(bytes: number): string {
  const mb = bytes / BYTES_PER_MB;
  return String(Number.isInteger(mb) ? mb : Number(mb.toFixed(mb >= 1 ? 1 : 3)));
}

/**
 * A key the code chose that no store can hold safely. A programming error (keys are made by
 * the services, e.g. `lead-imports/<uuid>.csv`), so not an AppError: it is a 500.
 */
export class InvalidBlobKeyError extends Error {
  override name = 'InvalidBlobKeyError';
}

const MAX_KEY_BYTES = 1024; // S3's limit, kept for the local store too so a key works in both

/**
 * Keys are relative paths of non-empty segments joined by '/'. Refused: absolute paths,
 * backslashes, empty segments, '..' anywhere, segments starting with '.' (the local store keeps
 * its unfinished files under '.partial') and control characters. A refused key throws.
 */
export function assertBlobKey(key: string): void {
  const problem =
    key === '' ? 'is empty'
    : Buffer.byteLength(key) > MAX_KEY_BYTES ? `is longer than ${MAX_KEY_BYTES} bytes`
    : key.startsWith('/') ? 'is an absolute path'
    : key.includes('\\') ? 'contains a backslash'
    : key.includes('..') ? "contains '..'"
    : /[\u0000-\u001f\u007f]/.test(key) ? 'contains a control character'
    : key.split('/').some((segment) => segment === '') ? 'has an empty segment'
    : key.split('/').some((segment) => segment.startsWith('.')) ? "has a segment starting with '.'"
    : undefined;
  if (problem) throw new InvalidBlobKeyError(`Blob key ${JSON.stringify(key)} ${problem}`);
}

/**
 * The body's chunks as Buffers, counted and hashed as they are taken from the source, one at a
 * time: the chunk that crosses maxBytes throws BlobTooLargeError before anything else is read,
 * and leaving the loop destroys the source. Stores write what this yields; `result()` is the
 * size and hash once it has ended.
 */
export function meteredChunks(body: NodeJS.ReadableStream | Readable, maxBytes = Number.POSITIVE_INFINITY) {
  const hash: Hash = createHash('sha256');
  let bytes = 0;
  let ended = false;
  // The loop below reads an error of the body; this keeps one that comes before the store
  // starts reading (it may first create a directory or a bucket) from crashing the process.
  body.on('error', ignoreError);
  async function* chunks(): AsyncGenerator<Buffer> {
    for await (const chunk of body as AsyncIterable<Buffer | string>) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      bytes += buffer.length;
      if (bytes > maxBytes) throw new BlobTooLargeError(maxBytes);
      hash.update(buffer);
      yield buffer;
    }
    ended = true;
  }
  return {
    chunks: chunks(),
    result(): { bytes: number; sha256: string } {
      if (!ended) throw new Error('the body has not been read to its end');
      return { bytes, sha256: hash.digest('hex') };
    },
  };
}

function ignoreError(): void {}

/** Ends a body the put will not read (a refused key): the source is not left hanging. */
export function discardBody(body: NodeJS.ReadableStream | Readable): void {
  const destroyable = body as Partial<Pick<Readable, 'destroy'>>;
  if (typeof destroyable.destroy === 'function') destroyable.destroy();
}
