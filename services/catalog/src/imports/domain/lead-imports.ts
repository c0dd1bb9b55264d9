import { randomUUID } from 'node:crypto';
import {
  LEAD_IMPORT_COLUMNS,
  LEAD_IMPORT_PAGE_SIZE,
  type LeadImportCreated,
  type LeadImportPage,
  type LeadImportView,
} from '@warmline/contracts';
import { matchLeadImportHeader } from './import-header';
import { enqueue } from '@warmline/platform/bus/index';
import { withTransaction, type Queryable } from '@warmline/platform/db/index';
import { badRequest, conflict, notFound } from '@warmline/platform/errors';
import { csvField } from '@warmline/platform/csv';
import {
  findLeadImport,
  finishLeadImport,
  insertLeadImport,
  listLeadImports,
  markLeadImportUndone,
  requestLeadImportCancel,
  rowErrorsAfter,
  type LeadImportRow,
} from '../db/lead-imports';
import { withdrawUnsoldLeads } from '../../market/db/withdrawn-leads';
import { SOURCE, type LeadImportContext } from '../../domain/context';
import { ImportFileCheck } from './import-file-check';
import type { IncomingFile, StoredFile } from '../../domain/incoming-file';
import { recordAdminAction } from '@warmline/platform/bus/admin-audit';
import type { ActingAdmin } from '@warmline/platform/identity';
import { endOfImportMessages } from './lead-import-events';

/**
 * Aged-lead imports as the admin sees them (issue 13): upload a file, follow it, cancel it,
 * read its report of refused rows, undo it. The rows themselves are loaded by the importer
 * worker (lead-import-run.ts); this side only stores the file and queues the work.
 */

const FILE_NAME_MAX = 200;

/** Where a new import's file goes, and the check it streams through (UTF-8 text, a header with the required columns, at least one row). */
export function newLeadImportFile(): IncomingFile<ImportFileCheck> {
  const id = randomUUID();
  return { id, key: `lead-imports/${id}.csv`, check: new ImportFileCheck() };
}

/**
 * Once the file is stored: records the import and queues `import.run` in one transaction. A bad
 * file is a 400 and leaves nothing behind: no file, no job.
 */
export async function startLeadImport(
  ctx: LeadImportContext,
  admin: ActingAdmin,
  { id, key, check }: IncomingFile<ImportFileCheck>,
  upload: StoredFile,
  fileNameParam: string | undefined,
  correlationId: string,
): Promise<LeadImportCreated> {
  try {
    const header = matchLeadImportHeader(check.headerCells());
    if (!header.ok) throw badRequest(noHeader(header.missing.length) ? NO_HEADER_MESSAGE : header.message);
    const fileName = cleanFileName(upload.fileName ?? fileNameParam ?? 'leads.csv');
    const createdAt = ctx.clock();
    await withTransaction(ctx.pool, async (db) => {
      await insertLeadImport(db, {
        id,
        fileName,
        fileKey: key,
        fileBytes: upload.bytes,
        fileSha256: upload.sha256,
        rowsTotal: check.dataLines(),
        notice: header.notice,
        startedByUserId: admin.userId,
        startedByName: admin.username,
        createdAt,
      });
      await enqueue(db, { type: 'import.run', source: SOURCE, correlationId, data: { importId: id } });
      await audit(db, admin, correlationId, {
        action: 'lead_import.started',
        importId: id,
        label: fileName,
        after: { fileName, bytes: upload.bytes, rows: check.dataLines() },
        at: createdAt,
      });
    });
    ctx.log.info({ importId: id, fileName, bytes: upload.bytes, rows: check.dataLines() }, 'lead import queued');
    return { id, notice: header.notice };
  } catch (err) {
    await ctx.blobs.delete(key).catch((cause: unknown) => ctx.log.warn({ err: cause, key }, 'could not remove a refused import file'));
    throw err;
  }
}

const NO_HEADER_MESSAGE = `The file has no header row: its first line must name the columns (${LEAD_IMPORT_COLUMNS.join(', ')})`;

/** Every required column missing: the first line is data, not a header. */
function noHeader(missing: number): boolean {
  return missing >= 4;
}

/** The file name as shown in the admin and in `import:<file name>` sources: no path, no control characters. */
function cleanFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, FILE_NAME_MAX);
  return clean || 'leads.csv';
}

export async function getLeadImport(ctx: LeadImportContext, id: string): Promise<LeadImportView> {
  const job = await findLeadImport(ctx.pool, id);
  if (!job) throw notFound('Import not found');
  return leadImportView(job);
}

export async function listPastLeadImports(ctx: LeadImportContext, page: number): Promise<LeadImportPage> {
  const { rows, total } = await listLeadImports(ctx.pool, page, LEAD_IMPORT_PAGE_SIZE);
  return { imports: rows.map(leadImportView), total, page, pageSize: LEAD_IMPORT_PAGE_SIZE };
}

