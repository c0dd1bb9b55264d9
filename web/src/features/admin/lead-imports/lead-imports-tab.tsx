import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { LEAD_IMPORT_MAX_BYTES, LEAD_IMPORT_PAGE_SIZE, type LeadImportStatus, type LeadImportView } from '@warmline/contracts/lead-imports';
import { Button } from '../../../components/button';
import { Dialog, DialogClose } from '../../../components/dialog';
import { LoadError } from '../../../components/load-error';
import { Pager } from '../../../components/pager';
import { Spinner } from '../../../components/spinner';
import { toast } from '../../../components/toast-store';
import { errorMessage } from '../../../lib/api';
import {
  addSample,
  formatBytes,
  formatCount,
  formatDuration,
  formatRowRate,
  importProgress,
  isUnfinished,
  percentDone,
  ratePerSecond,
  secondsLeft,
  secondsTaken,
  type ProgressSample,
} from './lead-import-progress';
import {
  LEAD_IMPORT_TEMPLATE_URL,
  UploadAborted,
  errorReportUrl,
  useCancelLeadImport,
  useLeadImport,
  useLeadImportsPage,
  useRefreshImportList,
  useUndoLeadImport,
  useUploadLeadImport,
  type UploadProgress,
} from './lead-imports-api';
import { SuppressionsPanel } from '../compliance/suppressions-panel';
import './lead-imports.css';
import { usDateTime } from '../../../lib/us-date';
import { useBusinessTimeZone } from '../../../lib/site-config';

/** The import being watched, kept in the URL beside the shell's `?tab=`, so a reload comes back to its bar. */
const IMPORT_PARAM = 'import';
/** Spec §2: the success banner stays this long. */
const UPLOAD_COMPLETE_MS = 3_000;
/** The columns of the template, as the hint names them. */
const TEMPLATE_COLUMNS = 'Name, Phone, Email, State, Zip, Form Fill Time, Source, Consent Certificate, Consent Time, Consent IP';
/** Spec §8's toast of a failed upload. */
const UPLOAD_FAILED = 'Failed to bulk upload leads';

const STATUS_LABEL: Record<LeadImportStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};


const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/**
 * Upload Aged Leads (spec §2 Admin, issue 13): the template, a CSV file sent with its own byte
 * progress, then the import's progress polled until it ends ('Upload Complete!' for 3 seconds),
 * the past imports with their reports and Undo, and the suppression list below.
 */
export function LeadImportsTab() {
  const [params, setParams] = useSearchParams();
  const fromUrl = params.get(IMPORT_PARAM);
  const [page, setPage] = useState(1);
  // The newest imports are where one still going is found (a reload without ?import=, another tab's upload).
  const newest = useLeadImportsPage(1);
  const newestUnfinished = newest.data?.imports.find((i) => isUnfinished(i.status))?.id ?? null;
  // The import this tab uploaded: its banner shows even when the importer was done before the first poll.
  const [uploadedHere, setUploadedHere] = useState<string | null>(null);
  // The watched import's latest reading (the same query its panel polls), so its row in the list moves too.
  const live = useLeadImport(fromUrl).data;

  const watch = (id: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id) next.set(IMPORT_PARAM, id);
        else next.delete(IMPORT_PARAM);
        return next;
      },
      { replace: true },
    );

  // An import found running is put in the URL, so its panel stays when it ends (and drops out of "running").
  useEffect(() => {
    if (!fromUrl && newestUnfinished) watch(newestUnfinished);
    // `watch` is a new function each render; only the ids say when to act.
  }, [fromUrl, newestUnfinished]);

  return (
    <div className="lead-imports">
      <UploadForm
        onStarted={(id) => {
          setUploadedHere(id);
          setPage(1);
          watch(id);
        }}
      />
      {fromUrl ? <CurrentImport key={fromUrl} id={fromUrl} uploadedHere={fromUrl === uploadedHere} onClose={() => watch(null)} /> : null}
      <PastImports page={page} onPage={setPage} watched={fromUrl} live={live} onWatch={watch} />
      <SuppressionsPanel />
    </div>
  );
}

// ---------------------------------------------------------------- the upload

