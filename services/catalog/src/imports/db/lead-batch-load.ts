import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { from as copyFrom } from 'pg-copy-streams';
import type { PoolClient } from '@warmline/platform/db/index';
import { timeOrderedUuid } from '@warmline/platform/ids';
import type { ImportedLead } from '@warmline/contracts';

/**
 * Loads a batch of validated leads into the inventory (issue 13), inside the caller's
 * transaction: COPY into a temporary table, then one INSERT … SELECT that skips suppressed
 * phones and duplicates — the same phone on the same form-fill day (in the business time zone)
 * as a lead already stored, sold or not, or earlier in the batch. Earlier batches of the same
 * file are already stored, so a duplicate across batches is caught the same way, and running a
 * file again imports nothing. Loads take one advisory lock, so two imports (or an import and the
 * JSON API) never let the same duplicate in at once.
 */

const LOAD_LOCK_KEY = 'catalog.lead-batch-load';

/** The lock every lead load takes for its transaction (the suppression list takes it too). */
export async function lockLeadLoads(client: PoolClient): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [LOAD_LOCK_KEY]);
}

export interface BatchLead {
  /** Spreadsheet row (the header is row 1); 0 for JSON leads. */
  rowNumber: number;
  lead: ImportedLead;
}

export interface BatchOutcome {
  /** The rows stored, in row order, and the ids they were stored under. */
  insertedRows: number[];
  insertedIds: string[];
  /** Rows whose phone is on the suppression list. */
  suppressedRows: number[];
  /** Rows skipped as duplicates. */
  duplicateRows: number[];
}

export async function loadLeadBatch(
  client: PoolClient,
  leads: BatchLead[],
  options: { importId: string | null; timeZone: string },
): Promise<BatchOutcome> {
  if (leads.length === 0) return { insertedRows: [], insertedIds: [], suppressedRows: [], duplicateRows: [] };
  await lockLeadLoads(client);
  await client.query(
    `CREATE TEMP TABLE IF NOT EXISTS lead_batch (
       row_number integer NOT NULL, id uuid NOT NULL, name text NOT NULL, phone text NOT NULL, email text,
       state text NOT NULL, zip text, form_fill_time timestamptz NOT NULL, source text NOT NULL,
       consent_certificate text, consent_time timestamptz, consent_ip inet
     ) ON COMMIT DELETE ROWS`,
  );
  await client.query('TRUNCATE lead_batch');
  const copy = client.query(
    copyFrom(
      'COPY lead_batch (row_number, id, name, phone, email, state, zip, form_fill_time, source, consent_certificate, consent_time, consent_ip) FROM STDIN',
    ),
  );
  await pipeline(Readable.from(copyLines(leads)), copy);

  const { rows } = await client.query<{ row_number: number; id: string; outcome: 'inserted' | 'suppressed' | 'duplicate' }>(
    `WITH batch AS (
       SELECT b.*, (b.form_fill_time AT TIME ZONE $2)::date AS fill_day,
              EXISTS (SELECT 1 FROM lead_suppressions s WHERE s.phone = b.phone) AS suppressed
         FROM lead_batch b
     ), firsts AS (
       SELECT DISTINCT ON (phone, fill_day) * FROM batch WHERE NOT suppressed ORDER BY phone, fill_day, row_number
     ), fresh AS (
       SELECT f.* FROM firsts f
        WHERE NOT EXISTS (
          SELECT 1 FROM aged_leads a
           WHERE a.phone = f.phone
             AND a.form_fill_time >= (f.fill_day::timestamp AT TIME ZONE $2)
             AND a.form_fill_time < ((f.fill_day + 1)::timestamp AT TIME ZONE $2))
     ), inserted AS (
       INSERT INTO aged_leads (id, name, phone, email, state, zip, form_fill_time, source,
                               consent_certificate, consent_time, consent_ip, import_id)
       SELECT id, name, phone, email, state, zip, form_fill_time, source,
              consent_certificate, consent_time, consent_ip, $1
         FROM fresh ORDER BY row_number
       RETURNING id
     )
     SELECT b.row_number, b.id,
            CASE WHEN b.suppressed THEN 'suppressed'
                 WHEN b.id IN (SELECT id FROM inserted) THEN 'inserted'
                 ELSE 'duplicate' END AS outcome
       FROM batch b ORDER BY b.row_number`,
    [options.importId, options.timeZone],
  );
  const outcome: BatchOutcome = { insertedRows: [], insertedIds: [], suppressedRows: [], duplicateRows: [] };
  for (const r of rows) {
    if (r.outcome === 'inserted') {
      outcome.insertedRows.push(r.row_number);
      outcome.insertedIds.push(r.id);
    }
    else if (r.outcome === 'suppressed') outcome.suppressedRows.push(r.row_number);
    else outcome.duplicateRows.push(r.row_number);
  }
  return outcome;
}

/** COPY's text format, a line per lead, built in chunks so a batch is never one huge string. */
function* copyLines(leads: BatchLead[]): Generator<string> {
  let chunk = '';
  for (const { rowNumber, lead } of leads) {
    chunk +=
      [
        String(rowNumber),
        // Time-ordered: a batch lands at the edge of the primary key, not on random pages.
        timeOrderedUuid(),
        text(lead.name),
        lead.phone,
        text(lead.email),
        lead.state,
        text(lead.zip),
        lead.formFillTime.toISOString(),
        text(lead.source),
        text(lead.consentCertificate),
        lead.consentTime ? lead.consentTime.toISOString() : '\\N',
        text(lead.consentIp),
      ].join('\t') + '\n';
    if (chunk.length > 64 * 1024) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/** A value in COPY's text format: NULL as \N, and backslash, tab and line breaks escaped. */
function text(value: string | null): string {
  if (value === null) return '\\N';
  return value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}
