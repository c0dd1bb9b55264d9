import { Transform, type Readable, type TransformCallback } from 'node:stream';
import busboy from 'busboy';
import type { Request } from 'express';
import { BlobTooLargeError, type BlobStore, type PutOptions, type StoredBlob } from '../blob-store/index';
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

const EMPTY_FILE_MESSAGE = 'The file is empty';
const NO_FILE_MESSAGE = 'No file was sent';
const ONE_FILE_MESSAGE = 'Send one file';

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
      // Browsers send a file name's non-ASCII characters as raw UTF-8 ('Résumé.pdf'), not latin1.
      defParamCharset: 'utf8',
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
 * A checker a file streams through on its way to the store, passing the bytes on unchanged. An
 * error it throws refuses the upload; a `contentType` it knows once the file has passed it (e.g.
 * a type detected from the bytes) is what receiveFiles reports for the file.
 */
type FileInspector = Transform & { readonly contentType?: string | null | undefined };

export interface ReceiveFilesOptions {
  store: BlobStore;
  /** Where a file goes: `index` counts the request's files from 0 in the order they came. */
  keyFor: (index: number, originalName: string) => string;
  /** A larger file is refused (400 naming it and the limit), read no further than one chunk past it. */
  maxFileBytes: number;
  /** One more file part is refused. */
  maxFiles: number;
  /** The form fields that may carry a file; a file in any other is refused. */
  fileField: RegExp;
  /** A longer text field is refused; 64 KiB unless given. */
  maxFieldBytes?: number;
  /** Makes a fresh checker for each file, given the name it was sent with. */
  inspect?: (originalName: string) => FileInspector;
}

/** A file of a multipart form, now in the BlobStore at `key`. */
interface ReceivedFile {
  /** The form field it came in, e.g. 'file_0'. */
  field: string;
  /** The name it was sent with (its directory part, if any, dropped). */
  originalName: string;
  key: string;
  bytes: number;
  sha256: string;
  /** What the inspector decided it is; without one, the type the sender declared. */
  contentType: string;
}

export interface ReceivedForm {
  fields: Record<string, string>;
  files: ReceivedFile[];
}

const NOT_MULTIPART_MESSAGE = 'Send the application as multipart/form-data';
const DEFAULT_MAX_FIELD_BYTES = 64 * 1024;
/** Text fields a form may have: a form has a dozen or so; each one is held in memory. */
const MAX_FIELDS = 50;
/** File inputs left empty a form may send (each a nameless, empty part) besides its files. */
const MAX_EMPTY_FILE_PARTS = 20;
const maxParts = (options: ReceiveFilesOptions) => MAX_FIELDS + options.maxFiles + MAX_EMPTY_FILE_PARTS;
const BYTES_PER_MB = 1024 * 1024;

/**
 * Reads a multipart/form-data form of text fields and files: each file streams through
 * `inspect` into the store under `keyFor(...)`, never whole in memory. All or nothing: any
 * refusal (an AppError the HTTP kit answers with, 400 naming the file and the reason: a file
 * over maxFileBytes, one file too many, a file in an unexpected field, what the inspector threw,
 * too many or too large fields, a malformed form) or a client that goes away deletes every file
 * this request stored, and the rest of the body is not stored. Resolves once the form has been
 * read to its end and every file is in the store.
 */
