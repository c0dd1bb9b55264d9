import { useEffect, useState } from 'react';
import { usStateOfText } from '@warmline/contracts/us-states';
import { Button } from '../../components/button';
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

/**
 * The filter compares 2-letter state codes, so a state's name ('Texas', 'new york') matches
 * nothing. Such a filter with its names turned into codes ('Texas, 512' → 'TX, 512'), and the
 * codes it took; null when no term is a state's name.
 */
export function stateCodeSuggestion(filter: string): { filter: string; codes: string[] } | null {
  const codes: string[] = [];
  const terms = filter
    .split(',')
    .map((term) => term.trim())
    .filter(Boolean)
    .map((term) => {
      const code = usStateOfText(term);
      // A code already ('tx') is what the filter compares; only a name needs turning.
      if (!code || term.toUpperCase() === code) return term;
      if (!codes.includes(code)) codes.push(code);
      return code;
    });
  return codes.length > 0 ? { filter: [...new Set(terms)].join(', '), codes } : null;
}

/**
 * What a filter that matched nothing says (issue 17): when it holds a state's name, the code to
 * use instead and a button that filters by it.
 */
export function NoFilterMatch({ filter, onApply }: { filter: string; onApply(filter: string): void }) {
  const suggestion = stateCodeSuggestion(filter);
  if (!suggestion) return <p className="market__empty">No leads match this filter.</p>;
  const plural = suggestion.codes.length > 1;
  return (
    <div className="market__empty">
      <p>
        No leads match '{filter}'. Try the state {plural ? 'codes' : 'code'} {suggestion.codes.join(', ')}.
      </p>
      <Button variant="secondary" className="btn--small" onClick={() => onApply(suggestion.filter)}>
        Filter by {suggestion.filter}
      </Button>
    </div>
  );
}
