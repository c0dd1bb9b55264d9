import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import {
  PARTNER_BUSINESS_TYPES,
  PARTNER_EXPERIENCE_YEARS,
  PARTNER_MONTHLY_VOLUMES,
  PARTNER_SERVICES,
  PARTNER_SUBMIT_FAILED_MESSAGE,
  partnerApplicationSchema,
  type PartnerApplication,
  type PartnerApplicationCreated,
} from '@warmline/contracts/partners';
import { Button } from '../../components/button';
import { Field, FieldError, TextField } from '../../components/field';
import { toast } from '../../components/toast-store';
import { ApiError } from '../../lib/api';
import { validate } from '../../lib/form';
import { formatBytes } from '../admin/lead-imports/lead-import-progress';
import { SelectField } from '../survey/survey-fields';
import { issuesByField, SendInterrupted, submitPartnerApplication, type SendProgress } from './api';
import { DocumentPicker } from './partner-documents';

/**
 * The Partner Network Application form (spec §5; issue 14). Each answer is checked with the
 * contracts schema when the applicant leaves it (once something was typed) and again on submit,
 * the messages beside the fields; optional documents are dropped or chosen and checked in the
 * browser, then sent with the answers under a progress bar. A refusal keeps everything typed and
 * attached, with the server's reason beside the field it is about.
 */

/** The form as typed: text as it is, the services ticked, the terms box. */
export interface PartnerFormValues {
  businessName: string;
  contactName: string;
  email: string;
  phone: string;
  website: string;
  businessType: string;
  experienceYears: string;
  monthlyVolume: string;
  servicesInterested: string[];
  targetMarkets: string;
  businessDescription: string;
  whyPartner: string;
  agreeToTerms: boolean;
}
type FieldName = keyof PartnerFormValues;
/** The fields typed or chosen as text (inputs, selects, text areas). */
type TextName = { [K in FieldName]: PartnerFormValues[K] extends string ? K : never }[FieldName];
/** A message per field, and one for the documents (a file the server refused). */
type FormErrors = Partial<Record<FieldName | 'documents', string>>;

/** The fields in the order they are on screen: the cursor goes to the first with a message. */
const FIELDS: readonly FieldName[] = [
  'businessName',
  'contactName',
  'email',
  'phone',
  'website',
  'businessType',
  'experienceYears',
  'monthlyVolume',
  'servicesInterested',
  'targetMarkets',
  'businessDescription',
  'whyPartner',
  'agreeToTerms',
];
const isField = (name: string): name is FieldName => (FIELDS as readonly string[]).includes(name);

const EMPTY: PartnerFormValues = {
  businessName: '',
  contactName: '',
  email: '',
  phone: '',
  website: '',
  businessType: '',
  experienceYears: '',
  monthlyVolume: '',
  servicesInterested: [],
  targetMarkets: '',
  businessDescription: '',
  whyPartner: '',
  agreeToTerms: false,
};

/** Spec §5: the two long answers need at least this many characters. */
const LONG_ANSWER_MIN = 50;

const options = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

/** The spec's message for one field as the values stand, or undefined when it is fine. */
function messageFor(values: PartnerFormValues, name: FieldName): string | undefined {
  const result = validate(partnerApplicationSchema, values);
  return result.ok ? undefined : (result.errors as FormErrors)[name];
}

/** Puts the cursor in the first field with a message (the first service's box, the documents' button). */
function focusFirstProblem(form: HTMLFormElement, errors: FormErrors) {
  const first = [...FIELDS, 'documents' as const].find((name) => errors[name]);
  if (!first) return;
  const target =
    first === 'documents'
      ? form.querySelector<HTMLElement>('[data-testid="document-drop-zone"] button')
      : form.querySelector<HTMLElement>(`[name="${first}"]`);
  target?.focus();
}

