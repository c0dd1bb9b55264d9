import type { Queryable } from '@warmline/platform/db/index';
import type { LeadImportStatus } from '@warmline/contracts';

/** Queries of lead_imports and lead_import_errors (issue 13). */

export interface LeadImportRow {
  id: string;
  status: LeadImportStatus;
  file_name: string;
  file_key: string;
  file_bytes: string;
  file_sha256: string;
  rows_total: number;
  notice: string | null;
  started_by_user_id: string;
  started_by_name: string;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  rows_read: number;
  rows_imported: number;
  rows_rejected: number;
  rows_duplicate: number;
  bytes_read: string;
  error: string | null;
  cancel_requested_at: Date | null;
  undone_at: Date | null;
  rows_withdrawn: number | null;
  file_deleted_at: Date | null;
}

export interface NewLeadImport {
  id: string;
  fileName: string;
  fileKey: string;
  fileBytes: number;
  fileSha256: string;
  rowsTotal: number;
  notice: string | null;
  startedByUserId: string;
  startedByName: string;
  createdAt: Date;
}

export async function insertLeadImport(db: Queryable, job: NewLeadImport): Promise<void> {
  await db.query(
    `INSERT INTO lead_imports (id, file_name, file_key, file_bytes, file_sha256, rows_total, notice,
                               started_by_user_id, started_by_name, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [job.id, job.fileName, job.fileKey, job.fileBytes, job.fileSha256, job.rowsTotal, job.notice, job.startedByUserId, job.startedByName, job.createdAt],
  );
}

export async function findLeadImport(db: Queryable, id: string, options: { lock?: boolean } = {}): Promise<LeadImportRow | null> {
  const { rows } = await db.query<LeadImportRow>(`SELECT * FROM lead_imports WHERE id = $1${options.lock ? ' FOR UPDATE' : ''}`, [id]);
  return rows[0] ?? null;
}

export async function listLeadImports(db: Queryable, page: number, pageSize: number): Promise<{ rows: LeadImportRow[]; total: number }> {
  const [list, count] = await Promise.all([
    db.query<LeadImportRow>('SELECT * FROM lead_imports ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2', [pageSize, (page - 1) * pageSize]),
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM lead_imports'),
  ]);
  return { rows: list.rows, total: count.rows[0]?.n ?? 0 };
}

/** Imports that should be running: queued, or running with no worker (found by the recovery scan). */
export async function unfinishedLeadImportIds(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM lead_imports WHERE status IN ('queued', 'running') ORDER BY created_at, id`,
  );
  return rows.map((r) => r.id);
}

export async function markLeadImportRunning(db: Queryable, id: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE lead_imports SET status = 'running', started_at = coalesce(started_at, $2) WHERE id = $1 AND status IN ('queued', 'running')`,
    [id, at],
  );
}

export interface BatchProgress {
  rowsRead: number;
  bytesRead: number;
  imported: number;
  rejected: number;
  duplicate: number;
}

/** Adds a committed batch's counts; returns the totals after it. */
export async function addBatchProgress(db: Queryable, id: string, p: BatchProgress): Promise<LeadImportRow> {
  const { rows } = await db.query<LeadImportRow>(
    `UPDATE lead_imports
        SET rows_read = $2, bytes_read = $3,
            rows_imported = rows_imported + $4, rows_rejected = rows_rejected + $5, rows_duplicate = rows_duplicate + $6
      WHERE id = $1 RETURNING *`,
    [id, p.rowsRead, p.bytesRead, p.imported, p.rejected, p.duplicate],
  );
  return rows[0]!;
}

/** Ends an import that has not ended yet; null when it already had (so its end is told once). */
export async function finishLeadImport(
  db: Queryable,
  id: string,
  status: 'done' | 'failed' | 'cancelled',
  at: Date,
  error: string | null = null,
): Promise<LeadImportRow | null> {
  const { rows } = await db.query<LeadImportRow>(
    `UPDATE lead_imports SET status = $2, finished_at = $3, error = $4
      WHERE id = $1 AND status IN ('queued', 'running') RETURNING *`,
    [id, status, at, error],
  );
  return rows[0] ?? null;
}

export async function requestLeadImportCancel(db: Queryable, id: string, at: Date): Promise<void> {
  await db.query('UPDATE lead_imports SET cancel_requested_at = coalesce(cancel_requested_at, $2) WHERE id = $1', [id, at]);
}

export async function markLeadImportUndone(db: Queryable, id: string, by: string, at: Date, withdrawn: number): Promise<LeadImportRow> {
  const { rows } = await db.query<LeadImportRow>(
    'UPDATE lead_imports SET undone_at = $3, undone_by_user_id = $2, rows_withdrawn = $4 WHERE id = $1 RETURNING *',
    [id, by, at, withdrawn],
  );
  return rows[0]!;
}

export interface RowError {
  rowNumber: number;
  column: string;
  message: string;
}

/** Stores a batch's refused rows (several problems of one row get seq 0, 1, …). */
export async function insertRowErrors(db: Queryable, importId: string, errors: RowError[]): Promise<void> {
  if (errors.length === 0) return;
  const seqOf = new Map<number, number>();
  const rowNumbers: number[] = [];
  const columns: string[] = [];
  const messages: string[] = [];
  const seqs: number[] = [];
  for (const e of errors) {
    const seq = seqOf.get(e.rowNumber) ?? 0;
    seqOf.set(e.rowNumber, seq + 1);
    rowNumbers.push(e.rowNumber);
    columns.push(e.column);
    messages.push(e.message);
    seqs.push(seq);
  }
  await db.query(
    `INSERT INTO lead_import_errors (import_id, row_number, column_name, message, seq)
     SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::int2[])
     ON CONFLICT DO NOTHING`,
    [importId, rowNumbers, columns, messages, seqs],
  );
}

/** One page of an import's row errors in row order, after (row, seq) — for streaming the report. */
export async function rowErrorsAfter(
  db: Queryable,
  importId: string,
  after: { rowNumber: number; seq: number },
  limit: number,
): Promise<Array<{ row_number: number; seq: number; column_name: string; message: string }>> {
  const { rows } = await db.query<{ row_number: number; seq: number; column_name: string; message: string }>(
    `SELECT row_number, seq, column_name, message FROM lead_import_errors
      WHERE import_id = $1 AND (row_number, seq) > ($2, $3)
      ORDER BY row_number, seq LIMIT $4`,
    [importId, after.rowNumber, after.seq, limit],
  );
  return rows;
}

/** Imports whose file has outlived its retention (ended before `endedBefore`) and is still stored. */
export async function importFilesToDelete(db: Queryable, endedBefore: Date, limit: number): Promise<Array<{ id: string; file_key: string }>> {
  const { rows } = await db.query<{ id: string; file_key: string }>(
    `SELECT id, file_key FROM lead_imports
      WHERE file_deleted_at IS NULL AND finished_at IS NOT NULL AND finished_at < $1
      ORDER BY finished_at LIMIT $2`,
    [endedBefore, limit],
  );
  return rows;
}

export async function markImportFileDeleted(db: Queryable, id: string, at: Date): Promise<void> {
  await db.query('UPDATE lead_imports SET file_deleted_at = $2 WHERE id = $1', [id, at]);
}

/** The planner's picture of aged_leads after a large load (the market's plans lean on it, docs/adr/0008). */
export async function analyzeAgedLeads(db: Queryable): Promise<void> {
  await db.query('ANALYZE aged_leads');
}
