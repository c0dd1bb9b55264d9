import { useId, useRef, useState, type FormEvent } from 'react';
import { DNC_REGISTRY_MAX_BYTES, DNC_REGISTRY_PAGE_SIZE, type DncRegistryUploadView } from '@warmline/contracts/dnc-registry';
import { Button } from '../../../components/button';
import { LoadError } from '../../../components/load-error';
import { Pager } from '../../../components/pager';
import { Spinner } from '../../../components/spinner';
import { toast } from '../../../components/toast-store';
import { errorMessage } from '../../../lib/api';
import { usDateTime } from '../../../lib/us-date';
import { useBusinessTimeZone } from '../../../lib/site-config';
import { shortUsDate } from '../../compliance/dnc-badge';
import { isLoading, useRegistryUpload, useRegistryUploads, useUploadRegistryFile, type UploadProgress } from './dnc-registry-api';
import './compliance-tab.css';

const STATUS_LABEL: Record<DncRegistryUploadView['status'], string> = { queued: 'Queued', running: 'Loading', done: 'Done', failed: 'Failed' };
const count = (n: number) => n.toLocaleString('en-US');
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;

/**
 * Compliance (issue 24): upload the national do-not-call registry's files (ten-digit numbers, one
 * a line, by area code) with the upload's own bar and then the load's, and the uploads so far with
 * their registry date, counts and area codes. An upload replaces the registry of its area codes.
 */
export function ComplianceTab() {
  const [watched, setWatched] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  return (
    <div className="compliance">
      <RegistryUpload onUploaded={setWatched} />
      {watched ? <WatchedUpload id={watched} onClose={() => setWatched(null)} /> : null}
      <RegistryUploads page={page} onPage={setPage} />
    </div>
  );
}

