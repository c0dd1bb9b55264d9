import { useId, useRef, useState, type FormEvent } from 'react';
import { US_STATE_CODES } from '@warmline/contracts/catalog';
import {
  CALLBACK_ADD_FAILED_MESSAGE,
  CALLBACK_ALL_FIELDS_REQUIRED_MESSAGE,
  CALLBACK_BULK_MAX_ROWS,
  CALLBACK_CSV_COLUMNS,
  CALLBACK_EXPIRY_HOURS,
  CALLBACK_FILE_ERROR_MESSAGE,
  CALLBACK_OPPORTUNITIES_PAGE_SIZE,
  CALLBACK_OPPORTUNITY_STATUSES,
  CALLBACK_PARSE_FAILED_MESSAGE,
  CALLBACK_PRICE_MAX,
  CALLBACK_PRICE_MEANING,
  CALLBACK_REPEAT_DAYS,
  CALLBACK_SOURCES,
  CALLBACK_UPLOAD_FAILED_MESSAGE,
  DEFAULT_CALLBACK_PRICE,
  callbackOpportunityInput,
  type BulkCallbackOpportunitiesInput,
  type BulkCallbackResult,
  type CallbackAgent,
  type CallbackOpportunity,
  type CallbackOpportunityStatus,
  type CallbackSource,
} from '@warmline/contracts/callbacks';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { TextField } from '../../../components/field';
import { LoadError } from '../../../components/load-error';
import { Pager } from '../../../components/pager';
import { Spinner } from '../../../components/spinner';
import { toast } from '../../../components/toast-store';
import { CsvError, csvLine, readCsvTable } from '../../../lib/csv';
import { ApiError, errorMessage } from '../../../lib/api';
import { validate, type FieldErrors } from '../../../lib/form';
import { usPhoneText } from '../../../lib/phone-text';
import { SOURCE_LABEL, isSource, outcomeText } from '../../callbacks/format';
import { usDateTime } from '../../../lib/us-date';
import {
  exportUrl,
  fieldMessages,
  useCallbackAgents,
  useAddCallbackOpportunity,
  useAssignOpportunity,
  useBulkCallbackOpportunities,
  useCallbackOpportunities,
  useSetOpportunityState,
  type OpportunityFilter,
} from './callback-opportunities-api';
import { VendorKeysSection } from './vendor-keys-section';
import { EvidenceLink } from '../../compliance/evidence-link';
import './callback-opportunities.css';
import { useBusinessTimeZone } from '../../../lib/site-config';
import { OutsideCallingHoursFlag } from '../../compliance/calling-hours-badge';

/** The file an admin may pick, and the bulk call's body: the gateway takes 2 MB for it. */
const CALLBACK_FILE_MAX_BYTES = 2 * 1024 * 1024;

/** The template: the columns (spec §5) and one example row. */
const TEMPLATE_CSV = `${csvLine([...CALLBACK_CSV_COLUMNS])}\r\n${csvLine(['Maria', 'Lopez', '(512) 555-0143', 'TX', DEFAULT_CALLBACK_PRICE])}\r\n`;
const TEMPLATE_HREF = `data:text/csv;charset=utf-8,${encodeURIComponent(TEMPLATE_CSV)}`;

/** The row objects the bulk call takes, by the template's columns. */
const ROW_FIELD = { 'First Name': 'firstName', 'Last Name': 'lastName', Phone: 'phone', State: 'state', Price: 'price' } as const;
const FIELD_LABEL: Record<string, string> = { firstName: 'First Name', lastName: 'Last Name', phone: 'Phone', state: 'State', price: 'Price' };

const STATUS_LABEL: Record<CallbackOpportunityStatus, string> = {
  available: 'Available',
  assigned: 'Assigned',
  contacted: 'Contacted',
  expired: 'Expired',
  suppressed: 'Suppressed',
};

/**
 * Upload Callback Opportunities (spec §2 Admin, issue 15): vendor keys, the CSV upload (parsed here,
 * sent as rows), the manual form, format help, and the opportunities with their transcripts, a state
 * for those waiting for one, and assignment by hand.
 */
export function CallbackOpportunitiesTab() {
  return (
    <div className="callbacks-admin">
      <VendorKeysSection />
      <div className="callbacks-admin__pair">
        <CsvUpload />
        <ManualForm />
      </div>
      <FormatHelp />
      <OpportunityList />
    </div>
  );
}

