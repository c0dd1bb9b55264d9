import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBlobStore, type BlobStore } from '../src/blob-store/index';
import { badRequest } from '../src/errors';
import { createHttpApp, serve } from '../src/http/app';
import { receiveUpload, type ReceivedUpload } from '../src/http/upload';
import { ShutdownStack } from '../src/lifecycle';
import { createLogger } from '../src/log';

/**
 * receiveUpload behind the platform's HTTP kit, into a local BlobStore: a raw body or a
 * multipart form with one file goes in whole; everything refused answers `{ error }` with its
 * status and leaves nothing in the store.
 */

const MAX_BYTES = 1024 * 1024;
const log = createLogger('upload-test', 'silent');
const stops = new ShutdownStack(log, 'the test server');
let base: string;
let dir: string;
let store: BlobStore;
/** What each request's receiveUpload ended with, in arrival order. */
let outcomes: Array<{ key: string; upload?: ReceivedUpload; error?: unknown }>;

/** Refuses a NUL byte (as binary data) while the file streams; at its end, a file without a newline. */
class TextCheck extends Transform {
  private sawNewline = false;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (chunk.includes(0)) return done(badRequest('The file is not text'));
    if (chunk.includes(0x0a)) this.sawNewline = true;
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    done(this.sawNewline ? null : badRequest('The file has no rows'));
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'wl-upload-'));
  store = createBlobStore({ BLOB_STORE: 'local', BLOB_DIR: dir, S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: true });
  const app = createHttpApp({
    service: 'upload-test',
    log,
    mount: (a) => {
      a.post(['/upload', '/checked-upload'], async (req, res) => {
        const key = `uploads/${randomUUID()}.csv`;
        const outcome: (typeof outcomes)[number] = { key };
        outcomes.push(outcome);
        try {
          const inspect = req.path === '/checked-upload' ? () => new TextCheck() : undefined;
          outcome.upload = await receiveUpload(req, { store, key, maxBytes: MAX_BYTES, inspect });
        } catch (err) {
          outcome.error = err;
          throw err;
        }
        res.status(201).json(outcome.upload);
      });
    },
  });
  base = await serve(app, 0, stops, '127.0.0.1');
});

afterAll(async () => {
  await stops.stop();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  outcomes = [];
});

/** Every file in the store, unfinished ones included. */
async function filesInStore(): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

