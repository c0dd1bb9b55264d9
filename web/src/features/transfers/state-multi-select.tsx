import { useId, useState } from 'react';
import { FieldError } from '../../components/field';
import { US_STATES, stateName, type UsStateCode } from '@warmline/contracts/us-states';

/**
 * Working states as a multi-select (spec §3: stored as a list): the chosen states as removable
 * chips, a search box and a checkbox per state. Plain checkboxes keep it usable by keyboard and
 * screen readers without a custom listbox.
 */
export function StateMultiSelect({
  label,
  value,
  onChange,
  error,
  disabled,
  emptyHint = 'Choose every state you take transfers in.',
}: {
  label: string;
  /** The hint while no state is chosen (what the states are for). */
  emptyHint?: string;
  value: UsStateCode[];
  onChange(states: UsStateCode[]): void;
  error?: string | undefined;
  disabled?: boolean;
}) {
  const id = useId();
  const [search, setSearch] = useState('');
  const term = search.trim().toLowerCase();
  const shown = term
    ? US_STATES.filter((s) => s.name.toLowerCase().includes(term) || s.code.toLowerCase() === term)
    : US_STATES;

  const toggle = (code: UsStateCode, on: boolean) => {
    onChange(on ? [...value.filter((c) => c !== code), code] : value.filter((c) => c !== code));
  };

  return (
    <fieldset
      className="state-select"
      aria-describedby={error ? `${id}-error` : `${id}-count`}
      aria-invalid={error ? true : undefined}
      disabled={disabled}
    >
      <legend className="field__label">{label}</legend>
      <div className="state-select__chosen" aria-live="polite">
        {value.length === 0 ? (
          <span className="state-select__none">No states chosen yet</span>
        ) : (
          value.map((code) => (
            <button
              key={code}
              type="button"
              className="state-chip"
              onClick={() => toggle(code, false)}
              aria-label={`Remove ${stateName(code)}`}
            >
              {stateName(code)} <span aria-hidden="true">×</span>
            </button>
          ))
        )}
      </div>
      <div className="state-select__tools">
        <label className="visually-hidden" htmlFor={`${id}-search`}>
          Search states
        </label>
        <input
          id={`${id}-search`}
          name="workingStates"
          className="field__input state-select__search"
          type="search"
          placeholder="Search states"
          autoComplete="off"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          aria-invalid={error ? true : undefined}
        />
        {value.length > 0 ? (
          <button type="button" className="btn btn--ghost btn--small" onClick={() => onChange([])}>
            Clear all
          </button>
        ) : null}
      </div>
      <ul className="state-select__options" aria-label={`${label}: choose one or more`}>
        {shown.map((s) => (
          <li key={s.code}>
            <label className="state-option">
              <input type="checkbox" checked={value.includes(s.code)} onChange={(e) => toggle(s.code, e.target.checked)} />
              <span>
                {s.name} ({s.code})
              </span>
            </label>
          </li>
        ))}
        {shown.length === 0 ? <li className="state-select__empty">No state matches “{search.trim()}”.</li> : null}
      </ul>
      <p id={`${id}-count`} className="field__hint">
        {value.length === 0 ? emptyHint : `${value.length} ${value.length === 1 ? 'state' : 'states'} chosen`}
      </p>
      <FieldError id={`${id}-error`} error={error} />
    </fieldset>
  );
}
