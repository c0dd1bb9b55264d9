import type { Transform } from 'node:stream';
import type { Request } from 'express';
import { BlobTooLargeError } from '@warmline/platform/blob-store/index';
import { badRequest } from '@warmline/platform/errors';
import { receiveUpload } from '@warmline/platform/http/upload';
import type { LeadImportContext } from '../domain/context';
import type { IncomingFile, StoredFile } from '../domain/incoming-file';

/**
 * Streams the request's file (raw body or multipart) into the store under the file's key, through
 * its check. Issue 13 lists an oversize file among the bad files answered 400 (the message names
 * the limit).
 */
export async function receiveFile<Check extends Transform>(ctx: LeadImportContext, req: Request, file: IncomingFile<Check>): Promise<StoredFile> {
  return receiveUpload(req, { store: ctx.blobs, key: file.key, maxBytes: ctx.maxImportBytes, inspect: () => file.check }).catch((err: unknown) => {
    throw err instanceof BlobTooLargeError ? badRequest(err.message) : err;
  });
}
