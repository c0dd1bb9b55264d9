import { Transform, type Readable, type TransformCallback } from 'node:stream';
import busboy from 'busboy';
import type { Request } from 'express';
import type { BlobStore, StoredBlob } from '../blob-store/index';
import { AppError, badRequest } from '../errors';

/** A file received from an HTTP request, now in the BlobStore at `key`. */
export interface ReceivedUpload {
  key: string;
  /** The sender's name for the file (multipart filename, ?fileName=, Content-Disposition), or null. */
  fileName: string | null;
  contentType: string;
  bytes: number;
  sha256: string;
}

export interface ReceiveUploadOptions {
  store: BlobStore;
  key: string;
  /** More than this is a 413 (BlobTooLargeError); the rest of the request is not kept. */
  maxBytes: number;
  /**
   * Makes a fresh checker for this upload: the bytes pass through it (unchanged) on their way
   * to the store, so the content is checked while it streams. An error it throws (an AppError
   * for the user to read) rejects the upload and nothing stays stored.
   */
  inspect?: () => Transform;
}

export const EMPTY_FILE_MESSAGE = 'The file is empty';
export const NO_FILE_MESSAGE = 'No file was sent';
export const ONE_FILE_MESSAGE = 'Send one file';

/**
 * What a refused upload still reads (and drops) after its answer, so the client can read the
 * answer; past that the connection is cut. The gateway drains the same (edge/forwarding.ts).
 */
const DRAIN_LIMIT_BYTES = 8 * 1024 * 1024;

/**
 * Streams the file of an HTTP request into the store at `key`, never holding it whole in
 * memory. The body is either the file itself (e.g. `Content-Type: text/csv`, its name from
 * `?fileName=` or a Content-Disposition header) or `multipart/form-data` with exactly one file
 * part (the SPA sends it as `file`; text fields are ignored). Refusals are AppErrors the HTTP
 * kit answers with: 400 for no file, two files, an empty file or a malformed form, 413 over
 * maxBytes, or whatever the inspector threw. A refused upload leaves nothing at the key.
 */
export async function receiveUpload(req: Request, options: ReceiveUploadOptions): Promise<ReceivedUpload> {
  // A body parser got there first (e.g. JSON): there is no stream left to read.
  if (req.readableEnded) throw badRequest('Send the file as the request body or as multipart/form-data');
  const contentType = req.headers['content-type'] ?? '';
  return /^multipart\/form-data\b/i.test(contentType) ? receiveMultipart(req, options) : receiveRawBody(req, options);
}

function receiveRawBody(req: Request, options: ReceiveUploadOptions): Promise<ReceivedUpload> {
  const contentType = req.headers['content-type']?.trim() || 'application/octet-stream';
  const fileName = fileNameFromQuery(req) ?? fileNameFromDisposition(req.headers['content-disposition']);
  const upload = new UploadInProgress(req, options);
  upload.storeFile(req, { fileName, contentType });
  whenInterrupted(req, (err) => upload.fail(err));
  return upload.result;
}

function receiveMultipart(req: Request, options: ReceiveUploadOptions): Promise<ReceivedUpload> {
  let form: busboy.Busboy;
  try {
    form = busboy({
      headers: req.headers,
      // Text fields are ignored: a few small ones are read and dropped, the rest skipped.
      limits: { fields: 20, fieldSize: 64 * 1024, parts: 50, headerPairs: 100 },
    });
  } catch {
    // No boundary, or a Content-Type busboy cannot read.
    return Promise.reject(badRequest(MALFORMED_FORM_MESSAGE));
  }
  const upload = new UploadInProgress(req, options, form);
  form.on('file', (_field, file, info) => {
    if (upload.hasFile) {
      // Destroyed with the form in a moment; its error is expected and not the answer.
      file.on('error', () => undefined);
      file.resume();
      upload.fail(badRequest(ONE_FILE_MESSAGE));
      return;
    }
    upload.storeFile(file, { fileName: info.filename || null, contentType: info.mimeType });
  });
  form.on('finish', () => {
    if (!upload.hasFile) upload.fail(badRequest(NO_FILE_MESSAGE));
  });
  form.on('error', () => upload.fail(badRequest(MALFORMED_FORM_MESSAGE)));
  whenInterrupted(req, (err) => upload.fail(err));
  req.pipe(form);
  return upload.result;
}

const MALFORMED_FORM_MESSAGE = 'The upload is not a readable multipart/form-data form';

/**
 * One upload from its first byte to its answer. The first failure wins: it stops reading the
 * request, waits for the store to let go of the key (removing a blob already written) and
 * rejects; a success resolves once the store has the whole file.
 */
class UploadInProgress {
  readonly result: Promise<ReceivedUpload>;
  private resolve!: (upload: ReceivedUpload) => void;
  private reject!: (err: unknown) => void;
  private settled = false;
  /** The store's put of the file, once a file has started. */
  private stored: Promise<StoredBlob> | undefined;
  /** The streams between the request and the store, destroyed when the upload is refused. */
  private pipes: Readable[] = [];

