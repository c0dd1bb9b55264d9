import { randomUUID } from 'node:crypto';
import {
  DNC_REGISTRY_NO_NUMBER_MESSAGE,
  DNC_REGISTRY_PAGE_SIZE,
  businessDate,
  type DncRegistryUploadPage,
  type DncRegistryUploadView,
} from '@warmline/contracts';
import { enqueue } from '@warmline/platform/bus/index';
import { withTransaction } from '@warmline/platform/db/index';
import { badRequest, notFound } from '@warmline/platform/errors';
import { findRegistryUpload, insertRegistryUpload, listRegistryUploads, type DncRegistryUploadRow } from '../db/dnc-registry';
import { SOURCE, type LeadImportContext } from '../../domain/context';
import { recordAdminAction } from '@warmline/platform/bus/admin-audit';
import type { ActingAdmin } from '@warmline/platform/identity';
import type { IncomingFile, StoredFile } from '../../domain/incoming-file';
import { RegistryFileCheck } from './registry-file-check';

/**
 * National DNC registry uploads as the admin sees them (issue 24 item 2): upload a file, follow
 * it. Like the lead import (lead-imports.ts), the file streams into the BlobStore and the
 * importer worker loads it (dnc-registry-run.ts) after a `dnc_registry.load` command.
 */

const FILE_NAME_MAX = 200;

/** Where a new registry file goes, and the check it streams through (it looks for one valid number). */
export function newRegistryFile(): IncomingFile<RegistryFileCheck> {
  const id = randomUUID();
  return { id, key: `dnc-registry/${id}.txt`, check: new RegistryFileCheck() };
}

/**
 * Once the file is stored: records the upload (dated today in the business time zone) and queues
 * its load in one transaction. An empty file or one without a valid number is a 400 and leaves
 * nothing behind.
 */
export async function startRegistryUpload(
  ctx: LeadImportContext,
  admin: ActingAdmin,
  { id, key, check }: IncomingFile<RegistryFileCheck>,
  upload: StoredFile,
  fileNameParam: string | undefined,
  correlationId: string,
): Promise<DncRegistryUploadView> {
  try {
    if (!check.hasNumber()) throw badRequest(DNC_REGISTRY_NO_NUMBER_MESSAGE);
    const fileName = cleanFileName(upload.fileName ?? fileNameParam ?? 'dnc-registry.txt');
    const createdAt = ctx.clock();
    await withTransaction(ctx.pool, async (db) => {
      await insertRegistryUpload(db, {
        id,
        fileName,
        fileKey: key,
        fileBytes: upload.bytes,
        registryDate: businessDate(createdAt, ctx.timeZone),
        userId: admin.userId,
        userName: admin.username,
        createdAt,
      });
      await enqueue(db, { type: 'dnc_registry.load', source: SOURCE, correlationId, data: { uploadId: id } });
      await recordAdminAction(db, {
        source: SOURCE,
        actor: admin,
        correlationId,
        action: 'dnc_registry.uploaded',
        subjectType: 'dnc_registry_upload',
        subjectId: id,
        subjectLabel: fileName,
        before: null,
        after: { fileName, bytes: upload.bytes },
        at: createdAt,
      });
    });
    ctx.log.info({ uploadId: id, fileName, bytes: upload.bytes }, 'DNC registry upload queued');
    return await getRegistryUpload(ctx, id);
  } catch (err) {
    await ctx.blobs.delete(key).catch((cause: unknown) => ctx.log.warn({ err: cause, key }, 'could not remove a refused registry file'));
    throw err;
  }
}

export async function getRegistryUpload(ctx: LeadImportContext, id: string): Promise<DncRegistryUploadView> {
  const row = await findRegistryUpload(ctx.pool, id);
  if (!row) throw notFound('Registry upload not found');
  return registryUploadView(row);
}

export async function listRegistryUploadsPage(ctx: LeadImportContext, page: number): Promise<DncRegistryUploadPage> {
  const { rows, total } = await listRegistryUploads(ctx.pool, page, DNC_REGISTRY_PAGE_SIZE);
  return { uploads: rows.map(registryUploadView), total, page, pageSize: DNC_REGISTRY_PAGE_SIZE };
}

function cleanFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, FILE_NAME_MAX);
  return clean || 'dnc-registry.txt';
}

function registryUploadView(row: DncRegistryUploadRow): DncRegistryUploadView {
  const fileBytes = Number(row.file_bytes);
  const bytesRead = Number(row.bytes_read);
  const progressPercent = row.status === 'done' ? 100 : fileBytes > 0 ? Math.min(99, Math.floor((bytesRead / fileBytes) * 100)) : 0;
  return {
    id: row.id,
    fileName: row.file_name,
    registryDate: row.registry_date,
    status: row.status,
    linesRead: Number(row.lines_read),
    numbersLoaded: Number(row.numbers_loaded),
    invalidLines: Number(row.invalid_lines),
    areaCodes: row.area_codes,
    fileBytes,
    bytesRead,
    progressPercent,
    error: row.error,
    uploadedBy: { userId: row.created_by_user_id, name: row.created_by_name },
    createdAt: row.created_at.toISOString(),
    startedAt: row.started_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}