export function PartnerApplicationForm({ onSubmitted }: { onSubmitted(created: PartnerApplicationCreated, application: PartnerApplication, documents: number): void }) {
  const [values, setValues] = useState<PartnerFormValues>(EMPTY);
  const [documents, setDocuments] = useState<File[]>([]);
  const [errors, setErrors] = useState<FormErrors>({});
  // A field is checked when it is left only once something was typed or chosen in it.
  const edited = useRef(new Set<FieldName>());
  const [failure, setFailure] = useState<string | null>(null);
  const [progress, setProgress] = useState<SendProgress | null>(null);
  const abort = useRef<AbortController | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // After a refusal, once the fields are enabled again: the first field with a message, else Submit.
  const [refocus, setRefocus] = useState<FormErrors | null>(null);
  const send = useMutation({
    mutationFn: ({ application, files, signal }: { application: PartnerApplication; files: File[]; signal: AbortSignal }) =>
      submitPartnerApplication(application, files, setProgress, signal),
  });

  // Leaving the page mid-send stops it.
  useEffect(() => () => abort.current?.abort(), []);

  useEffect(() => {
    const form = formRef.current;
    if (!refocus || !form || send.isPending) return;
    setRefocus(null);
    if (Object.values(refocus).some(Boolean)) focusFirstProblem(form, refocus);
    else form.querySelector<HTMLElement>('button[type="submit"]')?.focus();
  }, [refocus, send.isPending]);

  const set = <K extends FieldName>(name: K, value: PartnerFormValues[K]) => {
    const next = { ...values, [name]: value };
    setValues(next);
    edited.current.add(name);
    // A message already shown follows the typing: it goes as soon as the answer is right.
    if (errors[name]) setErrors((e) => ({ ...e, [name]: messageFor(next, name) }));
  };

  const check = (name: FieldName) => {
    if (!edited.current.has(name)) return;
    setErrors((e) => ({ ...e, [name]: messageFor(values, name) }));
  };

  const text = (name: TextName) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) => set(name, event.target.value),
    onBlur: () => check(name),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const result = validate(partnerApplicationSchema, values);
    if (!result.ok) {
      const found = result.errors as FormErrors;
      setErrors(found);
      focusFirstProblem(form, found);
      return;
    }
    setErrors({});
    setFailure(null);
    const controller = new AbortController();
    abort.current = controller;
    const files = documents;
    setProgress({ loaded: 0, total: files.reduce((sum, f) => sum + f.size, 0) || 1 });
    send.mutate(
      { application: result.data, files, signal: controller.signal },
      {
        onSuccess: (created) => onSubmitted(created, result.data, files.length),
        onError: (error) => {
          if (controller.signal.aborted) return;
          const { message, found } = explainRefusal(error, files);
          setErrors(found);
          setFailure(message);
          toast({ title: PARTNER_SUBMIT_FAILED_MESSAGE, description: message, variant: 'destructive' });
          setRefocus(found);
        },
        onSettled: () => {
          abort.current = null;
          setProgress(null);
        },
      },
    );
  };

  const sending = send.isPending;

  return (
    <form ref={formRef} className="card partner-form" onSubmit={submit} noValidate aria-label="Partner network application">
      <p className="partner-form__required-note">Every field is required unless it says optional.</p>
      <fieldset className="partner-form__fieldset" disabled={sending}>
        <Section title="Your business">
          <div className="partner-form__grid">
            <TextField label="Business Name" autoComplete="organization" {...text('businessName')} />
            <TextField label="Contact Name" autoComplete="name" {...text('contactName')} />
            <TextField label="Email" type="email" autoComplete="email" {...text('email')} />
            <TextField label="Phone" type="tel" autoComplete="tel" {...text('phone')} />
            <TextField label="Website" inputMode="url" autoComplete="url" placeholder="https://example.com" spellCheck={false} {...text('website')} />
            <SelectField label="Business Type" placeholder="Select a business type" options={options(PARTNER_BUSINESS_TYPES)} {...text('businessType')} />
            <SelectField label="Years of Experience" placeholder="Select your experience" options={options(PARTNER_EXPERIENCE_YEARS)} {...text('experienceYears')} />
            <SelectField
              label="Monthly Lead Volume"
              placeholder="Select your monthly volume"
              options={options(PARTNER_MONTHLY_VOLUMES)}
              {...text('monthlyVolume')}
            />
          </div>
        </Section>

        <Section title="Working with us">
          <ServicesField
            value={values.servicesInterested}
            error={errors.servicesInterested}
            onChange={(services) => set('servicesInterested', services)}
            onLeave={() => check('servicesInterested')}
          />
          <TextField
            label="Target Markets"
            hint="The states, lines of insurance or audiences you work with, e.g. final expense in Texas and Florida"
            {...text('targetMarkets')}
          />
          <LongAnswer label="Business Description" hint="What your business does, for whom, and how it finds its leads or customers." {...text('businessDescription')} />
          <LongAnswer label="Why do you want to partner with WarmLine?" hint="What you would like to do together." {...text('whyPartner')} />
        </Section>

        <Section
          title={
            <>
              Documents <span className="partner-form__optional">(optional)</span>
            </>
          }
        >
          <DocumentPicker
            files={documents}
            onChange={(files) => {
              setDocuments(files);
              setErrors((e) => (e.documents ? { ...e, documents: undefined } : e));
            }}
            error={errors.documents}
            disabled={sending}
          />
        </Section>

        <TermsField
          checked={values.agreeToTerms}
          error={errors.agreeToTerms}
          onChange={(checked) => set('agreeToTerms', checked)}
        />
      </fieldset>

      {failure ? (
        <div className="partner-form__failure" role="alert">
          <p className="partner-form__failure-title">{PARTNER_SUBMIT_FAILED_MESSAGE}</p>
          <p>{failure}</p>
          <p className="partner-form__failure-note">Your answers and documents are still here: correct what is marked and submit again.</p>
        </div>
      ) : null}

      <div className="partner-form__submit">
        <Button type="submit" busy={sending} block>
          {sending ? 'Submitting…' : 'Submit Application'}
        </Button>
      </div>
      {sending && progress ? <SendingBar progress={progress} documents={documents.length} /> : null}
    </form>
  );
}

