import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { PARTNER_DOCUMENT_MAX_BYTES, PARTNER_DOCUMENT_MAX_FILES } from '@warmline/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBlobStore, type BlobStore, type PutOptions, type StoredBlob } from '../src/blob-store/index';
import { DocumentTypeCheck, typeOfName } from '../src/file-type';
import { createHttpApp, serve } from '../src/http/app';
import { receiveFiles, type ReceivedForm } from '../src/http/upload';
import { ShutdownStack } from '../src/lifecycle';
import { createLogger } from '../src/log';

/**
 * receiveFiles behind the platform's HTTP kit, into a local BlobStore, with the partner
 * documents' limits and type check: a form's fields and files go in whole; any refusal answers
 * `{ error }` naming the file and leaves nothing of the request in the store.
 */

const CHUNK = 64 * 1024;
const log = createLogger('upload-files-test', 'silent');
const stops = new ShutdownStack(log, 'the test server');
let base: string;
let dir: string;
let store: CountingStore;
/** What each request's receiveFiles ended with, in arrival order. */
let outcomes: Array<{ form?: ReceivedForm; error?: unknown }>;

/**
 * The local store, counting what each put pulled from its body (one chunk at a time, only when
 * the store asks, so the count is what the store read) and remembering the deletes.
 */
class CountingStore implements BlobStore {
  readonly pulled = new Map<string, number>();
  readonly stored = new Set<string>();
  readonly deleted = new Set<string>();

  constructor(private readonly inner: BlobStore) {}

