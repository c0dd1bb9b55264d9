import type { LeadImportStatus, LeadImportView } from '@warmline/contracts/lead-imports';

const STATUS_LABEL: Record<LeadImportStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** An import's status in a word; an undone import says so, whatever it ended as. */
export function StatusBadge({ job }: { job: LeadImportView }) {
  const kind = job.undoneAt ? 'undone' : job.status;
  return <span className={`import-status import-status--${kind}`}>{job.undoneAt ? 'Undone' : STATUS_LABEL[job.status]}</span>;
}
