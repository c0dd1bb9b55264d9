import type { Readable } from 'node:stream';
import { z } from 'zod';
import { ConfigError } from '../config';
import type { BlobStore, PutOptions, StoredBlob } from './blob';
import { LocalBlobStore } from './local';
import type { S3BlobStoreOptions } from './s3';

// The store's interface, errors and helpers live in ./blob, which local.ts and s3.ts import (no cycle).
export * from './blob';

/**
 * Text 'true'/'false' (and 1/0, yes/no) as a boolean: z.coerce.boolean() would read 'false' as
 * true. A boolean passes as it is, so a parsed configuration parses again to itself.
 */
const booleanText = z.union(
  [
    z.boolean(),
    z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((text) => text === 'true' || text === '1' || text === 'yes'),
  ],
  { error: 'must be true or false' },
);

/** Env entries of the BlobStore; services spread them into their env like baseEnv. */
export const blobStoreEnv = {
  /** 'local': files under BLOB_DIR; 's3': an S3-compatible bucket (MinIO under docker-compose). */
  BLOB_STORE: z.enum(['local', 's3']).default('local'),
  /** The local store's directory (relative to the working directory), created if missing. */
  BLOB_DIR: z.string().min(1).default('var/blobs'),
  /** Unset for AWS itself; MinIO's address otherwise, e.g. http://minio:9000. */
  S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3-63 lower-case letters, digits, dots or hyphens')
    .optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** MinIO and most S3-compatible servers want bucket-in-path URLs; AWS works either way. */
  S3_FORCE_PATH_STYLE: booleanText.default(true),
  /**
   * 'true' lets production keep files in BLOB_DIR, on purpose: one host's disk, which a second
   * replica elsewhere cannot read and the S3 backup does not take.
   */
  ALLOW_LOCAL_BLOB_STORE: booleanText.default(false),
};

type BlobStoreConfig = z.infer<z.ZodObject<typeof blobStoreEnv>>;

/** What createBlobStore reads: the store's settings and the service's NODE_ENV (unset outside production). */
type BlobStoreSettings = Omit<BlobStoreConfig, 'ALLOW_LOCAL_BLOB_STORE'> & { ALLOW_LOCAL_BLOB_STORE?: boolean; NODE_ENV?: string };

/**
 * With BLOB_STORE=s3 the bucket and both keys are required; production refuses the local store
 * unless ALLOW_LOCAL_BLOB_STORE=true. A raw shape spread into a service's
 * env cannot refine across fields, so this runs where the store is made; its ConfigError stops
 * the service with one line, as a bad variable does (runService).
 */
function blobStoreProblems(config: BlobStoreSettings): string[] {
  if (config.BLOB_STORE === 'local') {
    return config.NODE_ENV === 'production' && !config.ALLOW_LOCAL_BLOB_STORE
      ? ['BLOB_STORE: local keeps files on one host\'s disk; production needs BLOB_STORE=s3, or ALLOW_LOCAL_BLOB_STORE=true on purpose']
      : [];
  }
  const required = ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
  return required.filter((name) => !config[name]).map((name) => `${name}: is required when BLOB_STORE=s3`);
}

/**
 * The store the configuration names; throws ConfigError when the settings cannot work, or when
 * production (NODE_ENV, from the service's baseEnv) would use the local store not allowed on purpose.
 */
export function createBlobStore(config: BlobStoreSettings): BlobStore {
  const problems = blobStoreProblems(config);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  if (config.BLOB_STORE === 'local') return new LocalBlobStore(config.BLOB_DIR);
  return new DeferredS3BlobStore({
    bucket: config.S3_BUCKET!,
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    accessKeyId: config.S3_ACCESS_KEY_ID!,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  });
}

/**
 * The S3 store, loaded at its first use: the AWS SDK costs a process ~30 MB of memory, which a
 * process on the local store (the default, and the importer's memory target) should not pay.
 */
class DeferredS3BlobStore implements BlobStore {
  private store: Promise<BlobStore> | null = null;

  constructor(private readonly options: S3BlobStoreOptions) {}

  private load(): Promise<BlobStore> {
    this.store ??= import('./s3').then(({ S3BlobStore }) => new S3BlobStore(this.options));
    return this.store;
  }

  async put(key: string, body: NodeJS.ReadableStream | Readable, options?: PutOptions): Promise<StoredBlob> {
    return (await this.load()).put(key, body, options);
  }

  async get(key: string, options?: { start?: number }): Promise<Readable> {
    return (await this.load()).get(key, options);
  }

  async stat(key: string): Promise<{ bytes: number } | null> {
    return (await this.load()).stat(key);
  }

  async delete(key: string): Promise<void> {
    return (await this.load()).delete(key);
  }

  async check(): Promise<void> {
    return (await this.load()).check();
  }
}
