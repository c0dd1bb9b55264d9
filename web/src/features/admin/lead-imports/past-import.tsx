import { useId } from 'react';
import type { LeadImportView } from '@warmline/contracts/lead-imports';
import { Button } from '../../../components/button';
import { errorReportUrl } from './lead-imports-api';
import { usDateTime } from '../../../lib/us-date';
import { useBusinessTimeZone } from '../../../lib/site-config';
import { StatusBadge } from './status-badge';
import { formatCount, isUnfinished, plural } from './lead-import-progress';

export function PastImport({ job, watched, onWatch, onUndo }: { job: LeadImportView; watched: boolean; onWatch: () => void; onUndo: () => void }) {
  const zone = useBusinessTimeZone();
  const titleId = useId();
  const going = isUnfinished(job.status);
  // Undo withdraws what an ended import loaded; a running one is cancelled first (the server says 409).
  const canUndo = !going && !job.undoneAt && job.rowsImported > 0;
  return (
    <li className="card import-row" data-testid="import-row" aria-labelledby={titleId} aria-current={watched ? 'true' : undefined}>
      <div className="import-row__head">
        <h3 id={titleId} className="import-row__file">
          {job.fileName}
        </h3>
        <StatusBadge job={job} />
      </div>
      <p className="import-row__meta">
        By {job.startedBy.name} · {usDateTime(job.createdAt, zone)}
      </p>
      <dl className="import-counts import-counts--compact">
        <div>
          <dt>Rows</dt>
          <dd>{formatCount(job.rowsTotal)}</dd>
        </div>
        <div>
          <dt>Imported</dt>
          <dd>{formatCount(job.rowsImported)}</dd>
        </div>
        <div>
          <dt>Rejected</dt>
          <dd>{formatCount(job.rowsRejected)}</dd>
        </div>
        <div>
          <dt>Duplicates</dt>
          <dd>{formatCount(job.rowsDuplicate)}</dd>
        </div>
      </dl>
      {job.status === 'failed' && job.error ? <p className="import-error">{job.error}</p> : null}
      {job.undoneAt ? (
        <p className="import-row__undone">
          Undone: {plural(job.rowsWithdrawn ?? 0, 'lead', 'leads')} withdrawn
        </p>
      ) : null}
      <div className="import-actions">
        {job.rowsRejected > 0 ? (
          // Shorter than the panel's link, to fit beside Undo; its accessible name has the full words.
          <a className="btn btn--secondary btn--small" href={errorReportUrl(job.id)} download aria-label={`Download report of rejected rows of ${job.fileName}`}>
            Report of rejected rows
          </a>
        ) : null}
        {going && !watched ? (
          <Button variant="secondary" className="btn--small" onClick={onWatch} aria-label={`Show progress of ${job.fileName}`}>
            Show progress
          </Button>
        ) : null}
        {canUndo ? (
          <Button variant="danger" className="btn--small" onClick={onUndo} aria-label={`Undo import of ${job.fileName}`}>
            Undo
          </Button>
        ) : null}
      </div>
    </li>
  );
}
