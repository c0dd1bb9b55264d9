import { describe, expect, it } from 'vitest';
import { CHECKOUTS, parseCount } from '../src/features/checkout/checkout-specs';

/** The checkouts' count rules (spec §5, §9), taken from the contracts pricing table. */
describe('checkout counts', () => {
  it('when the count is not a number, then it counts as 0 on the flat checkouts and 50 on high volume', () => {
    expect(parseCount('', CHECKOUTS.premium)).toBe(0);
    expect(parseCount('abc', CHECKOUTS.special)).toBe(0);
    expect(parseCount('', CHECKOUTS['high-volume'])).toBe(50);
    expect(parseCount('60.7', CHECKOUTS.premium)).toBe(60);
  });

  it('when a checkout opens, then it starts at the spec default with the spec limits and rates', () => {
    const table = Object.values(CHECKOUTS).map((c) => [c.tier, c.defaultCount, c.minCount, c.maxCount, c.unitPriceCents(c.defaultCount)]);
    expect(table).toEqual([
      ['special', 25, 1, 1000, 3900],
      ['premium', 50, 1, 2000, 3700],
      ['enterprise', 100, 1, 5000, 3500],
      ['ultimate', 200, 1, 10000, 3200],
      ['high-volume', 50, 50, 10000, 3200],
    ]);
    expect(CHECKOUTS.special.countHint).toBe('Minimum: 1 transfer, Maximum: 1000 transfers');
  });

  it('when the high-volume count moves, then the band label follows it', () => {
    const label = CHECKOUTS['high-volume'].bandLabel!;
    expect([49, 50, 100, 150, 200, 5000].map(label)).toEqual([
      '50-99 transfers: $32 each',
      '50-99 transfers: $32 each',
      '100-149 transfers: $30 each',
      '150-199 transfers: $29 each',
      '200+ transfers: $28 each',
      '200+ transfers: $28 each',
    ]);
  });
});
