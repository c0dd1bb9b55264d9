import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { DncBadge } from '../src/features/compliance/dnc-badge';

/** Issue 24: the national DNC registry's check, in words, wherever a phone is shown. */
afterEach(cleanup);

const text = (node: React.ReactElement) => render(node).container.textContent;

describe('the DNC badge', () => {
  it('says when the phone was checked (M/D/YYYY), whether it is on the registry, and when the check is out of date or unavailable', () => {
    expect(text(<DncBadge dnc={{ checkedOn: '2026-03-05', onRegistry: false, outOfDate: false }} />)).toBe('DNC checked 3/5/2026');
    expect(text(<DncBadge dnc={{ checkedOn: '2026-11-20', onRegistry: true, outOfDate: false }} />)).toBe('DNC checked 11/20/2026On the DNC registry');
    expect(text(<DncBadge dnc={{ checkedOn: '2026-01-02', onRegistry: false, outOfDate: true }} />)).toBe('DNC checked 1/2/2026DNC check out of date');
    expect(text(<DncBadge dnc={{ checkedOn: null, onRegistry: false, outOfDate: true }} />)).toBe('DNC check out of date');
    expect(text(<DncBadge dnc={null} />)).toBe('DNC check unavailable');
    expect(text(<DncBadge dnc={undefined} />)).toBe('');
  });
});
