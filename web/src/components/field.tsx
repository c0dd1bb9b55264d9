import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import * as Label from '@radix-ui/react-label';

/** What ties a control to its field: its id, and the error or hint it is described by. */
export interface FieldControl {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  'aria-required': true | undefined;
}

export interface FieldProps {
  label: string;
  /** The validation message shown under the field and announced to screen readers. */
  error?: string | undefined;
  /** Help under the field, shown while it has no error. */
  hint?: string | undefined;
  className?: string | undefined;
  /** Marks the field as one the form cannot go on without: a visible * and aria-required. */
  required?: boolean | undefined;
}

/**
 * A labelled field around the one control `children` renders (an input, a select, a textarea):
 * the label, then the hint or the error message, tied to the control with aria-describedby and
 * aria-invalid.
 */
export function Field({ label, error, hint, className, required, children }: FieldProps & { children(control: FieldControl): ReactNode }) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const shownHint = error ? undefined : hint;
  const control: FieldControl = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : shownHint ? hintId : undefined,
    'aria-required': required ? true : undefined,
  };
  return (
    <div className={className ? `field ${className}` : 'field'}>
      {required ? (
        // The mark sits beside the label, not in it, so the field's name stays its label's words.
        <span className="field__label-line">
          <Label.Root className="field__label" htmlFor={id}>
            {label}
          </Label.Root>
          <RequiredMark />
        </span>
      ) : (
        <Label.Root className="field__label" htmlFor={id}>
          {label}
        </Label.Root>
      )}
      {children(control)}
      {shownHint ? (
        <p id={hintId} className="field__hint">
          {shownHint}
        </p>
      ) : null}
      <FieldError id={errorId} error={error} />
    </div>
  );
}

/**
 * The visible sign of a required field. Hidden from screen readers, which hear aria-required on
 * the control instead; the form's note explains the sign (RequiredNote).
 */
export function RequiredMark() {
  return (
    <span className="field__required" aria-hidden="true">
      {' *'}
    </span>
  );
}

/** What the * means, once above a form whose fields carry it. */
export function RequiredNote({ className }: { className?: string }) {
  return (
    <p className={className ? `required-note ${className}` : 'required-note'}>
      Fields marked <span className="field__required">*</span> are required.
    </p>
  );
}

/** A field's validation message, announced when it appears; nothing without one. */
export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p id={id} className="field__error" role="alert">
      {error}
    </p>
  ) : null;
}

export interface TextFieldProps extends FieldProps, Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'> {}

/** A labelled input with its error message tied to it. */
export function TextField({ label, error, hint, className, required, ...input }: TextFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} className={className} required={required}>
      {(control) => <input {...control} className="field__input" {...input} />}
    </Field>
  );
}

/** A password input with a show/hide toggle. */
export function PasswordField({ label, error, hint, className, required, ...input }: Omit<TextFieldProps, 'type'>) {
  const [visible, setVisible] = useState(false);
  return (
    <Field label={label} error={error} hint={hint} className={className} required={required}>
      {(control) => (
        <div className="field__password">
          <input {...control} className="field__input" type={visible ? 'text' : 'password'} {...input} />
          <button
            type="button"
            className="field__toggle"
            onClick={() => setVisible((v) => !v)}
            aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
            aria-pressed={visible}
            aria-controls={control.id}
          >
            {visible ? <EyeOffIcon /> : <EyeIcon />}
          </button>
        </div>
      )}
    </Field>
  );
}

function EyeIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z" />
      <circle cx="12" cy="12" r="3" />
    </svg>
  );
}

function EyeOffIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="M17.94 17.94A10.1 10.1 0 0 1 12 19c-7 0-11-7-11-7a18.5 18.5 0 0 1 5.06-5.94M9.9 4.24A9.1 9.1 0 0 1 12 4c7 0 11 7 11 7a18.5 18.5 0 0 1-2.16 3.19M14.12 14.12a3 3 0 1 1-4.24-4.24" />
      <line x1="1" y1="1" x2="23" y2="23" />
    </svg>
  );
}