/** What a refusal means for the form: the line to show, and the messages to put beside fields or documents. */
function explainRefusal(error: Error, files: readonly File[]): { message: string; found: FormErrors } {
  if (error instanceof SendInterrupted) {
    return { message: `${error.message}. Check your connection and submit again.`, found: {} };
  }
  if (!(error instanceof ApiError)) return { message: 'Something went wrong. Please try again.', found: {} };
  const message =
    error.serverMessage ??
    (error.status === 413 ? 'The documents are too large to send together.' : `The server could not take the application (${error.status}). Please try again.`);
  const found: FormErrors = {};
  for (const [key, text] of Object.entries(issuesByField(error))) {
    if (isField(key)) found[key] = text;
    else if (/^file/i.test(key) || key === 'documents') found.documents ??= text;
  }
  // A document refused by its bytes or size: the server names the file.
  if (!Object.keys(found).length && error.status === 400 && files.some((f) => message.includes(f.name))) found.documents = message;
  return { message, found };
}

function Section({ title, children }: { title: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section className="partner-form__section" aria-labelledby={id}>
      <h2 id={id} className="partner-form__section-title">
        {title}
      </h2>
      {children}
    </section>
  );
}

function ServicesField({
  value,
  error,
  onChange,
  onLeave,
}: {
  value: string[];
  error: string | undefined;
  onChange(services: string[]): void;
  onLeave(): void;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <fieldset
      className="field partner-services"
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId : undefined}
      onBlur={(event) => {
        // Checked when the cursor leaves the group, not when it moves between its boxes.
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) onLeave();
      }}
    >
      <legend className="field__label">Services You’re Interested In</legend>
      <p className="field__hint">Choose all that apply.</p>
      <div className="partner-services__options">
        {PARTNER_SERVICES.map((service) => (
          <label key={service} className="partner-check">
            <input
              type="checkbox"
              name="servicesInterested"
              value={service}
              checked={value.includes(service)}
              onChange={(e) => onChange(e.target.checked ? PARTNER_SERVICES.filter((s) => s === service || value.includes(s)) : value.filter((s) => s !== service))}
            />
            <span>{service}</span>
          </label>
        ))}
      </div>
      <FieldError id={errorId} error={error} />
    </fieldset>
  );
}

function LongAnswer({
  label,
  hint,
  name,
  value,
  error,
  onChange,
  onBlur,
}: {
  label: string;
  hint: string;
  name: string;
  value: string;
  error: string | undefined;
  onChange(event: { target: { value: string } }): void;
  onBlur(): void;
}) {
  const length = value.trim().length;
  return (
    <Field label={label} error={error} hint={`${hint} At least ${LONG_ANSWER_MIN} characters.`} className="partner-long">
      {(control) => (
        <>
          <textarea {...control} className="field__input partner-form__textarea" name={name} rows={5} maxLength={5000} value={value} onChange={onChange} onBlur={onBlur} />
          <span className={length >= LONG_ANSWER_MIN ? 'partner-form__counter partner-form__counter--enough' : 'partner-form__counter'}>
            {length < LONG_ANSWER_MIN ? `${length} of ${LONG_ANSWER_MIN} characters` : `${length.toLocaleString('en-US')} characters`}
          </span>
        </>
      )}
    </Field>
  );
}

function TermsField({ checked, error, onChange }: { checked: boolean; error: string | undefined; onChange(checked: boolean): void }) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="partner-terms">
      <label className="partner-check partner-check--terms">
        <input
          type="checkbox"
          name="agreeToTerms"
          checked={checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => onChange(e.target.checked)}
        />
        <span>I agree to the terms and conditions of the WarmLine Partner Network, and to be contacted about my application.</span>
      </label>
      <FieldError id={errorId} error={error} />
    </div>
  );
}

function SendingBar({ progress, documents }: { progress: SendProgress; documents: number }) {
  const labelId = useId();
  const percent = Math.min(100, Math.floor((progress.loaded / Math.max(1, progress.total)) * 100));
  const sent = progress.loaded >= progress.total && progress.loaded > 0;
  const what = documents === 0 ? 'your application' : documents === 1 ? 'your application and 1 document' : `your application and ${documents} documents`;
  return (
    <div className="partner-sending">
      <p id={labelId} className="partner-sending__label" role="status">
        {sent ? (documents ? 'Checking your documents…' : 'Saving your application…') : `Sending ${what}…`}
      </p>
      <div
        className="partner-sending__bar"
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%: ${formatBytes(progress.loaded)} of ${formatBytes(progress.total)} sent`}
      >
        <div className="partner-sending__fill" style={{ width: `${percent}%` }} />
      </div>
      <p className="partner-sending__line">
        {formatBytes(progress.loaded)} of {formatBytes(progress.total)} ({percent}%)
      </p>
    </div>
  );
}
