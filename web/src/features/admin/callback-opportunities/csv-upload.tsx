import { useId, useRef, useState, type FormEvent } from 'react';
import { CALLBACK_CSV_COLUMNS, CALLBACK_FILE_ERROR_MESSAGE, CALLBACK_PARSE_FAILED_MESSAGE, CALLBACK_UPLOAD_FAILED_MESSAGE, DEFAULT_CALLBACK_PRICE, type BulkCallbackResult } from '@warmline/contracts/callbacks';
import { Button } from '../../../components/button';
import { toast } from '../../../components/toast-store';
import { csvLine } from '../../../lib/csv';
import { errorMessage } from '../../../lib/api';
import { useBulkCallbackOpportunities } from './callback-opportunities-api';
import { readCallbackFile } from './callback-file';
import { UploadResult } from './upload-result';

/** The template: the columns (spec §5) and one example row. */
const TEMPLATE_CSV = `${csvLine([...CALLBACK_CSV_COLUMNS])}\r\n${csvLine(['Maria', 'Lopez', '(512) 555-0143', 'TX', DEFAULT_CALLBACK_PRICE])}\r\n`;

const TEMPLATE_HREF = `data:text/csv;charset=utf-8,${encodeURIComponent(TEMPLATE_CSV)}`;

export function CsvUpload() {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [result, setResult] = useState<BulkCallbackResult | null>(null);
  const [reading, setReading] = useState(false);
  const bulk = useBulkCallbackOpportunities();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setResult(null);
    if (!file) {
      setFileProblem('Choose a CSV file to upload.');
      input.current?.focus();
      return;
    }
    setReading(true);
    const read = await readCallbackFile(file);
    setReading(false);
    if (!read.ok) {
      setFileProblem(read.detail);
      toast({ title: CALLBACK_PARSE_FAILED_MESSAGE, description: read.detail, variant: 'destructive' });
      return;
    }
    setFileProblem(null);
    bulk.mutate(
      { csvData: read.csvData },
      {
        onSuccess: (answer) => {
          setResult(answer);
          setFile(null);
          if (input.current) input.current.value = '';
          toast({
            title: 'Upload finished',
            description: `${answer.created.toLocaleString('en-US')} created, ${answer.rejected.length.toLocaleString('en-US')} rejected.`,
            variant: answer.created > 0 ? 'success' : 'destructive',
          });
        },
        onError: (failure) => toast({ title: CALLBACK_UPLOAD_FAILED_MESSAGE, description: errorMessage(failure, 'Please try again.'), variant: 'destructive' }),
      },
    );
  };

  return (
    <section className="card callbacks-section" aria-labelledby="callback-upload-title">
      <div className="callbacks-section__head">
        <h2 id="callback-upload-title" className="callbacks-section__title">
          Upload CSV
        </h2>
        <a className="btn btn--secondary btn--small" href={TEMPLATE_HREF} download="callback-opportunities-template.csv">
          Download Template
        </a>
      </div>
      <form className="callbacks-upload" onSubmit={(e) => void submit(e)} noValidate>
        <div className="field">
          <label className="field__label" htmlFor={inputId}>
            CSV file
          </label>
          <input
            ref={input}
            id={inputId}
            name="file"
            type="file"
            accept=".csv,text/csv"
            className="field__input"
            disabled={bulk.isPending}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setFileProblem(null);
              setResult(null);
            }}
          />
        </div>
        <Button type="submit" busy={reading || bulk.isPending}>
          Upload
        </Button>
      </form>
      {fileProblem ? (
        <div className="callbacks-error-panel" role="alert">
          <p className="callbacks-error-panel__title">{CALLBACK_FILE_ERROR_MESSAGE}</p>
          <p>{fileProblem}</p>
        </div>
      ) : null}
      {result ? <UploadResult result={result} /> : null}
    </section>
  );
}
