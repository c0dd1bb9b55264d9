import { useEffect, useId, useState } from 'react';

/**
 * The lead filter (spec §5): comma-separated states, area codes or zip codes. The list follows
 * the typing after a short pause, so each keystroke does not ask the server.
 */
export function FilterBox({
  value,
  onChange,
  label = 'Filter by state, area code or zip code',
}: {
  value: string;
  onChange(filter: string): void;
  label?: string;
}) {
  const id = useId();
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => onChange(text), 350);
    return () => clearTimeout(timer);
  }, [text, value, onChange]);
  return (
    <div className="field lead-filter">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="field__input"
        type="search"
        value={text}
        placeholder="e.g. TX, CA, 512"
        autoComplete="off"
        aria-describedby={`${id}-hint`}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') onChange(text);
        }}
      />
      <p id={`${id}-hint`} className="field__hint">
        Separate several with commas: a state (TX), an area code (512) or a zip code (75201).
      </p>
    </div>
  );
}
