import { useId, useRef, useState, type FormEvent } from 'react';
import { SUPPRESSION_IMPORT_MAX_PHONES, type SuppressionImportResult } from '@warmline/contracts/lead-imports';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/field';
import { toast } from '../../../components/toast-store';
import { errorMessage } from '../../../lib/api';
import { formatCount } from '../lead-imports/lead-import-progress';
import { useImportSuppressions } from './suppressions-api';

/** A list of more lines than the server takes is refused here, before it is sent. */
const MAX_LINES = SUPPRESSION_IMPORT_MAX_PHONES + 1; // and a header line

/**
 * Issue 24: an opt-out list (a lead vendor's, a complaint desk's) added to the suppression list
 * at once, each phone recorded as imported. One phone a line, or a CSV whose first column is it.
 */
export function OptOutListUpload() {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<{ file?: string; reason?: string }>({});
  const [result, setResult] = useState<SuppressionImportResult | null>(null);
  const upload = useImportSuppressions();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    const found: { file?: string; reason?: string } = {};
    if (!file) found.file = 'Choose a file with one phone number a line';
    if (!reason.trim()) found.reason = 'Reason is required';
    if (found.file || found.reason || !file) {
      setProblem(found);
      return;
    }
    const lines = (await file.text()).split(/\r?\n/).filter((line) => line.trim() !== '');
    if (lines.length === 0) return setProblem({ file: 'The file has no phone numbers' });
    if (lines.length > MAX_LINES) return setProblem({ file: `At most ${formatCount(SUPPRESSION_IMPORT_MAX_PHONES)} phone numbers per file` });
    setProblem({});
    upload.mutate(
      { fileName: file.name.slice(0, 255), lines, reason: reason.trim() },
      {
        onSuccess: (done) => {
          setResult(done);
          setFile(null);
          if (input.current) input.current.value = '';
          toast({ title: `${formatCount(done.added)} ${done.added === 1 ? 'phone' : 'phones'} suppressed`, variant: 'success' });
        },
        onError: (failure) => toast({ title: 'Failed to upload the opt-out list', description: errorMessage(failure, 'Please try again.'), variant: 'destructive' }),
      },
    );
  };

  return (
    <form className="suppressions__add suppressions__import" onSubmit={(e) => void submit(e)} noValidate aria-label="Upload an opt-out list">
      <div className="field">
        <label className="field__label" htmlFor={inputId}>
          Opt-out list (one phone a line)
        </label>
        <input
          ref={input}
          id={inputId}
          name="file"
          type="file"
          accept=".csv,.txt,text/csv,text/plain"
          className="field__input"
          aria-invalid={problem.file ? true : undefined}
          aria-describedby={problem.file ? `${inputId}-error` : undefined}
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            setProblem((p) => ({ ...p, file: undefined }));
          }}
        />
        {problem.file ? (
          <p id={`${inputId}-error`} className="field__error" role="alert">
            {problem.file}
          </p>
        ) : null}
      </div>
      <TextField
        label="Reason for the list"
        name="list-reason"
        autoComplete="off"
        className="suppressions__reason"
        hint="E.g. Acme Leads opt-out list, November"
        value={reason}
        error={problem.reason}
        onChange={(e) => {
          setReason(e.target.value);
          setProblem((p) => ({ ...p, reason: undefined }));
        }}
      />
      <div className="suppressions__submit">
        <Button type="submit" variant="secondary" busy={upload.isPending}>
          Upload List
        </Button>
      </div>
      {result ? (
        <p className="suppressions__import-result" role="status">
          {formatCount(result.added)} added, {formatCount(result.alreadyListed)} already on the list
          {result.invalid.length > 0
            ? `; ${formatCount(result.invalid.length)} ${result.invalid.length === 1 ? 'line is' : 'lines are'} not a phone (line ${result.invalid
                .slice(0, 5)
                .map((i) => i.line)
                .join(', ')}${result.invalid.length > 5 ? ', …' : ''})`
            : ''}
          .
        </p>
      ) : null}
    </form>
  );
}