async function expectNothingStored(): Promise<void> {
  const before = outcomes.map((o) => o.key);
  for (const key of before) expect(await store.stat(key)).toBeNull();
  const left = await filesInStore();
  expect(left.filter((file) => before.some((key) => file === key) || file.startsWith('.partial'))).toEqual([]);
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const csv = 'Name,Phone\r\nJane Smith,5125550143\r\n';

function form(...parts: Array<[name: string, value: string | Blob, fileName?: string]>): FormData {
  const body = new FormData();
  for (const [name, value, fileName] of parts) {
    if (typeof value === 'string') body.append(name, value);
    else body.append(name, value, fileName);
  }
  return body;
}

describe('a raw body', () => {
  it('text/csv with ?fileName= is stored whole; the answer says its name, type, size and hash', async () => {
    const answer = await fetch(`${base}/upload?fileName=leads.csv`, { method: 'POST', body: csv, headers: { 'content-type': 'text/csv' } });
    expect(answer.status).toBe(201);
    const upload = (await answer.json()) as ReceivedUpload;
    expect(upload).toEqual({ key: outcomes[0]!.key, fileName: 'leads.csv', contentType: 'text/csv', bytes: csv.length, sha256: sha256(csv) });
    expect(await readFile(path.join(dir, upload.key), 'utf8')).toBe(csv);
  });

  it('the name comes from a Content-Disposition filename when there is no ?fileName=, else it is null', async () => {
    const named = await fetch(`${base}/upload`, {
      method: 'POST',
      body: csv,
      headers: { 'content-type': 'text/csv', 'content-disposition': `attachment; filename*=UTF-8''M%C3%A4rz%20leads.csv` },
    });
    expect(((await named.json()) as ReceivedUpload).fileName).toBe('März leads.csv');
    const plain = await fetch(`${base}/upload`, { method: 'POST', body: csv, headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="june.csv"' } });
    expect(((await plain.json()) as ReceivedUpload).fileName).toBe('june.csv');
    const unnamed = await fetch(`${base}/upload`, { method: 'POST', body: csv, headers: { 'content-type': 'text/csv' } });
    expect(((await unnamed.json()) as ReceivedUpload).fileName).toBeNull();
  });

  it('an empty body → 400 The file is empty, nothing stored (an inspector does not change that)', async () => {
    for (const route of ['/upload', '/checked-upload']) {
      const answer = await fetch(`${base}${route}`, { method: 'POST', body: '', headers: { 'content-type': 'text/csv' } });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ error: 'The file is empty' });
    }
    await expectNothingStored();
  });

  it('over maxBytes → 413 naming the limit, nothing stored', async () => {
    const answer = await fetch(`${base}/upload`, { method: 'POST', body: Buffer.alloc(3 * MAX_BYTES, 'a'), headers: { 'content-type': 'text/csv' } });
    expect(answer.status).toBe(413);
    expect(await answer.json()).toEqual({ error: 'File is larger than 1 MB' });
    await expectNothingStored();
  });

  it('a body far over the limit is answered 413 while it is still being sent, and not read to its end', async () => {
    const total = 200 * 1024 * 1024;
    const { status, body, sent } = await new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
      const request = http.request(`${base}/upload`, { method: 'POST', headers: { 'content-type': 'text/csv', 'content-length': String(total) } });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let sent = 0;
      let answered = false;
      request.on('response', (response) => {
        answered = true;
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (part: string) => (text += part));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text, sent }));
        response.on('error', reject);
      });
      // The server cuts the connection once it has dropped enough; writes after that may fail.
      request.on('error', (err) => (answered ? undefined : reject(err)));
      const write = () => {
        while (!answered && sent < total) {
          sent += chunk.length;
          if (!request.write(chunk)) return void request.once('drain', write);
        }
      };
      write();
    });
    expect(status).toBe(413);
    expect(JSON.parse(body)).toEqual({ error: 'File is larger than 1 MB' });
    expect(sent).toBeLessThan(total / 4);
    await expectNothingStored();
  });

  it('an inspector that throws refuses the upload with its message, nothing stored', async () => {
    const binary = Buffer.concat([Buffer.from('Name,Phone\n'), Buffer.from([0x50, 0x4b, 0x00, 0x03])]);
    const answer = await fetch(`${base}/checked-upload`, { method: 'POST', body: binary, headers: { 'content-type': 'text/csv' } });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: 'The file is not text' });
    const atTheEnd = await fetch(`${base}/checked-upload`, { method: 'POST', body: 'no newline', headers: { 'content-type': 'text/csv' } });
    expect(atTheEnd.status).toBe(400);
    expect(await atTheEnd.json()).toEqual({ error: 'The file has no rows' });
    await expectNothingStored();
  });

  it('an inspector that finds nothing wrong sees every byte and passes them on unchanged', async () => {
    const answer = await fetch(`${base}/checked-upload`, { method: 'POST', body: csv, headers: { 'content-type': 'text/csv' } });
    expect(answer.status).toBe(201);
    expect(((await answer.json()) as ReceivedUpload).sha256).toBe(sha256(csv));
  });

  it('a client that goes away mid-upload leaves nothing stored', async () => {
    const request = http.request(`${base}/upload`, { method: 'POST', headers: { 'content-type': 'text/csv', 'content-length': String(MAX_BYTES) } });
    request.on('error', () => undefined);
    request.write(Buffer.alloc(200 * 1024, 'a'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    request.destroy();
    await expect.poll(() => outcomes[0]?.error, { timeout: 5_000 }).toBeDefined();
    await expectNothingStored();
  });

  it('a JSON body (already read by the JSON parser) → 400, not a hang', async () => {
    const answer = await fetch(`${base}/upload`, { method: 'POST', body: '{"file":"x"}', headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(400);
  });
});

describe('a multipart form', () => {
  it('one file (and a text field, ignored) is stored whole under the part’s file name and type', async () => {
    const body = form(['note', 'ignored'], ['file', new Blob([csv], { type: 'text/csv' }), 'may-leads.csv']);
    const answer = await fetch(`${base}/upload`, { method: 'POST', body });
    expect(answer.status).toBe(201);
    const upload = (await answer.json()) as ReceivedUpload;
    expect(upload).toEqual({ key: outcomes[0]!.key, fileName: 'may-leads.csv', contentType: 'text/csv', bytes: csv.length, sha256: sha256(csv) });
    expect(await readFile(path.join(dir, upload.key), 'utf8')).toBe(csv);
  });

  it('two files → 400 Send one file, nothing stored', async () => {
    const body = form(['file', new Blob([csv], { type: 'text/csv' }), 'a.csv'], ['file', new Blob([csv], { type: 'text/csv' }), 'b.csv']);
    const answer = await fetch(`${base}/upload`, { method: 'POST', body });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: 'Send one file' });
    await expectNothingStored();
  });

  it('no file part → 400 No file was sent', async () => {
    const answer = await fetch(`${base}/upload`, { method: 'POST', body: form(['note', 'just text']) });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: 'No file was sent' });
  });

  it('an empty file → 400 The file is empty, nothing stored', async () => {
    const answer = await fetch(`${base}/upload`, { method: 'POST', body: form(['file', new Blob([], { type: 'text/csv' }), 'empty.csv']) });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: 'The file is empty' });
    await expectNothingStored();
  });

  it('a file over maxBytes → 413, nothing stored', async () => {
    const answer = await fetch(`${base}/upload`, { method: 'POST', body: form(['file', new Blob([Buffer.alloc(2 * MAX_BYTES, 'a')], { type: 'text/csv' }), 'big.csv']) });
    expect(answer.status).toBe(413);
    expect(await answer.json()).toEqual({ error: 'File is larger than 1 MB' });
    await expectNothingStored();
  });

  it('an inspector that throws → its 400, nothing stored', async () => {
    const binary = new Blob([Buffer.from([0x50, 0x4b, 0x00, 0x03])], { type: 'text/csv' });
    const answer = await fetch(`${base}/checked-upload`, { method: 'POST', body: form(['file', binary, 'x.csv']) });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: 'The file is not text' });
    await expectNothingStored();
  });

  it('a form cut short (no closing boundary) → 400, nothing stored', async () => {
    const answer = await fetch(`${base}/upload`, {
      method: 'POST',
      body: `--b\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}`,
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
    });
    expect(answer.status).toBe(400);
    await expectNothingStored();
  });
});
