import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { LEAD_IMPORT_MAX_BYTES } from '@warmline/contracts/lead-imports';
import { LEAD_IMPORT_COLUMNS } from '@warmline/contracts/aged-lead-rows';
import { Button } from '../../../components/button';
import { toast } from '../../../components/toast-store';
import { errorMessage } from '../../../lib/api';
import { addSample, formatBytes, ratePerSecond, type ProgressSample } from './lead-import-progress';
import { LEAD_IMPORT_TEMPLATE_URL, UploadAborted, useUploadLeadImport, type UploadProgress } from './lead-imports-api';
import { UploadBar } from './upload-bar';

/** The columns of the template, as the hint names them. */
const TEMPLATE_COLUMNS = LEAD_IMPORT_COLUMNS.join(', ');

/** Spec §8's toast of a failed upload. */
const UPLOAD_FAILED = 'Failed to bulk upload leads';

export function UploadForm({ onStarted }: { onStarted: (importId: string) => void }) {
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
