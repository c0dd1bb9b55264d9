import type { FormEvent } from 'react';
import { Button } from '../../../components/button';

/** An admin list's one-field search: the text as typed, searched when submitted (Enter or the button). */
export function AdminSearchForm({
  id,
  label,
  formLabel,
  placeholder,
  button,
  value,
  onChange,
  onSubmit,
  inputMode,
  className,
}: {
  id: string;
  /** What the field searches by, for screen readers. */
  label: string;
  /** The search landmark's name. */
  formLabel: string;
  placeholder: string;
  button: string;
  value: string;
  onChange: (text: string) => void;
  onSubmit: (event: FormEvent) => void;
  inputMode?: 'tel' | 'text';
  className?: string;
}) {
  return (
    <form className={className ? `admin-filter ${className}` : 'admin-filter'} role="search" aria-label={formLabel} onSubmit={onSubmit}>
      <label className="visually-hidden" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="field__input"
        type="search"
        {...(inputMode ? { inputMode } : {})}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <Button type="submit" variant="secondary">
        {button}
      </Button>
    </form>
  );
}
