import type { OutgoingMessage } from '@warmline/platform/bus/index';
import type { LeadImportRow } from '../db/lead-imports';

/** The importer states the facts of an import under the catalog's name (its outbox is the catalog's). */
const IMPORTER_SOURCE = 'importer';

/** import.progress for the counts as they stand. */
export function progressMessage(job: LeadImportRow, correlationId: string, at: Date): OutgoingMessage<'import.progress'> {
  return {
    type: 'import.progress',
    source: IMPORTER_SOURCE,
    correlationId,
    data: {
      importId: job.id,
      status: job.status,
      rowsTotal: job.rows_total,
      rowsRead: job.rows_read,
      rowsImported: job.rows_imported,
      rowsRejected: job.rows_rejected,
      rowsDuplicate: job.rows_duplicate,
      at: at.toISOString(),
    },
  };
}

/** What an import's end tells: its last progress and, once per import, leads.imported. */
export function endOfImportMessages(job: LeadImportRow, correlationId: string): [OutgoingMessage<'import.progress'>, OutgoingMessage<'leads.imported'>] {
  const finishedAt = job.finished_at ?? new Date();
  if (job.status !== 'done' && job.status !== 'failed' && job.status !== 'cancelled') {
    throw new Error(`import ${job.id} has not ended (${job.status})`);
  }
  return [
    progressMessage(job, correlationId, finishedAt),
    {
      type: 'leads.imported',
      source: IMPORTER_SOURCE,
      correlationId,
      data: {
        importId: job.id,
        status: job.status,
        rowsRead: job.rows_read,
        rowsImported: job.rows_imported,
        rowsRejected: job.rows_rejected,
        rowsDuplicate: job.rows_duplicate,
        startedByUserId: job.started_by_user_id,
        finishedAt: finishedAt.toISOString(),
      },
    },
  ];
}
