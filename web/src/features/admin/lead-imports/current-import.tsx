import { useEffect, useRef, useState } from 'react';
import type { LeadImportStatus, LeadImportView } from '@warmline/contracts/lead-imports';
import { Button } from '../../../components/button';
import { LoadError } from '../../../components/load-error';
import { Spinner } from '../../../components/spinner';
import { toast } from '../../../components/toast-store';
import { errorMessage } from '../../../lib/api';
import { errorReportUrl, useCancelLeadImport, useLeadImport, useRefreshImportList } from './lead-imports-api';
import { ProgressBar } from './progress-bar';
import { StatusBadge } from './status-badge';
import { addSample, formatBytes, formatCount, formatDuration, formatRowRate, importProgress, isUnfinished, percentDone, plural, ratePerSecond, secondsLeft, secondsTaken, type ProgressSample } from './lead-import-progress';

/** Spec §2: the success banner stays this long. */
const UPLOAD_COMPLETE_MS = 3_000;

/** Time left in words: not before the importer starts, not while no rows move (no rate to go by). */
function timeLeftText(status: LeadImportStatus, rate: number | null, left: number | null): string {
  if (status === 'queued') return 'Waiting to start';
  if (left === 0) return 'Finishing…';
  if (left !== null) return formatDuration(left);
  return rate === 0 ? 'Waiting for rows…' : 'Measuring…';
}

/** What the live region says: the phase, not the numbers (a count announced every second is noise). */
function phaseText(view: LeadImportView): string {
  if (view.status === 'queued') return view.cancelRequested ? 'Stopping the import…' : 'Queued: the importer starts it shortly.';
  if (view.status === 'running') return view.cancelRequested ? 'Stopping the import…' : 'Importing leads…';
  if (view.status === 'done') return 'Import finished.';
  if (view.status === 'failed') return 'Import failed.';
  return 'Import cancelled.';
}

