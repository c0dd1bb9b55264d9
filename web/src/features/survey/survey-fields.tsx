import { useId, type SelectHTMLAttributes } from 'react';

/**
 * The wizard's choice inputs: a native select (the phone's own picker, no custom widget to
 * learn) and a group of radio cards for the lead type. Both tie their message to the input
 * the way TextField does (aria-describedby / aria-invalid).
 */

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: string;
  error?: string | undefined;
  /** The empty first option, e.g. 'Select your role'. */
  placeholder: string;
  options: ReadonlyArray<{ value: string; label: string }>;
}

export function SelectField({ label, error, placeholder, options, className, ...select }: SelectFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={['field', className ?? ''].filter(Boolean).join(' ')}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="field__input field__select"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...select}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export interface RadioCardsProps {
  legend: string;
  name: string;
  value: string;
  options: ReadonlyArray<{ value: string; label: string; hint?: string | undefined }>;
  onChange(value: string): void;
  error?: string | undefined;
}

export function RadioCards({ legend, name, value, options, onChange, error }: RadioCardsProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <fieldset
      className="field radio-cards"
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId : undefined}
    >
      <legend className="field__label">{legend}</legend>
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
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