export async function receiveFiles(req: Request, options: ReceiveFilesOptions): Promise<ReceivedForm> {
  const multipart = /^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '');
  // A body parser got there first (e.g. JSON): there is no stream left to read.
  if (!multipart || req.readableEnded) return refuseUnread(req, badRequest(NOT_MULTIPART_MESSAGE));
  let form: busboy.Busboy;
  try {
    form = busboy({
      headers: req.headers,
      // Browsers send a file name's non-ASCII characters as raw UTF-8 ('Résumé.pdf'), not latin1.
      defParamCharset: 'utf8',
      limits: {
        fields: MAX_FIELDS,
        fieldSize: options.maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES,
        // No files limit: busboy would skip the parts past it without a word, and empty file
        // inputs count as files there. The 'file' handler counts the files and refuses one too many.
        parts: maxParts(options) + 1,
        headerPairs: 100,
      },
    });
  } catch {
    // No boundary, or a Content-Type busboy cannot read.
    return refuseUnread(req, badRequest(MALFORMED_FORM_MESSAGE));
  }
  const reading = new FormInProgress(req, options, form);
  form.on('field', (name, value, info) => reading.field(name, value, info));
  form.on('file', (field, file, info) => reading.file(field, file, info));
  form.on('fieldsLimit', () => reading.fail(badRequest(`The form has more than ${MAX_FIELDS} fields`)));
  form.on('partsLimit', () => reading.fail(badRequest(`The form has more than ${maxParts(options)} parts`)));
  form.on('finish', () => reading.formRead());
  form.on('error', () => reading.fail(badRequest(MALFORMED_FORM_MESSAGE)));
  whenInterrupted(req, (err) => reading.fail(err));
  req.pipe(form);
  return reading.result;
}

/** Refused before reading: the body is dropped (up to the bound) like any refused upload's. */
function refuseUnread(req: Request, err: AppError): Promise<never> {
  const refused = new RequestInProgress<never>(req);
  refused.fail(err);
  return refused.result;
}

/**
 * A request from its first byte to its answer, and the files it has put in the store. The first
 * failure wins: it stops reading the request, waits for the store to let go of every key (removing
 * the blobs already written) and rejects; success resolves with what the subclass found.
 */
class RequestInProgress<T> {
  readonly result: Promise<T>;
  private resolve!: (value: T) => void;
  private reject!: (err: unknown) => void;
  protected settled = false;
  /** Every put this request started, and the streams feeding it (destroyed on a refusal). */
  private readonly puts: Array<{ key: string; stored: Promise<StoredBlob>; pipes: Readable[] }> = [];

