import type { Writable } from 'node:stream';
import { from as copyFrom } from 'pg-copy-streams';
import type { PoolClient, Queryable } from '@warmline/platform/db/index';

/** The national do-not-call registry's uploads and numbers (issue 24, migration 1769600000001). */

/** A row of dnc_registry_uploads. */
export interface DncRegistryUploadRow {
  id: string;
  file_name: string;
  file_key: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  registry_date: string;
  lines_read: string;
  numbers_loaded: string;
  invalid_lines: string;
  area_codes: string[];
  file_bytes: string;
  bytes_read: string;
  error: string | null;
  created_by_user_id: string;
  created_by_name: string;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const UPLOAD_COLUMNS = `id, file_name, file_key, status, to_char(registry_date, 'YYYY-MM-DD') AS registry_date, lines_read, numbers_loaded,
  invalid_lines, area_codes, file_bytes, bytes_read, error, created_by_user_id, created_by_name, created_at, started_at, finished_at`;

export async function insertRegistryUpload(
  db: Queryable,
  u: { id: string; fileName: string; fileKey: string; fileBytes: number; registryDate: string; userId: string; userName: string; createdAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO dnc_registry_uploads (id, file_name, file_key, file_bytes, registry_date, created_by_user_id, created_by_name, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [u.id, u.fileName, u.fileKey, u.fileBytes, u.registryDate, u.userId, u.userName, u.createdAt],
  );
}

export async function findRegistryUpload(db: Queryable, id: string): Promise<DncRegistryUploadRow | null> {
  const { rows } = await db.query<DncRegistryUploadRow>(`SELECT ${UPLOAD_COLUMNS} FROM dnc_registry_uploads WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

export async function listRegistryUploads(db: Queryable, page: number, pageSize: number): Promise<{ rows: DncRegistryUploadRow[]; total: number }> {
  const { rows } = await db.query<DncRegistryUploadRow & { total: string }>(
    `SELECT ${UPLOAD_COLUMNS}, count(*) OVER () AS total FROM dnc_registry_uploads
      ORDER BY created_at DESC, id DESC OFFSET $1 LIMIT $2`,
    [(page - 1) * pageSize, pageSize],
  );
  const total = rows[0] ? Number(rows[0].total) : (await db.query<{ n: string }>('SELECT count(*) AS n FROM dnc_registry_uploads')).rows[0]!.n;
  return { rows, total: Number(total) };
}

export async function unfinishedRegistryUploadIds(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM dnc_registry_uploads WHERE finished_at IS NULL ORDER BY created_at, id');
  return rows.map((r) => r.id);
}

export async function markRegistryUploadRunning(db: Queryable, id: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE dnc_registry_uploads SET status = 'running', started_at = coalesce(started_at, $2), lines_read = 0, numbers_loaded = 0,
            invalid_lines = 0, bytes_read = 0, area_codes = '{}' WHERE id = $1`,
    [id, at],
  );
}

export async function recordRegistryProgress(db: Queryable, id: string, p: { linesRead: number; invalidLines: number; bytesRead: number }): Promise<void> {
  await db.query('UPDATE dnc_registry_uploads SET lines_read = $2, invalid_lines = $3, bytes_read = $4 WHERE id = $1', [id, p.linesRead, p.invalidLines, p.bytesRead]);
}

export async function failRegistryUpload(db: Queryable, id: string, error: string, at: Date): Promise<void> {
  await db.query(`UPDATE dnc_registry_uploads SET status = 'failed', error = $2, finished_at = $3 WHERE id = $1 AND finished_at IS NULL`, [id, error.slice(0, 500), at]);
}

/**
 * Swaps the staged numbers (temporary table dnc_registry_staging on this connection) in as the
 * registry of every area code they hold, and ends the upload as done — in one transaction the
 * caller holds, so a reader sees the old registry of those area codes or the new one, never half.
 * Swaps take one transaction-scoped lock, so two workers' swaps run one after the other.
 */
export async function swapInRegistry(
  db: Queryable,
  p: { uploadId: string; registryDate: string; linesRead: number; invalidLines: number; bytesRead: number; at: Date },
): Promise<{ areaCodes: string[]; numbersLoaded: number }> {
  const { rows: codes } = await db.query<{ area_code: string }>(
    `SELECT DISTINCT left(phone, 3) AS area_code FROM dnc_registry_staging ORDER BY 1`,
  );
  const areaCodes = codes.map((c) => c.area_code);
  await db.query("SELECT pg_advisory_xact_lock(hashtextextended('dnc-registry-swap', 0))");
  // One range of the primary key per area code (digits only: the same order in any collation).
  await db.query(
    `DELETE FROM dnc_registry_numbers n USING unnest($1::text[]) AS a (code)
      WHERE n.phone BETWEEN a.code || '0000000' AND a.code || '9999999'`,
    [areaCodes],
  );
  const inserted = await db.query(
    `INSERT INTO dnc_registry_numbers (phone, upload_id) SELECT DISTINCT phone, $1::uuid FROM dnc_registry_staging`,
    [p.uploadId],
  );
  await db.query(
    `INSERT INTO dnc_registry_area_codes (area_code, upload_id, registry_date)
     SELECT unnest($1::text[]), $2, $3::date
     ON CONFLICT (area_code) DO UPDATE SET upload_id = EXCLUDED.upload_id, registry_date = EXCLUDED.registry_date`,
    [areaCodes, p.uploadId, p.registryDate],
  );
  await db.query(
    `UPDATE dnc_registry_uploads SET status = 'done', lines_read = $2, invalid_lines = $3, bytes_read = $4, numbers_loaded = $5,
            area_codes = $6, finished_at = $7 WHERE id = $1`,
    [p.uploadId, p.linesRead, p.invalidLines, p.bytesRead, inserted.rowCount ?? 0, areaCodes, p.at],
  );
  return { areaCodes, numbersLoaded: inserted.rowCount ?? 0 };
}

/**
 * The SET list recording a row's registry check at sale (migration 1769600000000): the date of
 * the registry covering its area code and whether its phone was on it; both NULL when no upload
 * covered the area code. `t` names the table or alias whose `phone` is checked.
 */
export function registryCheckAtSale(t: string): string {
  const covering = `(SELECT a.registry_date FROM dnc_registry_area_codes a WHERE a.area_code = left(${t}.phone, 3))`;
  return `dnc_registry_checked_on = ${covering},
            dnc_registry_match = CASE WHEN ${covering} IS NULL THEN NULL
                                      ELSE EXISTS (SELECT 1 FROM dnc_registry_numbers n WHERE n.phone = ${t}.phone) END`;
}

/** Those of `leadIds` the registry keeps off sale (on it, no consent certificate): docs/adr/0033. */
export async function registryBlockedLeadIds(db: Queryable, leadIds: readonly string[]): Promise<string[]> {
  if (leadIds.length === 0) return [];
  const { rows } = await db.query<{ id: string }>(
    `SELECT l.id FROM aged_leads l
      WHERE l.id = ANY($1::uuid[]) AND l.consent_certificate IS NULL
        AND EXISTS (SELECT 1 FROM dnc_registry_numbers n WHERE n.phone = l.phone)`,
    [leadIds],
  );
  return rows.map((r) => r.id);
}

/**
 * Whether the national DNC registry keeps lead `l` off the market (docs/adr/0033): its phone is
 * on the registry and it has no consent certificate (prior express written consent exempts it),
 * or — when `hideAll` is true — its phone is on the registry at all. One primary-key probe.
 */
export function registryHidden(l: string, hideAll: string): string {
  return `(EXISTS (SELECT 1 FROM dnc_registry_numbers dnc WHERE dnc.phone = ${l}.phone) AND (${l}.consent_certificate IS NULL OR ${hideAll}))`;
}

/**
 * A fresh session-local staging table for one registry file, and the COPY stream into it (one
 * number a line). The numbers stay out of the registry until swapInRegistry.
 */
export async function copyIntoRegistryStaging(client: PoolClient): Promise<Writable> {
  await dropRegistryStaging(client);
  await client.query('CREATE TEMPORARY TABLE dnc_registry_staging (phone text NOT NULL)');
  return client.query(copyFrom('COPY dnc_registry_staging (phone) FROM STDIN'));
}

export async function dropRegistryStaging(client: PoolClient): Promise<void> {
  await client.query('DROP TABLE IF EXISTS pg_temp.dnc_registry_staging');
}

/** The planner's picture of the registry after millions of rows changed (the market's anti-join leans on it). */
export async function analyzeRegistryNumbers(db: Queryable): Promise<void> {
  await db.query('ANALYZE dnc_registry_numbers');
}
