import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../src/config';
import {
  BlobNotFoundError,
  BlobTooLargeError,
  InvalidBlobKeyError,
  blobStoreEnv,
  createBlobStore,
  type BlobStore,
} from '../src/blob-store/index';
import { LocalBlobStore } from '../src/blob-store/local';

/** s3rver ships no types; the little the tests use. */
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: { address: string; port: number; silent: boolean; directory: string }) => S3rverServer;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

const MiB = 1024 * 1024;
const CHUNK = 64 * 1024;

/**
 * A source of random bytes made one chunk at a time, only when the reader asks (highWaterMark
 * 0: nothing is made ahead), so `produced()` is what the store took from it. It can fail after
 * a number of bytes, as a dropped upload does.
 */
function generatedSource(totalBytes: number, options: { failAfter?: number } = {}) {
  const hash = createHash('sha256');
  let produced = 0;
  const stream = new Readable({
    highWaterMark: 0,
    read() {
      if (options.failAfter !== undefined && produced >= options.failAfter) {
        this.destroy(new Error('the client went away'));
        return;
      }
      if (produced >= totalBytes) {
        this.push(null);
        return;
      }
      const chunk = randomBytes(Math.min(CHUNK, totalBytes - produced));
      produced += chunk.length;
      hash.update(chunk);
      this.push(chunk);
    },
  });
  return { stream, produced: () => produced, sha256: () => hash.digest('hex') };
}

async function digestOf(stream: Readable): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    hash.update(chunk);
  }
  return { bytes, sha256: hash.digest('hex') };
}

async function textOf(stream: Readable): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) parts.push(chunk);
  return Buffer.concat(parts).toString('utf8');
}

interface StartedStore {
  store: BlobStore;
  /** A store of the same kind that cannot reach its storage. */
  unreachable: BlobStore;
  /** Anything the store left beside the blobs (local: unfinished files). */
  leftovers(): Promise<string[]>;
  stop(): Promise<void>;
}

async function startLocal(): Promise<StartedStore> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wl-blobs-'));
  const root = path.join(dir, 'blobs'); // missing at first: the store creates it
  const aFile = path.join(dir, 'a-file');
  await writeFile(aFile, 'not a directory');
  return {
    store: createBlobStore(parseConfig(blobStoreEnv, { BLOB_DIR: root })),
    unreachable: createBlobStore(parseConfig(blobStoreEnv, { BLOB_DIR: path.join(aFile, 'blobs') })),
    leftovers: async () => readdir(path.join(root, '.partial')).catch(() => []),
    stop: () => rm(dir, { recursive: true, force: true }),
  };
}