  constructor(
    protected readonly req: Request,
    protected readonly store?: BlobStore,
    /** The multipart parser the request is piped into, if any. */
    protected readonly form?: busboy.Busboy,
  ) {
    this.result = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** Streams a file (the request itself, or a multipart part) through the inspector into the store. */
  protected put(source: Readable, key: string, putOptions: PutOptions, inspector?: Transform): { stored: Promise<StoredBlob>; counter: ByteCounter } {
    const counter = new ByteCounter();
    source.pipe(counter);
    // pipe() carries no errors: a source that fails must fail what the store reads.
    source.once('error', (err) => counter.destroy(err));
    let body: Readable = counter;
    if (inspector) {
      counter.pipe(inspector);
      counter.once('error', (err) => inspector.destroy(err));
      body = inspector;
    }
    // The store may not listen yet when the inspector refuses the first bytes (the S3 store loads
    // at its first put): without a listener that error would crash the process. The put still
    // gets it: a stream that has failed fails whoever reads it.
    body.on('error', ignoreError);
    const stored = this.store!.put(key, body, putOptions);
    this.puts.push({ key, stored, pipes: [counter, body] });
    return { stored, counter };
  }

  fail(err: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.stopReading();
    // A put still running is stopped by what stopReading destroyed; one already done is undone.
    const removed = this.puts.map(({ key, stored }) =>
      stored.then(
        () =>
          this.store!.delete(key).catch((cause: unknown) => {
            // The refusal is still the answer; the file left behind is for the operators.
            this.req.log?.warn({ err: cause, key }, 'a refused upload could not be removed from the store');
          }),
        () => undefined,
      ),
    );
    void Promise.all(removed).then(() => this.reject(err));
  }

  protected succeed(value: T): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve(value);
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
    for (const { pipes } of this.puts) for (const stream of pipes) stream.destroy();
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

/** receiveUpload's one file: no file, a second file or an empty one refuses it. */
class UploadInProgress extends RequestInProgress<ReceivedUpload> {
  private stored: Promise<StoredBlob> | undefined;

  constructor(
    req: Request,
    private readonly options: ReceiveUploadOptions,
    form?: busboy.Busboy,
  ) {
    super(req, options.store, form);
  }

  get hasFile(): boolean {
    return this.stored !== undefined;
  }

  storeFile(source: Readable, about: { fileName: string | null; contentType: string }): void {
    const { stored, counter } = this.put(source, this.options.key, { maxBytes: this.options.maxBytes, contentType: about.contentType }, this.options.inspect?.());
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
}

/** receiveFiles' form: its text fields, and its files as each one lands in the store. */
class FormInProgress extends RequestInProgress<ReceivedForm> {
  private readonly fields = new Map<string, string>();
  private readonly files: Array<Promise<ReceivedFile>> = [];

  constructor(
    req: Request,
    private readonly options: ReceiveFilesOptions,
    form: busboy.Busboy,
  ) {
    super(req, options.store, form);
  }

  field(name: string, value: string, info: busboy.FieldInfo): void {
    if (this.settled) return;
    if (info.nameTruncated) return this.fail(badRequest('A form field has too long a name'));
    if (info.valueTruncated) return this.fail(badRequest(`The form field ${name} is too long`));
    if (this.fields.has(name)) return this.fail(badRequest(`The form field ${name} is sent twice`));
    this.fields.set(name, value);
  }

  file(field: string, file: Readable, info: busboy.FileInfo): void {
    const name = info.filename;
    if (this.settled) return drop(file);
    if (!name) {
      // A file input left empty sends a part without a name or bytes: nothing was attached.
      file.once('data', () => this.fail(badRequest('A file was sent without a name')));
      return drop(file);
    }
    const { options } = this;
    options.fileField.lastIndex = 0; // a /g or /y pattern would otherwise test from its last match
    if (!options.fileField.test(field)) {
      drop(file);
      return this.fail(badRequest(`${name}: the form field ${field} does not take a file`));
    }
    const index = this.files.length;
    if (index >= options.maxFiles) {
      drop(file);
      return this.fail(badRequest(`At most ${options.maxFiles} documents can be attached`));
    }
    let key: string;
    let inspector: FileInspector | undefined;
    try {
      key = options.keyFor(index, name);
      inspector = options.inspect?.(name);
    } catch (err) {
      drop(file);
      return this.fail(err);
    }
    // The sender's declared type is only a claim; the file's type is known once it has passed.
    const { stored, counter } = this.put(file, key, { maxBytes: options.maxFileBytes, contentType: 'application/octet-stream' }, inspector);
    const received = stored.then(
      (blob): ReceivedFile => {
        // An empty file ends normally; it is refused whatever the inspector made of it.
        if (blob.bytes === 0) throw badRequest(`${name}: the file is empty`);
        const contentType = inspector?.contentType || info.mimeType;
        return { field, originalName: name, key, bytes: blob.bytes, sha256: blob.sha256, contentType };
      },
      (err: unknown) => {
        if (err instanceof BlobTooLargeError) throw badRequest(`${name}: the file is larger than ${megabytes(err.maxBytes)} MB`);
        throw counter.ended && counter.bytes === 0 ? badRequest(`${name}: the file is empty`) : err;
      },
    );
    received.catch((err: unknown) => this.fail(err));
    this.files.push(received);
  }

  /** The whole form is parsed (every file part has ended): answers once the store has them all. */
  formRead(): void {
    Promise.all(this.files).then(
      (files) => this.succeed({ fields: Object.fromEntries(this.fields), files }),
      // Already refused by the file that failed.
      () => undefined,
    );
  }
}

/** A part that will not be stored: read and dropped; its error (the form destroyed) is expected. */
function drop(file: Readable): void {
  file.on('error', () => undefined);
  file.resume();
}

/** 10 MB, 1.5 MB: as the store words its limit. */
function megabytes(bytes: number): string {
  const mb = bytes / BYTES_PER_MB;
  return String(Number.isInteger(mb) ? mb : Number(mb.toFixed(mb >= 1 ? 1 : 3)));
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
function fileNameFromDisposition(header: string | undefined): string | null {
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

function ignoreError(): void {}