  constructor(
    private readonly req: Request,
    private readonly options: ReceiveUploadOptions,
    /** The multipart parser the request is piped into, if any. */
    private readonly form?: busboy.Busboy,
  ) {
    this.result = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  get hasFile(): boolean {
    return this.stored !== undefined;
  }

  /** Streams the file (the request itself, or a multipart part) through the inspector into the store. */
  storeFile(source: Readable, about: { fileName: string | null; contentType: string }): void {
    const counter = new ByteCounter();
    const inspector = this.options.inspect?.();
    source.pipe(counter);
    // pipe() carries no errors: a source that fails must fail what the store reads.
    source.once('error', (err) => counter.destroy(err));
    let body: Readable = counter;
    if (inspector) {
      counter.pipe(inspector);
      counter.once('error', (err) => inspector.destroy(err));
      body = inspector;
    }
    this.pipes = [counter, body];
    const stored = this.options.store.put(this.options.key, body, { maxBytes: this.options.maxBytes, contentType: about.contentType });
    this.stored = stored;
    stored.then(
      async (blob) => {
        // An empty file ends normally; it is refused whatever the inspector made of it.
        if (blob.bytes === 0 || counter.bytes === 0) {
          this.fail(badRequest(EMPTY_FILE_MESSAGE));
          return;
        }
        // A multipart form is answered once it is read to its end (a second file refuses it).
        if (this.form && !this.form.writableFinished && !this.form.destroyed) await onceFinished(this.form);
        this.succeed({ key: blob.key, fileName: about.fileName, contentType: about.contentType, bytes: blob.bytes, sha256: blob.sha256 });
      },
      (err: unknown) => this.fail(counter.ended && counter.bytes === 0 ? badRequest(EMPTY_FILE_MESSAGE) : err),
    );
  }

  fail(err: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.stopReading();
    // A put still running is stopped by what stopReading destroyed; one already done is undone.
    const removed = this.stored
      ? this.stored.then(
          () => this.options.store.delete(this.options.key),
          () => undefined,
        )
      : Promise.resolve();
    removed.then(
      () => this.reject(err),
      (cause: unknown) => {
        // The refusal is still the answer; the file left behind is for the operators.
        this.req.log?.warn({ err: cause, key: this.options.key }, 'a refused upload could not be removed from the store');
        this.reject(err);
      },
    );
  }

  private succeed(upload: ReceivedUpload): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve(upload);
  }

  /**
   * Nothing more of the request goes to the store or the parser. What the client still sends is
   * dropped (not kept) up to a bound so it can read the answer, which closes the connection.
   */
  private stopReading(): void {
    const { req } = this;
    req.unpipe();
    this.form?.destroy();
    // Without an error: a put still reading fails on the early close; a finished one is not touched.
    for (const stream of this.pipes) stream.destroy();
    if (req.readableEnded || req.destroyed) return;
    if (req.res && !req.res.headersSent) req.res.setHeader('Connection', 'close');
    let drained = 0;
    req.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > DRAIN_LIMIT_BYTES) req.socket.destroy();
    });
    req.resume();
  }
}

/** Counts what passes; `ended` once the source finished normally. */
class ByteCounter extends Transform {
  bytes = 0;
  ended = false;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    this.ended = true;
    done();
  }
}

/** A client that goes away mid-upload (connection lost, request aborted). */
function whenInterrupted(req: Request, fail: (err: AppError) => void): void {
  const interrupted = () => {
    if (!req.complete) fail(new AppError('UploadInterrupted', 'The upload was interrupted', 400));
  };
  req.once('error', interrupted);
  req.once('close', interrupted);
}

function onceFinished(form: busboy.Busboy): Promise<void> {
  return new Promise((resolve) => {
    form.once('finish', () => resolve());
    // A form that fails instead is refused by its own 'error' listener; this only stops waiting.
    form.once('close', () => resolve());
  });
}

function fileNameFromQuery(req: Request): string | null {
  const name = new URL(req.originalUrl ?? req.url ?? '/', 'http://upload.invalid').searchParams.get('fileName');
  return name || null;
}

/** `filename*=UTF-8''…` (RFC 6266, preferred when both are given), `filename="…"` or `filename=token`. */
export function fileNameFromDisposition(header: string | undefined): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*[^']*'[^']*'([^;\s]+)/i.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1]) || null;
    } catch {
      // A bad percent-encoding: fall back to the plain parameter.
    }
  }
  const quoted = /(?:^|;)\s*filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
  if (quoted) return quoted[1]!.replace(/\\(.)/g, '$1') || null;
  const token = /(?:^|;)\s*filename\s*=\s*([^";\s]+)/i.exec(header);
  return token?.[1] ?? null;
}