function RegistryUpload({ onUploaded }: { onUploaded: (id: string) => void }) {
  const inputId = useId();
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [sent, setSent] = useState<UploadProgress | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const upload = useUploadRegistryFile();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if (!file) return setProblem('Choose the registry file to upload.');
    if (file.size === 0) return setProblem('The file is empty.');
    if (file.size > DNC_REGISTRY_MAX_BYTES) return setProblem(`The file is larger than ${megabytes(DNC_REGISTRY_MAX_BYTES)}.`);
    setSent({ loaded: 0, total: file.size });
    upload.mutate(
      { file, onProgress: setSent },
      {
        onSuccess: (view) => {
          setFile(null);
          if (input.current) input.current.value = '';
          onUploaded(view.id);
        },
        onError: (error) => {
          const message = errorMessage(error, 'The upload failed; please try again.');
          setProblem(message);
          toast({ title: 'Failed to upload the DNC registry', description: message, variant: 'destructive' });
        },
        onSettled: () => setSent(null),
      },
    );
  };

  const percent = sent && sent.total > 0 ? Math.floor((sent.loaded / sent.total) * 100) : 0;
  return (
    <section className="card compliance__upload" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`} className="compliance__title">
        National Do-Not-Call Registry
      </h2>
      <p id={hintId} className="compliance__hint">
        Upload the registry&apos;s files as the FTC delivers them: one ten-digit phone number a line (a leading 1, spaces, dashes or parentheses are
        fine). Each upload replaces the registry of every area code it holds, dated today. Registry matches without a consent certificate are
        not sold.
      </p>
      <form className="compliance__form" onSubmit={submit} noValidate>
        <label htmlFor={inputId} className="compliance__label">
          Registry file
        </label>
        <input
          id={inputId}
          ref={input}
          type="file"
          accept=".txt,.csv,text/plain,text/csv"
          aria-describedby={hintId}
          aria-invalid={problem ? true : undefined}
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            setProblem(null);
          }}
        />
        <Button type="submit" busy={upload.isPending}>
          Upload registry file
        </Button>
      </form>
      {problem ? (
        <p className="compliance__error" role="alert">
          {problem}
        </p>
      ) : null}
      {sent ? (
        <div className="compliance__progress">
          <p id={`${inputId}-sending`} role="status">
            Sending the file: {percent}% ({megabytes(sent.loaded)} of {megabytes(sent.total)})
          </p>
          <Bar labelledBy={`${inputId}-sending`} percent={percent} />
        </div>
      ) : null}
    </section>
  );
}

function WatchedUpload({ id, onClose }: { id: string; onClose: () => void }) {
  const titleId = useId();
  const upload = useRegistryUpload(id);
  if (!upload.data) return upload.isError ? <LoadError what="the upload" error={upload.error} onRetry={() => void upload.refetch()} /> : null;
  const job = upload.data;
  return (
    <section className="card compliance__watched" aria-labelledby={titleId}>
      <div className="compliance__row-head">
        <h2 id={titleId} className="compliance__title">
          {isLoading(job.status) ? 'Loading' : 'Upload of'} <span className="compliance__file">{job.fileName}</span>
        </h2>
        <Status job={job} />
      </div>
      <p role="status" className="compliance__phase">
        {job.status === 'queued'
          ? 'Waiting for the importer…'
          : job.status === 'running'
            ? `${job.progressPercent}%: ${count(job.linesRead)} lines read`
            : job.status === 'done'
              ? `Done: ${count(job.numbersLoaded)} numbers are the registry of ${job.areaCodes.length} area code${job.areaCodes.length === 1 ? '' : 's'} as of ${shortUsDate(job.registryDate)}.`
              : (job.error ?? 'The load stopped; upload the file again.')}
      </p>
      <Bar labelledBy={titleId} percent={job.progressPercent} />
      <Counts job={job} />
      {!isLoading(job.status) ? (
        <Button variant="ghost" className="btn--small" onClick={onClose}>
          Close
        </Button>
      ) : null}
    </section>
  );
}

function RegistryUploads({ page, onPage }: { page: number; onPage: (page: number) => void }) {
  const list = useRegistryUploads(page);
  const zone = useBusinessTimeZone();
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / (list.data?.pageSize ?? DNC_REGISTRY_PAGE_SIZE)));
  return (
    <section className="compliance__list" aria-labelledby="dnc-uploads-title">
      <h2 id="dnc-uploads-title" className="compliance__title">
        Registry Uploads
      </h2>
      {list.isPending ? (
        <Spinner label="Loading registry uploads…" showLabel />
      ) : list.isError ? (
        <LoadError what="registry uploads" error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.uploads.length === 0 ? (
        <p className="admin-empty">No registry uploads yet. Upload a registry file above.</p>
      ) : (
        <>
          <ul className="compliance__uploads">
            {list.data.uploads.map((job) => (
              <li key={job.id} className="card compliance__upload-row" data-testid="dnc-upload-row">
                <div className="compliance__row-head">
                  <h3 className="compliance__file">{job.fileName}</h3>
                  <Status job={job} />
                </div>
                <p className="compliance__meta">
                  Registry of {shortUsDate(job.registryDate)} · by {job.uploadedBy.name} · {usDateTime(job.createdAt, zone)}
                </p>
                {isLoading(job.status) ? <Bar label={`Progress of ${job.fileName}`} percent={job.progressPercent} /> : null}
                <Counts job={job} />
                {job.areaCodes.length > 0 ? (
                  <p className="compliance__meta">
                    Area codes: {job.areaCodes.slice(0, 30).join(', ')}
                    {job.areaCodes.length > 30 ? ` and ${job.areaCodes.length - 30} more` : ''}
                  </p>
                ) : null}
                {job.status === 'failed' && job.error ? <p className="compliance__error">{job.error}</p> : null}
              </li>
            ))}
          </ul>
          <Pager page={page} totalPages={pages} onPage={onPage} label="Registry upload pages" />
        </>
      )}
    </section>
  );
}

function Counts({ job }: { job: DncRegistryUploadView }) {
  return (
    <dl className="compliance__counts">
      <div>
        <dt>Lines read</dt>
        <dd>{count(job.linesRead)}</dd>
      </div>
      <div>
        <dt>Numbers loaded</dt>
        <dd>{count(job.numbersLoaded)}</dd>
      </div>
      <div>
        <dt>Invalid lines</dt>
        <dd>{count(job.invalidLines)}</dd>
      </div>
      <div>
        <dt>Area codes</dt>
        <dd>{count(job.areaCodes.length)}</dd>
      </div>
    </dl>
  );
}

function Status({ job }: { job: DncRegistryUploadView }) {
  return <span className={`compliance__status compliance__status--${job.status}`}>{STATUS_LABEL[job.status]}</span>;
}

function Bar({ percent, labelledBy, label }: { percent: number; labelledBy?: string; label?: string }) {
  return (
    <div
      className="compliance__bar"
      role="progressbar"
      aria-labelledby={labelledBy}
      aria-label={labelledBy ? undefined : label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={`${percent}%`}
    >
      <div className="compliance__bar-fill" style={{ width: `${percent}%` }} />
    </div>
  );
}
