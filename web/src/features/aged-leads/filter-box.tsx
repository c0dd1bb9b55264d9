import { useEffect, useState } from 'react';
import { TextField } from '../../components/field';

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
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => onChange(text), 350);
    return () => clearTimeout(timer);
  }, [text, value, onChange]);
  return (
    <TextField
      label={label}
      hint="Separate several with commas: a state (TX), an area code (512) or a zip code (75201)."
      className="lead-filter"
      type="search"
      value={text}
      placeholder="e.g. TX, CA, 512"
      autoComplete="off"
      onChange={(e) => setText(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') onChange(text);
      }}
    />
  );
}