/**
 * Stops an import: a queued one ends at once; a running one ends after the batch in hand
 * (what is loaded stays, to be undone if unwanted).
 */
export async function cancelLeadImport(ctx: LeadImportContext, admin: ActingAdmin, id: string, correlationId: string): Promise<LeadImportView> {
  const job = await withTransaction(ctx.pool, async (db) => {
    const found = await findLeadImport(db, id, { lock: true });
    if (!found) throw notFound('Import not found');
    if (found.finished_at) throw conflict(`The import has already ended (${found.status})`);
    const at = ctx.clock();
    let after: LeadImportRow = found;
    if (found.status === 'queued') {
      after = (await finishLeadImport(db, id, 'cancelled', at))!;
      for (const message of endOfImportMessages(after, correlationId)) await enqueue(db, message);
    } else {
      await requestLeadImportCancel(db, id, at);
      after = (await findLeadImport(db, id))!;
    }
    await audit(db, admin, correlationId, { action: 'lead_import.cancelled', importId: id, label: found.file_name, before: { status: found.status }, after: { status: 'cancelled' }, at });
    return after;
  });
  return leadImportView(job);
}

/** Withdraws the import's leads nobody has bought; sold ones stay with their buyers. Once. */
export async function undoLeadImport(ctx: LeadImportContext, admin: ActingAdmin, id: string, correlationId: string): Promise<LeadImportView> {
  const job = await withTransaction(ctx.pool, async (db) => {
    const found = await findLeadImport(db, id, { lock: true });
    if (!found) throw notFound('Import not found');
    if (!found.finished_at) throw conflict('The import is still running: cancel it first, then undo it');
    if (found.undone_at) throw conflict('The import has already been undone');
    const at = ctx.clock();
    const withdrawn = await withdrawUnsoldLeads(db, { importId: id }, 'import-undone', at);
    const after = await markLeadImportUndone(db, id, admin.userId, at, withdrawn.length);
    await enqueue(db, {
      type: 'leads.withdrawn',
      source: SOURCE,
      correlationId,
      data: { reason: 'import-undone', importId: id, leadCount: withdrawn.length, withdrawnAt: at.toISOString() },
    });
    await audit(db, admin, correlationId, { action: 'lead_import.undone', importId: id, label: found.file_name, before: { rowsImported: found.rows_imported }, after: { leadsWithdrawn: withdrawn.length }, at });
    return after;
  });
  ctx.log.info({ importId: id, withdrawn: job.rows_withdrawn }, 'lead import undone');
  return leadImportView(job);
}

const REPORT_PAGE = 5_000;

/** The report of refused rows as CSV lines (Row, Column, Message), read from the database page by page. */
export async function* leadImportErrorReport(ctx: LeadImportContext, id: string): AsyncGenerator<string> {
  const job = await findLeadImport(ctx.pool, id);
  if (!job) throw notFound('Import not found');
  yield 'Row,Column,Message\r\n';
  let after = { rowNumber: 0, seq: -1 };
  for (;;) {
    const rows = await rowErrorsAfter(ctx.pool, id, after, REPORT_PAGE);
    if (rows.length === 0) return;
    yield rows.map((r) => `${r.row_number},${csvField(r.column_name)},${csvField(r.message)}\r\n`).join('');
    const last = rows[rows.length - 1]!;
    after = { rowNumber: last.row_number, seq: last.seq };
  }
}

function leadImportView(job: LeadImportRow): LeadImportView {
  return {
    id: job.id,
    status: job.status,
    fileName: job.file_name,
    rowsRead: job.rows_read,
    rowsImported: job.rows_imported,
    rowsRejected: job.rows_rejected,
    rowsDuplicate: job.rows_duplicate,
    startedAt: job.started_at?.toISOString() ?? null,
    finishedAt: job.finished_at?.toISOString() ?? null,
    error: job.error,
    rowsTotal: job.rows_total,
    fileBytes: Number(job.file_bytes),
    bytesRead: Number(job.bytes_read),
    createdAt: job.created_at.toISOString(),
    startedBy: { userId: job.started_by_user_id, name: job.started_by_name },
    notice: job.notice,
    cancelRequested: job.cancel_requested_at !== null,
    undoneAt: job.undone_at?.toISOString() ?? null,
    rowsWithdrawn: job.rows_withdrawn,
  };
}

async function audit(
  db: Queryable,
  admin: ActingAdmin,
  correlationId: string,
  entry: { action: string; importId: string; label: string; before?: Record<string, unknown>; after: Record<string, unknown>; at: Date },
): Promise<void> {
  await recordAdminAction(db, {
    source: SOURCE,
    actor: admin,
    correlationId,
    action: entry.action,
    subjectType: 'lead_import',
    subjectId: entry.importId,
    subjectLabel: entry.label,
    before: entry.before ?? null,
    after: entry.after,
    at: entry.at,
  });
}
