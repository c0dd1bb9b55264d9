import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { NoFilterMatch, stateCodeSuggestion } from '../src/features/aged-leads/filter-box';

/** Issue 17 item 6: a lead filter that matched nothing because it names a state suggests its code. */
afterEach(cleanup);

describe('stateCodeSuggestion', () => {
  it.each([
    ['Texas', 'TX', ['TX']],
    ['new york', 'NY', ['NY']],
    ['Texas, 512', 'TX, 512', ['TX']],
    ['Texas, Florida', 'TX, FL', ['TX', 'FL']],
    ['Texas, TX', 'TX', ['TX']],
  ])("when the filter is '%s', then it suggests '%s'", (filter, suggested, codes) => {
    expect(stateCodeSuggestion(filter)).toEqual({ filter: suggested, codes });
  });

  it.each([['TX'], ['tx, fl'], ['512'], ['Texass'], ['']])("when the filter '%s' holds no state's name, then there is no suggestion", (filter) => {
    expect(stateCodeSuggestion(filter)).toBeNull();
  });
});

describe('NoFilterMatch', () => {
  it("when 'Texas' matched nothing, then it says to try TX and its button applies it", () => {
    const onApply = vi.fn();
    render(<NoFilterMatch filter="Texas" onApply={onApply} />);
    expect(screen.getByText("No leads match 'Texas'. Try the state code TX.")).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Filter by TX' }));
    expect(onApply).toHaveBeenCalledWith('TX');
  });

  it('when the filter holds no state name, then it only says nothing matched', () => {
    render(<NoFilterMatch filter="ZZ" onApply={vi.fn()} />);
    expect(screen.getByText('No leads match this filter.')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