function UploadForm({ onStarted }: { onStarted: (importId: string) => void }) {
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [stopped, setStopped] = useState(false);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const samples = useRef<ProgressSample[]>([]);
  const abort = useRef<AbortController | null>(null);
  const upload = useUploadLeadImport();

  // Leaving the tab mid-upload stops it: nothing would be left to show where it went.
  useEffect(() => () => abort.current?.abort(), []);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setStopped(false);
    const problem = checkFile(file);
    if (problem || !file) {
      setError(problem);
      input.current?.focus();
      return;
    }
    setError(null);
    samples.current = [];
    setProgress({ loaded: 0, total: file.size });
    const controller = new AbortController();
    abort.current = controller;
    upload.mutate(
      {
        file,
        signal: controller.signal,
        onProgress: (next) => {
          samples.current = addSample(samples.current, { at: Date.now(), done: next.loaded });
          setProgress(next);
        },
      },
      {
        onSuccess: (created) => {
          setFile(null);
          if (input.current) input.current.value = '';
          onStarted(created.id);
        },
        onError: (failure) => {
          if (failure instanceof UploadAborted) {
            setStopped(true);
            return;
          }
          const message = errorMessage(failure, failure.message && !/^\d{3}:/.test(failure.message) ? failure.message : 'Please try again.');
          setError(message);
          toast({ title: UPLOAD_FAILED, description: message, variant: 'destructive' });
        },
        onSettled: () => {
          abort.current = null;
          setProgress(null);
        },
      },
    );
  };

  return (
    <section className="card lead-imports__upload" aria-labelledby="lead-upload-title">
      <div className="lead-imports__header">
        <h2 id="lead-upload-title" className="lead-imports__title">
          Upload Aged Leads
        </h2>
        <a className="btn btn--secondary btn--small" href={LEAD_IMPORT_TEMPLATE_URL} download>
          Download Template
        </a>
      </div>
      <p id={hintId} className="lead-imports__hint">
        A CSV file with the template’s columns: {TEMPLATE_COLUMNS}. Up to {formatBytes(LEAD_IMPORT_MAX_BYTES)}; each lead is priced by its
        age, and rows that cannot be sold are listed in a report.
      </p>
      <form className="lead-imports__form" onSubmit={submit} noValidate>
        <div className="field lead-imports__file">
          <label className="field__label" htmlFor={inputId}>
            CSV file
          </label>
          <input
            ref={input}
            id={inputId}
            name="file"
            type="file"
            accept=".csv,text/csv"
            className="field__input lead-imports__file-input"
            disabled={upload.isPending}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${errorId} ${hintId}` : hintId}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setError(null);
              setStopped(false);
            }}
          />
          {error ? (
            <p id={errorId} className="field__error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
        <div className="lead-imports__submit">
          <Button type="submit" busy={upload.isPending}>
            Upload
          </Button>
        </div>
      </form>
      {upload.isPending && progress && file ? (
        <UploadBar fileName={file.name} progress={progress} rate={ratePerSecond(samples.current)} onStop={() => abort.current?.abort()} />
      ) : null}
      {stopped ? (
        <p className="lead-imports__muted" role="status">
          Upload stopped; nothing was imported.
        </p>
      ) : null}
    </section>
  );
}

/** Why a chosen file cannot be sent, in the server's own words where it has them; null when it can. */
function checkFile(file: File | null): string | null {
  if (!file) return 'Choose a CSV file to upload';
  if (!/\.csv$/i.test(file.name)) return 'Choose a .csv file (the template is one)';
  if (file.size === 0) return 'The file is empty';
  if (file.size > LEAD_IMPORT_MAX_BYTES) return `File is larger than ${formatBytes(LEAD_IMPORT_MAX_BYTES)}`;
  return null;
}

function UploadBar({ fileName, progress, rate, onStop }: { fileName: string; progress: UploadProgress; rate: number | null; onStop: () => void }) {
  const labelId = useId();
  const percent = percentDone(progress.loaded, progress.total);
  const sent = progress.loaded >= progress.total;
  const left = secondsLeft(progress.loaded, progress.total, rate);
  return (
    <div className="import-progress import-progress--upload">
      <p id={labelId} className="import-progress__label">
        {sent ? `Checking ${fileName}…` : `Uploading ${fileName}`}
      </p>
      <ProgressBar
        labelledBy={labelId}
        value={progress.loaded}
        max={progress.total}
        percent={percent}
        valueText={`${percent}%: ${formatBytes(progress.loaded)} of ${formatBytes(progress.total)} sent`}
      />
      <p className="import-progress__line">
        <span>
          {formatBytes(progress.loaded)} of {formatBytes(progress.total)} ({percent}%)
        </span>
        {!sent && rate !== null ? <span>{formatBytes(rate)}/s</span> : null}
        {!sent && left !== null ? <span>{formatDuration(left)} left</span> : null}
      </p>
      {!sent ? (
        <Button variant="secondary" className="btn--small" onClick={onStop}>
          Stop upload
        </Button>
      ) : null}
    </div>
  );
}

function ProgressBar({ labelledBy, value, max, percent, valueText }: { labelledBy: string; value: number; max: number; percent: number; valueText: string }) {
  return (
    <div
      className="import-bar"
      role="progressbar"
      aria-labelledby={labelledBy}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={value}
      aria-valuetext={valueText}
    >
      <div className="import-bar__fill" style={{ width: `${percent}%` }} />
    </div>
  );
}

// ---------------------------------------------------------------- the import being watched

/** An import's status in a word; an undone import says so, whatever it ended as. */
function StatusBadge({ job }: { job: LeadImportView }) {
  const kind = job.undoneAt ? 'undone' : job.status;
  return <span className={`import-status import-status--${kind}`}>{job.undoneAt ? 'Undone' : STATUS_LABEL[job.status]}</span>;
}

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

function CurrentImport({ id, uploadedHere, onClose }: { id: string; uploadedHere: boolean; onClose: () => void }) {
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
    refreshList();
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

// ---------------------------------------------------------------- past imports

function PastImports({
  page,
  onPage,
  watched,
  live,
  onWatch,
}: {
  page: number;
  onPage: (page: number) => void;
  watched: string | null;
  live: LeadImportView | undefined;
  onWatch: (id: string) => void;
}) {
  const list = useLeadImportsPage(page);
  const [undoing, setUndoing] = useState<LeadImportView | null>(null);
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / (list.data?.pageSize ?? LEAD_IMPORT_PAGE_SIZE)));

  return (
    <section className="lead-imports__past" aria-labelledby="past-imports-title">
      <h2 id="past-imports-title" className="lead-imports__title">
        Past Imports
      </h2>
      {list.isPending ? (
        <Spinner label="Loading past imports…" showLabel />
      ) : list.isError ? (
        <LoadError what="past imports" error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.imports.length === 0 ? (
        <p className="admin-empty">No imports yet. Upload a CSV file above.</p>
      ) : (
        <>
          <ul className="import-list">
            {list.data.imports.map((listed) => {
              const job = live?.id === listed.id ? live : listed;
              return <PastImport key={job.id} job={job} watched={job.id === watched} onWatch={() => onWatch(job.id)} onUndo={() => setUndoing(job)} />;
            })}
          </ul>
          <Pager page={page} totalPages={pages} onPage={onPage} label="Past import pages" />
        </>
      )}
      {undoing ? <UndoImportDialog job={undoing} onClose={() => setUndoing(null)} /> : null}
    </section>
  );
}

function PastImport({ job, watched, onWatch, onUndo }: { job: LeadImportView; watched: boolean; onWatch: () => void; onUndo: () => void }) {
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

function UndoImportDialog({ job, onClose }: { job: LeadImportView; onClose: () => void }) {
  const undo = useUndoLeadImport();
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Undo Import"
      description={`Undo the import of ${job.fileName}? This withdraws the leads of this import that are not sold yet, of the ${plural(job.rowsImported, 'lead', 'leads')} it imported. Leads already sold stay with their buyers; withdrawn leads cannot be put back on sale.`}
    >
      <div className="dialog__actions">
        <DialogClose asChild>
          <Button variant="secondary">Keep Leads</Button>
        </DialogClose>
        <Button
          variant="danger"
          busy={undo.isPending}
          onClick={() =>
            undo.mutate(job.id, {
              onSuccess: (view) => {
                toast({ title: 'Import undone', description: `${plural(view.rowsWithdrawn ?? 0, 'lead', 'leads')} withdrawn.`, variant: 'success' });
                onClose();
              },
              onError: (error) => toast({ title: 'Failed to undo import', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
            })
          }
        >
          Undo Import
        </Button>
      </div>
    </Dialog>
  );
}