export function CurrentImport({ id, uploadedHere, onClose }: { id: string; uploadedHere: boolean; onClose: () => void }) {
  const view = useLeadImport(id);
  const refreshList = useRefreshImportList();
  const cancel = useCancelLeadImport();
  const [bannerShown, setBannerShown] = useState(false);
  const [samples, setSamples] = useState<ProgressSample[]>([]);
  const seenStatus = useRef<LeadImportStatus | null>(null);
  const status = view.data?.status;
  const rowsRead = view.data?.rowsRead;
  const dataAt = view.dataUpdatedAt;

  // Each poll is a reading for the rate (the importer's counts move in batches).
  useEffect(() => {
    if (rowsRead === undefined || status === undefined || !isUnfinished(status)) return;
    setSamples((before) => addSample(before, { at: dataAt, done: rowsRead }));
  }, [rowsRead, status, dataAt]);

  // The moment the import ends: the list reads it again, and a done import says 'Upload Complete!'.
  // An import already ended when the tab opened says nothing, unless this tab just uploaded it.
  useEffect(() => {
    if (!status) return;
    const before = seenStatus.current;
    seenStatus.current = status;
    if (isUnfinished(status)) return;
    const justEnded = before !== null ? isUnfinished(before) : uploadedHere;
    if (!justEnded) return;
    // The list's own query reports a failed refresh; nothing here waits for it.
    void refreshList();
    if (status === 'done') setBannerShown(true);
    // Only a change of status is news; the other values are read as they are then.
  }, [status]);

  // Spec §2: the banner for 3 seconds.
  useEffect(() => {
    if (!bannerShown) return;
    const timer = setTimeout(() => setBannerShown(false), UPLOAD_COMPLETE_MS);
    return () => clearTimeout(timer);
  }, [bannerShown]);

  if (view.isPending) return <Spinner label="Loading the import…" showLabel />;
  if (view.isError) {
    // An address with an import that is gone (or mistyped) can be closed, not only retried.
    return (
      <div className="lead-imports__load-error">
        <LoadError what="the import" error={view.error} onRetry={() => void view.refetch()} />
        <Button variant="ghost" className="btn--small" onClick={onClose}>
          Close
        </Button>
      </div>
    );
  }

  const job = view.data;
  const { done, total, unit } = importProgress(job);
  const percent = percentDone(done, total);
  const going = isUnfinished(job.status);
  const rate = going ? ratePerSecond(samples) : null;
  const left = going && unit === 'rows' ? secondsLeft(done, total, rate) : null;
  const took = secondsTaken(job.startedAt, job.finishedAt);

  return (
    <section className={`card import-progress import-progress--${job.status}`} aria-labelledby="current-import-title" data-testid="current-import">
      <div className="lead-imports__header">
        <h2 id="current-import-title" className="lead-imports__title">
          {going ? 'Importing' : 'Import of'} <span className="lead-imports__file-name">{job.fileName}</span>
        </h2>
        <StatusBadge job={job} />
      </div>

      {bannerShown ? (
        <div className="import-banner" role="status">
          Upload Complete!
        </div>
      ) : null}
      <p className="import-progress__phase" role="status">
        {phaseText(job)}
      </p>

      <ProgressBar
        labelledBy="current-import-title"
        value={done}
        max={total}
        percent={percent}
        valueText={
          unit === 'rows'
            ? `${percent}%: ${formatCount(done)} of ${plural(total, 'row', 'rows')} read`
            : `${percent}%: ${formatBytes(done)} of ${formatBytes(total)} read`
        }
      />
      <dl className="import-counts">
        <div>
          <dt>Rows read</dt>
          <dd data-testid="rows-read">
            {formatCount(job.rowsRead)} <span className="import-counts__of">of {formatCount(job.rowsTotal)}</span>
          </dd>
        </div>
        <div>
          <dt>Imported</dt>
          <dd data-testid="rows-imported">{formatCount(job.rowsImported)}</dd>
        </div>
        <div>
          <dt>Rejected</dt>
          <dd data-testid="rows-rejected">{formatCount(job.rowsRejected)}</dd>
        </div>
        <div>
          <dt>Duplicates</dt>
          <dd data-testid="rows-duplicate">{formatCount(job.rowsDuplicate)}</dd>
        </div>
        {going ? (
          <>
            <div>
              <dt>Rate</dt>
              <dd>{job.status === 'queued' ? '—' : rate === null ? 'Measuring…' : formatRowRate(rate)}</dd>
            </div>
            <div>
              <dt>Time left</dt>
              <dd>{timeLeftText(job.status, rate, left)}</dd>
            </div>
          </>
        ) : took !== null ? (
          <div>
            <dt>Took</dt>
            <dd>
              {formatDuration(took)}
              {took > 0 ? <span className="import-counts__of"> ({formatRowRate(job.rowsRead / took)})</span> : null}
            </dd>
          </div>
        ) : null}
      </dl>

      {job.notice ? <p className="import-notice">{job.notice}</p> : null}
      {job.status === 'failed' ? (
        <p className="import-error" role="alert">
          {job.error ?? 'The import stopped; try again or contact support.'}
        </p>
      ) : null}
      {job.status === 'cancelled' && job.rowsImported > 0 && !job.undoneAt ? (
        <p className="lead-imports__muted">
          {plural(job.rowsImported, 'lead was', 'leads were')} imported before it stopped; Undo in Past Imports withdraws them.
        </p>
      ) : null}
      {job.undoneAt ? <p className="lead-imports__muted">Undone: {plural(job.rowsWithdrawn ?? 0, 'lead', 'leads')} withdrawn</p> : null}

      <div className="import-actions">
        {job.rowsRejected > 0 ? (
          <a className="btn btn--secondary btn--small" href={errorReportUrl(job.id)} download>
            Download report of rejected rows
          </a>
        ) : null}
        {going ? (
          <Button
            variant="danger"
            className="btn--small"
            busy={cancel.isPending}
            disabled={job.cancelRequested}
            onClick={() =>
              cancel.mutate(job.id, {
                onError: (error) => toast({ title: 'Failed to cancel import', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
              })
            }
          >
            {job.cancelRequested ? 'Stopping…' : 'Cancel Import'}
          </Button>
        ) : (
          <Button variant="ghost" className="btn--small" onClick={onClose}>
            Close
          </Button>
        )}
      </div>
    </section>
  );
}
