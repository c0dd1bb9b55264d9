import { useId, type SelectHTMLAttributes } from 'react';
import { Field, FieldError, RequiredMark, type FieldProps } from '../../components/field';

/**
 * The wizard's choice inputs: a native select (the phone's own picker, no custom widget to
 * learn) and a group of radio cards for the lead type. Both tie their message to the input
 * the way TextField does (components/field.tsx).
 */

export interface SelectFieldProps extends FieldProps, Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'className'> {
  /** The empty first option, e.g. 'Select your role'. */
  placeholder: string;
  options: ReadonlyArray<{ value: string; label: string }>;
}

export function SelectField({ label, error, hint, placeholder, options, className, required, ...select }: SelectFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} className={className} required={required}>
      {(control) => (
        <select {...control} className="field__input field__select" {...select}>
          <option value="">{placeholder}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export interface RadioCardsProps {
  legend: string;
  name: string;
  value: string;
  options: ReadonlyArray<{ value: string; label: string; hint?: string | undefined }>;
  onChange(value: string): void;
  error?: string | undefined;
  /** A visible * on the legend and aria-required on the group (a radiogroup, which may carry it). */
  required?: boolean;
}

export function RadioCards({ legend, name, value, options, onChange, error, required }: RadioCardsProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <fieldset
      className="field radio-cards"
      role={required ? 'radiogroup' : undefined}
      aria-labelledby={required ? `${id}-legend` : undefined}
      aria-required={required ? true : undefined}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId : undefined}
    >
      <legend id={`${id}-legend`} className="field__label">
        {legend}
        {required ? <RequiredMark /> : null}
      </legend>
      <div className="radio-cards__options">
        {options.map((option) => (
          <label key={option.value} className="radio-card">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              className="radio-card__input"
              aria-describedby={error ? errorId : undefined}
            />
            <span className="radio-card__body">
              <span className="radio-card__label">{option.label}</span>
              {option.hint ? <span className="radio-card__hint">{option.hint}</span> : null}
            </span>
          </label>
        ))}
      </div>
      <FieldError id={errorId} error={error} />
    </fieldset>
  );
}
