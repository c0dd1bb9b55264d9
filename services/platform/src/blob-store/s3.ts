import { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  S3Client,
  type BucketLocationConstraint,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  BlobNotFoundError,
  assertBlobKey,
  discardBody,
  meteredChunks,
  type BlobStore,
  type PutOptions,
  type StoredBlob,
} from './blob';

export interface S3BlobStoreOptions {
  bucket: string;
  region: string;
  /** Unset for AWS itself; MinIO's (or another S3-compatible server's) address otherwise. */
  endpoint?: string | undefined;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** Bytes per multipart part (at least S3's 5 MB); what one upload holds in memory per part in flight. */
  partSize?: number;
}

/** Parts uploaded at once: memory per upload is about (this + 1) × partSize. */
const PARTS_IN_FLIGHT = 2;
const MIN_PART_SIZE = 5 * 1024 * 1024;

/**
 * Blobs as objects of one S3-compatible bucket (MinIO under docker-compose), created if it does
 * not exist. A put streams through a multipart upload (never the whole body in memory); on the
 * size limit or a stream error the upload is aborted, so no object appears at the key.
 * A bucket lifecycle rule that aborts incomplete multipart uploads after a day is the backstop
 * for an abort that itself failed (a crash, S3 unreachable at that moment).
 */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private bucketReady: Promise<void> | undefined;

  constructor(private readonly options: S3BlobStoreOptions) {
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      forcePathStyle: options.forcePathStyle,
      // Checksums only where S3 requires them: S3-compatible servers (older MinIO, s3rver)
      // refuse or mishandle the SDK's default CRC32 trailers; the sha256 we compute covers integrity.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // A store that does not answer fails fast (readiness, a request) instead of hanging. No
      // socket idle timeout: a reader may pause a download for as long as its work takes.
      requestHandler: { connectionTimeout: 5_000 },
    });
  }

  async put(key: string, body: NodeJS.ReadableStream | Readable, options: PutOptions = {}): Promise<StoredBlob> {
    const metered = meteredChunks(body, options.maxBytes);
    // What the body itself failed with (the limit, a stream error) is the answer, not the
    // Upload's own error about it (or about an abort that failed after it).
    let bodyError: unknown;
    const chunks = metered.chunks;
    async function* watched(): AsyncGenerator<Buffer> {
      try {
        yield* chunks;
      } catch (err) {
        bodyError = err;
        throw err;
      }
    }
    const source = Readable.from(watched(), { objectMode: false });
    try {
      assertBlobKey(key);
      await this.ensureBucketOnce();
      const upload = new Upload({
        client: this.client,
        params: {
          Bucket: this.options.bucket,
          Key: key,
          Body: source,
          ...(options.contentType ? { ContentType: options.contentType } : {}),
        },
        queueSize: PARTS_IN_FLIGHT,
        partSize: Math.max(this.options.partSize ?? MIN_PART_SIZE, MIN_PART_SIZE),
        leavePartsOnError: false,
      });
      // A failing body fails the Upload, which aborts its multipart upload before rejecting
      // (Upload.abort() would reject at once and leave the abort running behind our back).
      await upload.done();
      return { key, ...metered.result() };
    } catch (err) {
      source.destroy();
      await chunks.return(undefined);
      discardBody(body);
      throw bodyError ?? err;
    }
  }

  async get(key: string, options: { start?: number } = {}): Promise<Readable> {
    assertBlobKey(key);
    const start = options.start ?? 0;
    if (!Number.isSafeInteger(start) || start < 0) throw new RangeError(`start must be a whole number of bytes, got ${start}`);
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.options.bucket, Key: key, ...(start > 0 ? { Range: `bytes=${start}-` } : {}) }),
      );
      if (!(answer.Body instanceof Readable)) throw new Error('S3 answered without a readable body');
      return answer.Body;
    } catch (err) {
      if (isMissingObject(err)) throw new BlobNotFoundError(key);
      // An offset at or past the end: nothing left to read, as a file read from there gives.
      if (statusOf(err) === 416) return Readable.from([]);
      throw err;
    }
  }

  async stat(key: string): Promise<{ bytes: number } | null> {
    assertBlobKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return { bytes: head.ContentLength ?? 0 };
    } catch (err) {
      if (statusOf(err) === 404) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertBlobKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
    } catch (err) {
      // No bucket yet: nothing was ever stored, so nothing to delete.
      if (errorName(err) === 'NoSuchBucket') return;
      throw err;
    }
  }

  /** Reaches the bucket every time (creating it if missing): a readiness check must not remember. */
  async check(): Promise<void> {
    await this.ensureBucket();
  }

  /** Puts find the bucket once per store; a failed attempt is tried again by the next put. */
  private ensureBucketOnce(): Promise<void> {
    this.bucketReady ??= this.ensureBucket().catch((err: unknown) => {
      this.bucketReady = undefined;
      throw err;
    });
    return this.bucketReady;
  }

  private async ensureBucket(): Promise<void> {
    const Bucket = this.options.bucket;
    try {
      await this.client.send(new HeadBucketCommand({ Bucket }));
      return;
    } catch (err) {
      if (statusOf(err) !== 404) throw err;
    }
    try {
      // us-east-1 is S3's default and refuses being named as a location constraint.
      const location = this.options.region === 'us-east-1' ? {} : { CreateBucketConfiguration: { LocationConstraint: this.options.region as BucketLocationConstraint } };
      await this.client.send(new CreateBucketCommand({ Bucket, ...location }));
    } catch (err) {
      // Another process created it in the meantime.
      if (errorName(err) !== 'BucketAlreadyOwnedByYou') throw err;
    }
  }
}

function statusOf(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
}

function errorName(err: unknown): string | undefined {
  return err instanceof Error ? err.name : undefined;
}

function isMissingObject(err: unknown): boolean {
  const name = errorName(err);
  return name === 'NoSuchKey' || name === 'NotFound';
}