// ---------------------------------------------------------------- the CSV upload

/** The rows to send, or why the file cannot be read into them (for the error panel). */
type ReadFile = { ok: true; csvData: BulkCallbackOpportunitiesInput['csvData'] } | { ok: false; detail: string };

/** Reads the chosen file into the bulk call's rows; every problem is said in words. */
async function readCallbackFile(file: File): Promise<ReadFile> {
  if (file.size === 0) return { ok: false, detail: 'The file is empty.' };
  if (file.size > CALLBACK_FILE_MAX_BYTES) return { ok: false, detail: 'The file is larger than 2 MB; split it into smaller files.' };
  let text: string;
  try {
    text = await file.text();
  } catch {
    return { ok: false, detail: 'The file could not be read.' };
  }
  let table;
  try {
    table = readCsvTable(text, CALLBACK_CSV_COLUMNS);
  } catch (error) {
    return { ok: false, detail: error instanceof CsvError ? `${error.message}.` : 'The file is not CSV.' };
  }
  // Price may be left out (15.00); the other columns must be there.
  const missing = table.missing.filter((c) => c !== 'Price');
  if (missing.length > 0) return { ok: false, detail: `The header row has no ${missing.join(', ')} column${missing.length > 1 ? 's' : ''}. Use the template's columns: ${CALLBACK_CSV_COLUMNS.join(', ')}.` };
  if (table.rows.length === 0) return { ok: false, detail: 'The file has no rows under its header.' };
  if (table.rows.length > CALLBACK_BULK_MAX_ROWS) {
    return { ok: false, detail: `The file has ${table.rows.length.toLocaleString('en-US')} rows; at most ${CALLBACK_BULK_MAX_ROWS.toLocaleString('en-US')} can be uploaded at once. Split it into smaller files.` };
  }
  const csvData = table.rows.map((row) => {
    const out: BulkCallbackOpportunitiesInput['csvData'][number] = {};
    for (const column of CALLBACK_CSV_COLUMNS) {
      const value = row[column];
      // A blank price is left out: the server prices it at the default.
      if (column === 'Price' && value === '') continue;
      out[ROW_FIELD[column]] = value;
    }
    return out;
  });
  // The rows as JSON carry their field names too: a file just under 2 MB can make a body over it.
  if (new TextEncoder().encode(JSON.stringify({ csvData })).length > CALLBACK_FILE_MAX_BYTES) {
    return { ok: false, detail: 'The rows come to more than 2 MB to send; split the file into smaller files.' };
  }
  return { ok: true, csvData };
}

