import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { from as copyFrom } from 'pg-copy-streams';
import type { PoolClient } from '@warmline/platform/db/index';
import { timeOrderedUuid } from '@warmline/platform/ids';
import type { ImportedLead } from '@warmline/contracts';

/**
 * Loads a batch of validated leads into the inventory (issue 13), inside the caller's
 * transaction: skips suppressed phones and duplicates — the same phone on the same form-fill day
 * (in the business time zone) as a lead already stored, sold or not, or earlier in the batch.
 * Earlier batches of the same file are already stored, so a duplicate across batches is caught
 * the same way, and running a file again imports nothing. Loads take one advisory lock, so two
 * imports (or an import and the JSON API) never let the same duplicate in at once.
 *
 * Issue 27: one query finds the rows to skip (it sends back only those), and the rest are
 * COPY'd straight into aged_leads — no temporary table written and read again, no INSERT …
 * SELECT row by row, no result row per lead: what is left is COPY's own work (docs/adr/0052).
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
  const outcome: BatchOutcome = { insertedRows: [], insertedIds: [], suppressedRows: [], duplicateRows: [] };
  if (leads.length === 0) return outcome;
  await lockLeadLoads(client);
  const skipped = await rowsToSkip(client, leads, options.timeZone);
  const fresh: Array<BatchLead & { id: string }> = [];
  leads.forEach((batchLead, i) => {
    const skip = skipped.get(i + 1);
    if (skip === 'suppressed') outcome.suppressedRows.push(batchLead.rowNumber);
    else if (skip === 'duplicate') outcome.duplicateRows.push(batchLead.rowNumber);
    else {
      // Time-ordered: a batch lands at the edge of the primary key, not on random pages.
      const id = timeOrderedUuid();
      fresh.push({ ...batchLead, id });
      outcome.insertedRows.push(batchLead.rowNumber);
      outcome.insertedIds.push(id);
    }
  });
  if (fresh.length > 0) {
    const copy = client.query(
      copyFrom(
        `COPY aged_leads (id, name, phone, email, state, zip, form_fill_time, source,
                          consent_certificate, consent_time, consent_ip, import_id) FROM STDIN`,
      ),
    );
    await pipeline(Readable.from(copyLines(fresh, options.importId)), copy);
  }
  return outcome;
}

/**
 * The probe of a batch's rows ($1 phones, $2 form-fill times, $3 the business zone): the place
 * (1-based) and outcome of each row not to store. Exported for the import's CPU breakdown bench
 * (infra/bench/lead-import-breakdown.ts), which times exactly this statement.
 */
export const SKIP_PROBE = `WITH batch AS (
       SELECT p.ord::int AS ord, p.phone, (p.fill AT TIME ZONE $3)::date AS fill_day
         FROM unnest($1::text[], $2::timestamptz[]) WITH ORDINALITY AS p(phone, fill, ord)
     ), marked AS (
       SELECT b.ord, b.phone, b.fill_day,
              EXISTS (SELECT 1 FROM lead_suppressions s WHERE s.phone = b.phone) AS suppressed,
              row_number() OVER (PARTITION BY b.phone, b.fill_day ORDER BY b.ord) > 1 AS repeated
         FROM batch b
     )
     SELECT m.ord, CASE WHEN m.suppressed THEN 'suppressed' ELSE 'duplicate' END AS outcome
       FROM marked m
      WHERE m.suppressed OR m.repeated OR EXISTS (
        SELECT 1 FROM aged_leads a
         WHERE a.phone = m.phone
           AND a.form_fill_time >= (m.fill_day::timestamp AT TIME ZONE $3)
           AND a.form_fill_time < ((m.fill_day + 1)::timestamp AT TIME ZONE $3))`;

/**
 * The batch's rows not to store, by their place in the batch (1-based): suppressed phones, and
 * duplicates of a stored lead or of an earlier row of the batch. Most rows are neither, and
 * only the others come back.
 */
async function rowsToSkip(client: PoolClient, leads: BatchLead[], timeZone: string): Promise<Map<number, 'suppressed' | 'duplicate'>> {
  const { rows } = await client.query<{ ord: number; outcome: 'suppressed' | 'duplicate' }>(
    SKIP_PROBE,
    [leads.map((l) => l.lead.phone), leads.map((l) => l.lead.formFillTime.toISOString()), timeZone],
  );
  return new Map(rows.map((r) => [r.ord, r.outcome]));
}

/** COPY's text format, a line per lead, built in chunks so a batch is never one huge string. */
function* copyLines(leads: Array<BatchLead & { id: string }>, importId: string | null): Generator<string> {
  const importColumn = importId ?? '\\N';
  let chunk = '';
  for (const { id, lead } of leads) {
    chunk +=
      [
        id,
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
        importColumn,
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