  async put(key: string, body: NodeJS.ReadableStream | Readable, options?: PutOptions): Promise<StoredBlob> {
    this.pulled.set(key, 0);
    const source = (body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    const counted = new Readable({
      highWaterMark: 0,
      read: () => {
        source.next().then(
          ({ done, value }) => {
            if (done) return void counted.push(null);
            this.pulled.set(key, this.pulled.get(key)! + value.length);
            counted.push(value);
          },
          (err: unknown) => counted.destroy(err as Error),
        );
      },
      destroy: (err, done) => {
        void source.return?.();
        done(err);
      },
    });
    const blob = await this.inner.put(key, counted, options);
    this.stored.add(key);
    return blob;
  }

  get(key: string, options?: { start?: number }) {
    return this.inner.get(key, options);
  }

  stat(key: string) {
    return this.inner.stat(key);
  }

  async delete(key: string): Promise<void> {
    this.deleted.add(key);
    await this.inner.delete(key);
  }

  check() {
    return this.inner.check();
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'wl-upload-files-'));
  store = new CountingStore(createBlobStore({ BLOB_STORE: 'local', BLOB_DIR: dir, S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: true }));
  const app = createHttpApp({
    service: 'upload-files-test',
    log,
    mount: (a) => {
      a.post('/apply', async (req, res) => {
        const id = randomUUID();
        const outcome: (typeof outcomes)[number] = {};
        outcomes.push(outcome);
        try {
          outcome.form = await receiveFiles(req, {
            store,
            keyFor: (index, name) => `partner-documents/${id}/doc-${index + 1}.${typeOfName(name)?.extension ?? 'bin'}`,
            maxFileBytes: PARTNER_DOCUMENT_MAX_BYTES,
            maxFiles: PARTNER_DOCUMENT_MAX_FILES,
            fileField: /^file_\d+$/,
            maxFieldBytes: 8 * 1024,
            inspect: (name) => new DocumentTypeCheck(name),
          });
        } catch (err) {
          outcome.error = err;
          throw err;
        }
        res.status(201).json(outcome.form);
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
  store.pulled.clear();
  store.stored.clear();
  store.deleted.clear();
});

/** Every file in the store, unfinished ones included. */
async function filesInStore(): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** Once the request has its outcome: nothing of it is in the store, finished or not. */
async function expectNothingStored(): Promise<void> {
  await expect.poll(() => outcomes[0]?.error, { timeout: 5_000 }).toBeDefined();
  expect(await filesInStore()).toEqual([]);
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const pdf = Buffer.from('%PDF-1.4\n1 0 obj <</Type /Catalog>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n');
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const html = Buffer.from('<html><script>alert(1)</script></html>');

function form(...parts: Array<[name: string, value: string | Buffer, fileName?: string]>): FormData {
  const body = new FormData();
  for (const [name, value, fileName] of parts) {
    if (typeof value === 'string') body.append(name, value);
    else body.append(name, new Blob([value], { type: 'application/octet-stream' }), fileName);
  }
  return body;
}

async function post(body: FormData | string, headers?: Record<string, string>) {
  const answer = await fetch(`${base}/apply`, { method: 'POST', body, headers });
  return { status: answer.status, body: (await answer.json()) as ReceivedForm & { error?: string } };
}

describe('receiveFiles', () => {
  it('two good files and the text fields: each file stored whole, its type detected from its bytes', async () => {
    const { status, body } = await post(
      form(['businessName', 'Acme Leads'], ['servicesInterested', '["Aged Leads"]'], ['file_0', pdf, 'licence.pdf'], ['file_1', png, 'logo.png']),
    );
    expect(status).toBe(201);
    expect(body.fields).toEqual({ businessName: 'Acme Leads', servicesInterested: '["Aged Leads"]' });
    const [first, second] = body.files;
    expect(body.files).toHaveLength(2);
    expect(first).toEqual({
      field: 'file_0',
      originalName: 'licence.pdf',
      key: expect.stringMatching(/^partner-documents\/[0-9a-f-]{36}\/doc-1\.pdf$/),
      bytes: pdf.length,
      sha256: sha256(pdf),
      contentType: 'application/pdf',
    });
    expect(second).toMatchObject({ field: 'file_1', originalName: 'logo.png', bytes: png.length, sha256: sha256(png), contentType: 'image/png' });
    expect(second!.key).toMatch(/\/doc-2\.png$/);
    expect((await readFile(path.join(dir, first!.key))).equals(pdf)).toBe(true);
    expect((await readFile(path.join(dir, second!.key))).equals(png)).toBe(true);
    await rm(path.join(dir, 'partner-documents'), { recursive: true, force: true });
  });

  it('a file name with accents arrives as the browser sent it (UTF-8), not as latin1 mojibake', async () => {
    const { status, body } = await post(form(['file_0', pdf, 'Résumé Núñez.pdf']));
    expect(status).toBe(201);
    expect(body.files[0]!.originalName).toBe('Résumé Núñez.pdf');
    await rm(path.join(dir, 'partner-documents'), { recursive: true, force: true });
  });

  it('no files at all is a form with none (whether documents are required is the caller’s)', async () => {
    const { status, body } = await post(form(['businessName', 'Acme Leads']));
    expect(status).toBe(201);
    expect(body).toEqual({ fields: { businessName: 'Acme Leads' }, files: [] });
  });

  it('a file of 10 MB + 1 byte → 400 naming it, read no further than one chunk past the limit; the good file before it is deleted', async () => {
    const big = Buffer.alloc(PARTNER_DOCUMENT_MAX_BYTES + 1, 0x20);
    big.write('%PDF-1.7\n');
    const { status, body } = await post(form(['businessName', 'Acme'], ['file_0', pdf, 'licence.pdf'], ['file_1', big, 'big.pdf']));
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'big.pdf: the file is larger than 10 MB' });
    const [goodKey, bigKey] = [...store.pulled.keys()];
    expect(store.pulled.get(bigKey!)).toBeGreaterThan(PARTNER_DOCUMENT_MAX_BYTES);
    expect(store.pulled.get(bigKey!)).toBeLessThanOrEqual(PARTNER_DOCUMENT_MAX_BYTES + CHUNK);
    // The first file had been stored whole, and is gone with the refusal.
    expect(store.stored.has(goodKey!)).toBe(true);
    expect(store.deleted.has(goodKey!)).toBe(true);
    expect(store.stored.has(bigKey!)).toBe(false);
    await expectNothingStored();
  });

  it('exactly 10 MB is accepted', async () => {
    const full = Buffer.alloc(PARTNER_DOCUMENT_MAX_BYTES, 0x20);
    full.write('%PDF-1.7\n');
    const { status, body } = await post(form(['file_0', full, 'full.pdf']));
    expect(status).toBe(201);
    expect(body.files[0]).toMatchObject({ bytes: PARTNER_DOCUMENT_MAX_BYTES, sha256: sha256(full) });
    await rm(path.join(dir, 'partner-documents'), { recursive: true, force: true });
  });

  it('six files → 400 At most 5 documents can be attached; the five stored are deleted', async () => {
    const six = Array.from({ length: 6 }, (_, i): [string, Buffer, string] => [`file_${i}`, pdf, `doc-${i}.pdf`]);
    const { status, body } = await post(form(...six));
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'At most 5 documents can be attached' });
    expect(store.pulled.size).toBe(5);
    await expectNothingStored();
  });

  it('a file type that is not allowed → 400 naming it and the five, nothing stored', async () => {
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(300)]);
    const { status, body } = await post(form(['file_0', pdf, 'licence.pdf'], ['file_1', exe, 'report.exe']));
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'report.exe: the file type is not allowed (PDF, DOC, DOCX, JPG, PNG)' });
    await expectNothingStored();
  });

  it('content that is not what the name says → 400 the content is not a PDF / JPG, nothing stored', async () => {
    const htmlAsPdf = await post(form(['file_0', png, 'logo.png'], ['file_1', html, 'resume.pdf']));
    expect(htmlAsPdf.status).toBe(400);
    expect(htmlAsPdf.body).toEqual({ error: 'resume.pdf: the content is not a PDF' });
    await expectNothingStored();
    const pngAsJpg = await post(form(['file_0', png, 'photo.jpg']));
    expect(pngAsJpg.body).toEqual({ error: 'photo.jpg: the content is not a JPG' });
    expect(await filesInStore()).toEqual([]);
  });

  it('an empty file → 400 naming it, nothing stored', async () => {
    const { body } = await post(form(['file_0', pdf, 'licence.pdf'], ['file_1', Buffer.alloc(0), 'empty.pdf']));
    expect(body).toEqual({ error: 'empty.pdf: the file is empty' });
    await expectNothingStored();
  });

  it('a file in a field that takes none → 400 naming it, nothing stored', async () => {
    const { status, body } = await post(form(['file_0', pdf, 'licence.pdf'], ['avatar', png, 'me.png']));
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'me.png: the form field avatar does not take a file' });
    await expectNothingStored();
  });

  it('too large a text field, a field sent twice, too many fields or parts → 400, nothing stored', async () => {
    const long = await post(form(['file_0', pdf, 'licence.pdf'], ['businessDescription', 'x'.repeat(8 * 1024 + 1)]));
    expect(long).toEqual({ status: 400, body: { error: 'The form field businessDescription is too long' } });
    await expectNothingStored();
    const twice = await post(form(['email', 'a@example.com'], ['email', 'b@example.com']));
    expect(twice.body).toEqual({ error: 'The form field email is sent twice' });
    const many = await post(form(...Array.from({ length: 51 }, (_, i): [string, string] => [`f${i}`, 'x'])));
    expect(many.body).toEqual({ error: 'The form has more than 50 fields' });
    const empty = `--b\r\nContent-Disposition: form-data; name="file_0"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n`;
    const parts = await post(empty.repeat(80) + '--b--\r\n', { 'content-type': 'multipart/form-data; boundary=b' });
    expect(parts.body).toEqual({ error: 'The form has more than 75 parts' });
    expect(await filesInStore()).toEqual([]);
  });

  it('an empty file input (a part without a name or bytes) is no file; a nameless part with bytes is refused', async () => {
    const part = (bytes: string) =>
      `--b\r\nContent-Disposition: form-data; name="businessName"\r\n\r\nAcme\r\n` +
      `--b\r\nContent-Disposition: form-data; name="file_0"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n${bytes}\r\n--b--\r\n`;
    const headers = { 'content-type': 'multipart/form-data; boundary=b' };
    expect(await post(part(''), headers)).toEqual({ status: 201, body: { fields: { businessName: 'Acme' }, files: [] } });
    expect(await post(part('%PDF-1.4'), headers)).toEqual({ status: 400, body: { error: 'A file was sent without a name' } });
  });

  it('empty file inputs do not count: two of them and five files are five files; a sixth file is still refused', async () => {
    const empty = `--b\r\nContent-Disposition: form-data; name="file_9"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n`;
    const file = (i: number) => `--b\r\nContent-Disposition: form-data; name="file_${i}"; filename="doc-${i}.pdf"\r\n\r\n${pdf.toString('latin1')}\r\n`;
    const body = (files: number) => empty + empty + Array.from({ length: files }, (_, i) => file(i)).join('') + '--b--\r\n';
    const headers = { 'content-type': 'multipart/form-data; boundary=b' };
    const five = await post(body(5), headers);
    expect(five.status).toBe(201);
    expect(five.body.files.map((f) => f.originalName)).toEqual(['doc-0.pdf', 'doc-1.pdf', 'doc-2.pdf', 'doc-3.pdf', 'doc-4.pdf']);
    await rm(path.join(dir, 'partner-documents'), { recursive: true, force: true });
    expect((await post(body(6), headers)).body).toEqual({ error: 'At most 5 documents can be attached' });
    await expect.poll(() => filesInStore()).toEqual([]);
  });

  it('not multipart → 400 Send the application as multipart/form-data; a malformed form → 400', async () => {
    const json = await post(JSON.stringify({ businessName: 'Acme' }), { 'content-type': 'application/json' });
    expect(json).toEqual({ status: 400, body: { error: 'Send the application as multipart/form-data' } });
    const text = await post('businessName=Acme', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(text.body).toEqual({ error: 'Send the application as multipart/form-data' });
    const cut = await post(`--b\r\nContent-Disposition: form-data; name="file_0"; filename="a.pdf"\r\n\r\n%PDF-1.4 cut short`, {
      'content-type': 'multipart/form-data; boundary=b',
    });
    expect(cut).toEqual({ status: 400, body: { error: 'The upload is not a readable multipart/form-data form' } });
    expect(await filesInStore()).toEqual([]);
  });

  it('a client that goes away mid-file leaves nothing stored, the file before it included', async () => {
    const head =
      `--b\r\nContent-Disposition: form-data; name="file_0"; filename="licence.pdf"\r\n\r\n${pdf.toString('latin1')}\r\n` +
      `--b\r\nContent-Disposition: form-data; name="file_1"; filename="big.pdf"\r\n\r\n%PDF-1.7\n`;
    const request = http.request(`${base}/apply`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=b', 'content-length': String(8 * 1024 * 1024) },
    });
    request.on('error', () => undefined);
    request.write(head, 'latin1');
    request.write(Buffer.alloc(512 * 1024, 0x20));
    await expect.poll(() => store.stored.size, { timeout: 5_000 }).toBe(1);
    request.destroy();
    await expectNothingStored();
    expect(store.deleted.size).toBe(1);
  });

  it('a refused form far larger than the limits is answered while it is still being sent, not read to its end', async () => {
    const total = 200 * 1024 * 1024;
    const head = `--b\r\nContent-Disposition: form-data; name="file_0"; filename="huge.pdf"\r\n\r\n%PDF-1.7\n`;
    const { status, body, sent } = await new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
      const request = http.request(`${base}/apply`, {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=b', 'content-length': String(total) },
      });
      const chunk = Buffer.alloc(CHUNK, 0x20);
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
      request.write(head);
      const write = () => {
        while (!answered && sent < total) {
          sent += chunk.length;
          if (!request.write(chunk)) return void request.once('drain', write);
        }
      };
      write();
    });
    expect(status).toBe(400);
    expect(JSON.parse(body)).toEqual({ error: 'huge.pdf: the file is larger than 10 MB' });
    expect(sent).toBeLessThan(total / 4);
    await expectNothingStored();
  });
});