function CsvUpload() {
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

function UploadResult({ result }: { result: BulkCallbackResult }) {
  return (
    <div className="callbacks-result" data-testid="upload-result">
      <p role="status" className="callbacks-result__summary">
        {result.created.toLocaleString('en-US')} {result.created === 1 ? 'opportunity' : 'opportunities'} created
        {result.rejected.length > 0 ? `, ${result.rejected.length.toLocaleString('en-US')} ${result.rejected.length === 1 ? 'row' : 'rows'} rejected` : ''}.
      </p>
      {result.rejected.length > 0 ? (
        <div className="callbacks-table-wrap">
          <table className="callbacks-table">
            <caption className="callbacks-table__caption">Rejected rows (numbered as in the file: the header is row 1)</caption>
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Column</th>
                <th scope="col">Problem</th>
              </tr>
            </thead>
            <tbody>
              {result.rejected.map((r, i) => (
                <tr key={`${r.row}-${r.field}-${i}`} data-testid="rejected-row">
                  <td>{r.row}</td>
                  <td>{FIELD_LABEL[r.field] ?? r.field}</td>
                  <td>{r.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}

// ---------------------------------------------------------------- the manual form

interface ManualValues {
  firstName: string;
  lastName: string;
  phone: string;
  state: string;
  price: string;
}
const EMPTY_MANUAL: ManualValues = { firstName: '', lastName: '', phone: '', state: '', price: DEFAULT_CALLBACK_PRICE };

function ManualForm() {
  const [values, setValues] = useState<ManualValues>(EMPTY_MANUAL);
  const [errors, setErrors] = useState<FieldErrors<ManualValues>>({});
  const [allRequired, setAllRequired] = useState(false);
  const add = useAddCallbackOpportunity();

  const set = (name: keyof ManualValues, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => ({ ...e, [name]: undefined }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    // Spec §5: every field is required, said once for the form; other problems beside their fields.
    // A blank price is the default price, as in a CSV (issue 22: one rule for both).
    const blank = (Object.keys(values) as Array<keyof ManualValues>).filter((k) => k !== 'price' && values[k].trim() === '');
    setAllRequired(blank.length > 0);
    const checked = validate(callbackOpportunityInput, values);
    if (!checked.ok || blank.length > 0) {
      const shown: FieldErrors<ManualValues> = {};
      if (!checked.ok) for (const [k, m] of Object.entries(checked.errors)) if (m !== CALLBACK_ALL_FIELDS_REQUIRED_MESSAGE) shown[k as keyof ManualValues] = m;
      setErrors(shown);
      const first = blank[0] ?? (Object.keys(shown)[0] as keyof ManualValues | undefined);
      const control = first ? form.elements.namedItem(first) : null;
      if (control instanceof HTMLElement) control.focus();
      return;
    }
    setErrors({});
    add.mutate(values, {
      onSuccess: () => {
        toast({ title: 'Callback opportunity added', description: `${values.firstName.trim()} ${values.lastName.trim()}`, variant: 'success' });
        setValues(EMPTY_MANUAL);
      },
      onError: (failure) => {
        const byField = fieldMessages(failure);
        if (Object.keys(byField).length > 0) setErrors(byField);
        // 409: the phone is on the suppression list, or has an open opportunity already.
        else if (failure instanceof ApiError && failure.status === 409 && failure.serverMessage) setErrors({ phone: failure.serverMessage });
        toast({ title: CALLBACK_ADD_FAILED_MESSAGE, description: errorMessage(failure, 'Please try again.'), variant: 'destructive' });
      },
    });
  };

  // The input's own aria-invalid replaces the field's, so it says both: a message beside it, or blank when all are required.
  const blankInvalid = (name: keyof ManualValues) => (errors[name] || (allRequired && values[name].trim() === '') ? true : undefined);

  return (
    <section className="card callbacks-section" aria-labelledby="callback-manual-title">
      <h2 id="callback-manual-title" className="callbacks-section__title">
        Add Manually
      </h2>
      <form className="callbacks-manual" onSubmit={submit} noValidate>
        {allRequired ? (
          <p className="field__error callbacks-manual__all" role="alert">
            {CALLBACK_ALL_FIELDS_REQUIRED_MESSAGE}
          </p>
        ) : null}
        <TextField label="First name" name="firstName" autoComplete="off" maxLength={100} value={values.firstName} error={errors.firstName} aria-invalid={blankInvalid('firstName')} onChange={(e) => set('firstName', e.target.value)} />
        <TextField label="Last name" name="lastName" autoComplete="off" maxLength={100} value={values.lastName} error={errors.lastName} aria-invalid={blankInvalid('lastName')} onChange={(e) => set('lastName', e.target.value)} />
        <TextField label="Phone" name="phone" type="tel" autoComplete="off" maxLength={30} placeholder="(512) 555-0143" value={values.phone} error={errors.phone} aria-invalid={blankInvalid('phone')} onChange={(e) => set('phone', e.target.value)} />
        <TextField
          label="State"
          name="state"
          autoComplete="off"
          maxLength={2}
          placeholder="TX"
          className="callbacks-manual__short"
          value={values.state}
          error={errors.state}
          aria-invalid={blankInvalid('state')}
          onChange={(e) => set('state', e.target.value.toUpperCase().slice(0, 2))}
        />
        <TextField
          label="Price ($)"
          name="price"
          inputMode="decimal"
          autoComplete="off"
          maxLength={10}
          placeholder={DEFAULT_CALLBACK_PRICE}
          className="callbacks-manual__price"
          hint={CALLBACK_PRICE_MEANING}
          value={values.price}
          error={errors.price}
          onChange={(e) => set('price', e.target.value)}
        />
        <div className="callbacks-manual__submit">
          <Button type="submit" busy={add.isPending}>
            Add Opportunity
          </Button>
        </div>
      </form>
    </section>
  );
}

// ---------------------------------------------------------------- format help

function FormatHelp() {
  return (
    <section className="card callbacks-section callbacks-help" aria-labelledby="callback-help-title">
      <h2 id="callback-help-title" className="callbacks-section__title">
        CSV Format
      </h2>
      <ul>
        <li>
          The first row names the columns: <strong>{CALLBACK_CSV_COLUMNS.join(', ')}</strong> (any order, any case).
        </li>
        <li>
          Phone: a US number with its area code, 10 digits; punctuation and a leading +1 are fine. Toll-free and non-geographic area codes
          (800, 888, 500, 700, 900, …) are refused.
        </li>
        <li>State: the 2-letter code or the state&apos;s name, e.g. TX or Texas.</li>
        <li>
          Price: dollars from 0.00 to {CALLBACK_PRICE_MAX}, e.g. 15.00; a blank price is ${DEFAULT_CALLBACK_PRICE}. It is what the agent who
          receives the call-back is charged: one call-back of their balance, recorded at this price.
        </li>
        <li>
          A phone on the suppression list is refused. A phone is sold once: a phone with an open opportunity (available, or delivered in the
          last {CALLBACK_REPEAT_DAYS} days), or a second row with the same phone, is listed as a duplicate.
        </li>
        <li>
          Up to {CALLBACK_BULK_MAX_ROWS.toLocaleString('en-US')} rows and 2 MB per file. Good rows are added; each bad row is listed with its
          problem and its row number in the file (the header is row 1).
        </li>
        <li>An opportunity not assigned within {CALLBACK_EXPIRY_HOURS} hours of its callback time (or of being added) expires.</li>
      </ul>
    </section>
  );
}

// ---------------------------------------------------------------- the list

const FIRST_PAGE: OpportunityFilter = { status: '', state: '', source: '', page: 1 };
const isStatus = (v: string): v is CallbackOpportunityStatus => (CALLBACK_OPPORTUNITY_STATUSES as readonly string[]).includes(v);

function OpportunityList() {
  const [filter, setFilter] = useState<OpportunityFilter>(FIRST_PAGE);
  const [assigning, setAssigning] = useState<CallbackOpportunity | null>(null);
  const list = useCallbackOpportunities(filter);
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / CALLBACK_OPPORTUNITIES_PAGE_SIZE));
  const statusId = useId();
  const stateId = useId();
  const sourceId = useId();
  // A new filter starts at its first page.
  const change = (next: Partial<OpportunityFilter>) => setFilter((f) => ({ ...f, ...next, page: 1 }));

  return (
    <section className="callbacks-list" aria-labelledby="callback-list-title">
      <div className="callbacks-section__head">
        <h2 id="callback-list-title" className="callbacks-section__title">
          Callback Opportunities
        </h2>
        <a className="btn btn--secondary btn--small" href={exportUrl(filter)} download>
          Export CSV
        </a>
      </div>
      <div className="callbacks-filters">
        <div className="field">
          <label className="field__label" htmlFor={statusId}>
            Status
          </label>
          <select id={statusId} className="field__input field__select" value={filter.status} onChange={(e) => change({ status: isStatus(e.target.value) ? e.target.value : '' })}>
            <option value="">Any status</option>
            {CALLBACK_OPPORTUNITY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABEL[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={stateId}>
            State
          </label>
          <select id={stateId} className="field__input field__select" value={filter.state} onChange={(e) => change({ state: e.target.value })}>
            <option value="">Any state</option>
            <option value="NONE">Needs state</option>
            {US_STATE_CODES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={sourceId}>
            Source
          </label>
          <select id={sourceId} className="field__input field__select" value={filter.source} onChange={(e) => change({ source: isSource(e.target.value) ? e.target.value : '' })}>
            <option value="">Any source</option>
            {CALLBACK_SOURCES.map((s: CallbackSource) => (
              <option key={s} value={s}>
                {SOURCE_LABEL[s]}
              </option>
            ))}
          </select>
        </div>
      </div>
      {list.isPending ? (
        <Spinner label="Loading callback opportunities…" showLabel />
      ) : list.isError ? (
        <LoadError what="callback opportunities" error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.opportunities.length === 0 ? (
        <p className="admin-empty">{filter.status || filter.state || filter.source ? 'No opportunities match these filters.' : 'No callback opportunities yet.'}</p>
      ) : (
        <>
          <p className="admin-count" aria-live="polite">
            {total.toLocaleString('en-US')} {total === 1 ? 'opportunity' : 'opportunities'}, newest first
          </p>
          <ul className="callback-list">
            {list.data.opportunities.map((o) => (
              <OpportunityCard key={o.id} opportunity={o} onAssign={() => setAssigning(o)} />
            ))}
          </ul>
          <Pager page={filter.page} totalPages={pages} onPage={(page) => setFilter((f) => ({ ...f, page }))} label="Callback opportunity pages" />
        </>
      )}
      {assigning ? <AssignDialog opportunity={assigning} onClose={() => setAssigning(null)} /> : null}
    </section>
  );
}

function OpportunityCard({ opportunity: o, onAssign }: { opportunity: CallbackOpportunity; onAssign: () => void }) {
  const titleId = useId();
  const zone = useBusinessTimeZone();
  const name = `${o.firstName} ${o.lastName}`.trim();
  return (
    <li className="card callback-card" data-testid="callback-opportunity" aria-labelledby={titleId}>
      <div className="callback-card__head">
        <h3 id={titleId} className="callback-card__name">
          {name}
        </h3>
        <span className={`callback-status callback-status--${o.status}`}>{STATUS_LABEL[o.status]}</span>
      </div>
      <dl className="callback-card__facts">
        <div>
          <dt>Phone</dt>
          <dd>{usPhoneText(o.phone)}</dd>
        </div>
        <div>
          <dt>State</dt>
          <dd>{o.state ?? <StateSetter opportunity={o} />}</dd>
        </div>
        <div>
          <dt>Price</dt>
          <dd>${o.price}</dd>
        </div>
        <div>
          <dt>Source</dt>
          <dd>{o.source === 'vendor' && o.vendorName ? `Vendor: ${o.vendorName}` : SOURCE_LABEL[o.source]}</dd>
        </div>
        <div>
          <dt>Callback time</dt>
          <dd>{o.callbackTime ? usDateTime(o.callbackTime, zone) : 'Any time'}<OutsideCallingHoursFlag outside={o.callbackTimeOutsideCallingHours} /></dd>
        </div>
        {o.status === 'available' || o.status === 'expired' ? (
          <div>
            <dt>{o.status === 'expired' ? 'Expired' : 'Expires'}</dt>
            <dd>{usDateTime(o.expiresAt, zone)}</dd>
          </div>
        ) : null}
        {o.callOutcome ? (
          <div>
            <dt>Outcome</dt>
            <dd>{outcomeText(o.callOutcome)}</dd>
          </div>
        ) : null}
        {o.leadQuality || o.interestLevel ? (
          <div>
            <dt>Quality / interest</dt>
            <dd>{[o.leadQuality, o.interestLevel].map((v) => v ?? '—').join(' / ')}</dd>
          </div>
        ) : null}
        {o.suppressedAt ? (
          <div>
            <dt>Suppressed</dt>
            <dd>{usDateTime(o.suppressedAt, zone)}</dd>
          </div>
        ) : null}
        {o.assignedAt ? (
          <div>
            <dt>Assigned</dt>
            <dd>{usDateTime(o.assignedAt, zone)}</dd>
          </div>
        ) : null}
      </dl>
      {o.status === 'suppressed' ? <p className="callback-card__note">The phone is on the suppression list: this opportunity is not sold.</p> : null}
      {o.transcript ? (
        <details className="callback-card__transcript">
          <summary>Transcript</summary>
          <p>{o.transcript}</p>
        </details>
      ) : null}
      {o.assignedAt ? <EvidenceLink kind="callback" admin id={o.id} name={name} /> : null}
      {o.status === 'available' ? (
        <div className="callback-card__actions">
          <Button variant="secondary" className="btn--small" onClick={onAssign} aria-label={`Assign ${name}`}>
            Assign
          </Button>
        </div>
      ) : null}
    </li>
  );
}

/** 'Needs state': the opportunity's area code named no state, so an admin gives it one. */
function StateSetter({ opportunity }: { opportunity: CallbackOpportunity }) {
  const id = useId();
  const [state, setState] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = useSetOpportunityState();
  return (
    <span className="callback-state-setter">
      <span className="callback-status callback-status--needs-state">Needs state</span>
      <label htmlFor={id} className="visually-hidden">
        State of {opportunity.firstName} {opportunity.lastName}
      </label>
      <select id={id} className="field__input field__select callback-state-setter__select" value={state} onChange={(e) => setState(e.target.value)}>
        <option value="">Choose…</option>
        {US_STATE_CODES.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
      <Button
        variant="secondary"
        className="btn--small"
        disabled={!state}
        busy={save.isPending}
        onClick={() =>
          save.mutate(
            { id: opportunity.id, state },
            {
              onSuccess: () => setError(null),
              onError: (failure) => setError(fieldMessages(failure).state ?? errorMessage(failure, 'The state could not be saved; please try again.')),
            },
          )
        }
      >
        Set state
      </Button>
      {error ? (
        <span className="field__error" role="alert">
          {error}
        </span>
      ) : null}
    </span>
  );
}

/** Agents who work the opportunity's state and have a balance first; then by balance. */
function pickerOrder(state: string | null) {
  const rank = (a: CallbackAgent) => (state !== null && a.states.includes(state) ? 0 : 1) * 2 + (a.balance > 0 ? 0 : 1);
  return (a: CallbackAgent, b: CallbackAgent) => rank(a) - rank(b) || b.balance - a.balance;
}

/**
 * Assign by hand (issue 22): only agents who can receive call-backs (they bought Call-Backs), each
 * with their call-back balance and working states; those in the opportunity's state first.
 */
function AssignDialog({ opportunity, onClose }: { opportunity: CallbackOpportunity; onClose: () => void }) {
  const searchId = useId();
  const [typed, setTyped] = useState('');
  const agents = useCallbackAgents();
  const assign = useAssignOpportunity();
  const name = `${opportunity.firstName} ${opportunity.lastName}`.trim();
  const term = typed.trim().toLowerCase();
  const shown = (agents.data ?? [])
    .filter((a) => term === '' || `${a.firstName} ${a.lastName} ${a.email}`.toLowerCase().includes(term))
    .sort(pickerOrder(opportunity.state));

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Assign Call-back" description={`Give ${name} (${opportunity.state ?? 'no state'}) to an agent by hand.`}>
      <div className="field">
        <label className="field__label" htmlFor={searchId}>
          Find an agent (name or e-mail)
        </label>
        <input id={searchId} type="search" className="field__input" value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
      </div>
      <p className="callbacks-table__sub">
        Agents who bought Call-Backs. One call-back of the agent&apos;s balance pays for it; an agent without a balance gets it anyway.
      </p>
      {agents.isPending ? (
        <Spinner label="Loading agents…" />
      ) : agents.isError ? (
        <p className="field__error" role="alert">
          Failed to fetch agents: {errorMessage(agents.error, 'the server did not answer')}.
        </p>
      ) : shown.length === 0 ? (
        <p className="admin-empty">{term ? 'No agent matches.' : 'No agent has bought call-backs yet.'}</p>
      ) : (
        <ul className="assign-list" data-testid="assign-agents">
          {shown.map((a) => {
            const who = `${a.firstName} ${a.lastName}`.trim() || a.email;
            const inState = opportunity.state !== null && a.states.includes(opportunity.state);
            return (
              <li key={a.userId} className="assign-list__item" data-testid="assign-agent">
                <span className="assign-list__who">
                  <strong>{who}</strong>
                  <span className="callbacks-table__sub">{a.email}</span>
                  <span className="callbacks-table__sub">
                    Balance: {a.balance.toLocaleString('en-US')} call-back{a.balance === 1 ? '' : 's'} · States: {a.states.length > 0 ? a.states.join(', ') : 'none'}
                    {opportunity.state !== null && !inState ? ` (not ${opportunity.state})` : ''}
                  </span>
                </span>
                <Button
                  className="btn--small"
                  busy={assign.isPending && assign.variables?.userId === a.userId}
                  disabled={assign.isPending}
                  aria-label={`Assign to ${who}`}
                  onClick={() =>
                    assign.mutate(
                      { id: opportunity.id, userId: a.userId },
                      {
                        onSuccess: () => {
                          toast({ title: 'Call-back assigned', description: `${name} is now ${who}'s.`, variant: 'success' });
                          onClose();
                        },
                        onError: (failure) => toast({ title: 'Failed to assign call-back', description: errorMessage(failure, 'Please try again.'), variant: 'destructive' }),
                      },
                    )
                  }
                >
                  Assign
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </Dialog>
  );
}