async function startS3(): Promise<StartedStore> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wl-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir });
  const { port } = await server.run();
  const env = (endpoint: string) =>
    parseConfig(blobStoreEnv, {
      BLOB_STORE: 's3',
      S3_ENDPOINT: endpoint,
      // No bucket yet: the store creates it at first use.
      S3_BUCKET: 'warmline-test',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    });
  return {
    store: createBlobStore(env(`http://127.0.0.1:${port}`)),
    // Port 9 (discard) on loopback: nothing listens, the connection is refused.
    unreachable: createBlobStore(env('http://127.0.0.1:9')),
    leftovers: async () => [],
    stop: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

describe.each([
  ['local directory', startLocal],
  ['S3 (s3rver)', startS3],
])('BlobStore: %s', (_name, start) => {
  let started: StartedStore;
  let store: BlobStore;
  beforeAll(async () => {
    started = await start();
    store = started.store;
  });
  afterAll(async () => {
    await started?.stop();
  });

  it('check() resolves when the storage is there (creating it), rejects with the reason when not', async () => {
    await expect(store.check()).resolves.toBeUndefined();
    await expect(started.unreachable.check()).rejects.toThrow();
  });

  it('a multi-MB stream goes in and comes out the same (size and sha256), and stat tells its size', async () => {
    const bytes = 12 * MiB + 12_345; // over two S3 parts: the multipart path
    const source = generatedSource(bytes);
    const stored = await store.put('lead-imports/round-trip.csv', source.stream, { contentType: 'text/csv' });
    const expected = source.sha256();
    expect(stored).toEqual({ key: 'lead-imports/round-trip.csv', bytes, sha256: expected });
    expect(await digestOf(await store.get('lead-imports/round-trip.csv'))).toEqual({ bytes, sha256: expected });
    expect(await store.stat('lead-imports/round-trip.csv')).toEqual({ bytes });
  });

  it('get from an offset gives the rest; from the end, nothing', async () => {
    await store.put('docs/offset.txt', Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect(await textOf(await store.get('docs/offset.txt', { start: 6 }))).toBe('world');
    expect(await textOf(await store.get('docs/offset.txt', { start: 0 }))).toBe('hello world');
    expect(await textOf(await store.get('docs/offset.txt', { start: 11 }))).toBe('');
  });

  it('an empty body is stored as an empty blob with the hash of nothing', async () => {
    const stored = await store.put('docs/empty.txt', Readable.from([]));
    expect(stored).toEqual({ key: 'docs/empty.txt', bytes: 0, sha256: createHash('sha256').digest('hex') });
    expect(await store.stat('docs/empty.txt')).toEqual({ bytes: 0 });
  });

  it('a put to an existing key replaces it', async () => {
    await store.put('docs/replaced.txt', Readable.from([Buffer.from('first')]));
    await store.put('docs/replaced.txt', Readable.from([Buffer.from('second')]));
    expect(await textOf(await store.get('docs/replaced.txt'))).toBe('second');
  });

  it('a missing blob: get rejects with BlobNotFoundError (404), stat answers null', async () => {
    const missing = store.get('lead-imports/never-stored.csv');
    await expect(missing).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(missing).rejects.toMatchObject({ status: 404 });
    expect(await store.stat('lead-imports/never-stored.csv')).toBeNull();
  });

  it('delete removes the blob and is idempotent', async () => {
    await store.put('docs/deleted.txt', Readable.from([Buffer.from('bye')]));
    await store.delete('docs/deleted.txt');
    await store.delete('docs/deleted.txt');
    await store.delete('docs/never-there.txt');
    expect(await store.stat('docs/deleted.txt')).toBeNull();
    await expect(store.get('docs/deleted.txt')).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('over maxBytes: stops reading at once, rejects with a 413 naming the limit, leaves nothing at the key', async () => {
    const maxBytes = 6 * MiB; // over one S3 part: a multipart upload is under way when it stops
    const source = generatedSource(40 * MiB);
    const put = store.put('lead-imports/too-large.csv', source.stream, { maxBytes });
    await expect(put).rejects.toBeInstanceOf(BlobTooLargeError);
    await expect(put).rejects.toMatchObject({ status: 413, message: 'File is larger than 6 MB' });
    expect(source.produced()).toBeGreaterThan(maxBytes);
    expect(source.produced()).toBeLessThanOrEqual(maxBytes + CHUNK);
    expect(source.stream.destroyed).toBe(true);
    expect(await store.stat('lead-imports/too-large.csv')).toBeNull();
    expect(await started.leftovers()).toEqual([]);
  });

  it('exactly maxBytes is accepted', async () => {
    const source = generatedSource(256 * 1024);
    const stored = await store.put('docs/exact.bin', source.stream, { maxBytes: 256 * 1024 });
    expect(stored.bytes).toBe(256 * 1024);
  });

  it('a source that fails mid-stream: the put rejects with its error and nothing is left at the key', async () => {
    const source = generatedSource(20 * MiB, { failAfter: 7 * MiB });
    await expect(store.put('lead-imports/broken.csv', source.stream)).rejects.toThrow('the client went away');
    expect(await store.stat('lead-imports/broken.csv')).toBeNull();
    expect(await started.leftovers()).toEqual([]);
  });

  it('a failed put leaves an earlier blob at the same key untouched', async () => {
    await store.put('docs/kept.txt', Readable.from([Buffer.from('the good one')]));
    const source = generatedSource(1 * MiB, { failAfter: 256 * 1024 });
    await expect(store.put('docs/kept.txt', source.stream)).rejects.toThrow('the client went away');
    expect(await textOf(await store.get('docs/kept.txt'))).toBe('the good one');
  });

  it.each([
    ['empty', ''],
    ['absolute', '/etc/passwd'],
    ['parent directory', '../outside.csv'],
    ['parent inside', 'lead-imports/../../outside.csv'],
    ['backslash', 'lead-imports\\x.csv'],
    ['empty segment', 'lead-imports//x.csv'],
    ['trailing slash', 'lead-imports/'],
    ['hidden segment', '.partial/x.csv'],
    ['control character', 'lead-imports/x\u0000.csv'],
  ])('a bad key (%s) is refused by every method', async (_what, key) => {
    const body = Readable.from([Buffer.from('x')]);
    await expect(store.put(key, body)).rejects.toBeInstanceOf(InvalidBlobKeyError);
    expect(body.destroyed).toBe(true);
    await expect(store.get(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
    await expect(store.stat(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
    await expect(store.delete(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
  });
});

describe('BlobStore configuration', () => {
  it('defaults to a local directory under var/blobs, path-style S3 in us-east-1', () => {
    expect(parseConfig(blobStoreEnv, {})).toMatchObject({
      BLOB_STORE: 'local',
      BLOB_DIR: 'var/blobs',
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: true,
    });
  });

  it('S3_FORCE_PATH_STYLE is read as text: false is false, anything else not a boolean is refused', () => {
    expect(parseConfig(blobStoreEnv, { S3_FORCE_PATH_STYLE: 'false' }).S3_FORCE_PATH_STYLE).toBe(false);
    expect(() => parseConfig(blobStoreEnv, { S3_FORCE_PATH_STYLE: 'maybe' })).toThrow(
      'Invalid configuration: S3_FORCE_PATH_STYLE: must be true or false',
    );
  });

  it('BLOB_STORE=s3 without bucket and keys: one line naming each missing setting', () => {
    const config = parseConfig(blobStoreEnv, { BLOB_STORE: 's3' });
    let error: unknown;
    try {
      createBlobStore(config);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      'Invalid configuration: S3_BUCKET: is required when BLOB_STORE=s3; S3_ACCESS_KEY_ID: is required when BLOB_STORE=s3; S3_SECRET_ACCESS_KEY: is required when BLOB_STORE=s3',
    );
  });

  it('when production would keep files in the local store, then it is refused in one line unless ALLOW_LOCAL_BLOB_STORE=true', () => {
    const local = (env: Record<string, string>) => ({ ...parseConfig(blobStoreEnv, env), NODE_ENV: 'production' });
    for (const env of [{}, { ALLOW_LOCAL_BLOB_STORE: 'false' }, { BLOB_STORE: 'local' }] as Array<Record<string, string>>) {
      expect(() => createBlobStore(local(env))).toThrow(ConfigError);
      expect(() => createBlobStore(local(env))).toThrow(/^Invalid configuration: BLOB_STORE: [^\n]*ALLOW_LOCAL_BLOB_STORE=true[^\n]*$/);
    }
    expect(createBlobStore(local({ ALLOW_LOCAL_BLOB_STORE: 'true', BLOB_DIR: tmpdir() }))).toBeInstanceOf(LocalBlobStore);
    // Outside production the local store stays the default (make start, the tests).
    expect(createBlobStore({ ...parseConfig(blobStoreEnv, { BLOB_DIR: tmpdir() }), NODE_ENV: 'development' })).toBeInstanceOf(LocalBlobStore);
    expect(() => parseConfig(blobStoreEnv, { ALLOW_LOCAL_BLOB_STORE: 'maybe' })).toThrow(/ALLOW_LOCAL_BLOB_STORE: must be true or false/);
  });

  it('the 413 names the limit in MB', () => {
    expect(new BlobTooLargeError(500 * MiB).message).toBe('File is larger than 500 MB');
    expect(new BlobTooLargeError(1.5 * MiB).message).toBe('File is larger than 1.5 MB');
    expect(new BlobTooLargeError(2048).message).toBe('File is larger than 0.002 MB');
  });
});
