import { describe, expect, it } from 'vitest';
import { PACKAGE_CHECKOUTS, PRICING_PAGES } from '@warmline/contracts/pricing';
import { CHECKOUTS, checkoutCount } from '../src/features/checkout/checkout-specs';
import { readStoredCount } from '../src/features/checkout/stored-count';
import { checkoutOfPage, checkoutPageRatesNote, checkoutRateText, pageRateNote } from '../src/features/pricing/rate-labels';

/** The checkouts' count rules (spec §5, §9, issue 17), taken from the contracts pricing table. */
describe('checkout counts', () => {
  it('when the count is a whole number in range, then it is priced as the server prices it', () => {
    expect(checkoutCount('60', CHECKOUTS.premium)).toEqual({ ok: true, count: 60, unitPriceCents: 3700, amountCents: 222000 });
    expect(checkoutCount(' 150 ', CHECKOUTS['high-volume'])).toEqual({ ok: true, count: 150, unitPriceCents: 2900, amountCents: 435000 });
  });

  it("when the count is '2.5', then it is refused with a message and never rounded to 2", () => {
    const result = checkoutCount('2.5', CHECKOUTS.premium);
    expect(result.ok).toBe(false);
    expect(result).toEqual({
      ok: false,
      message: 'Transfers are counted in whole numbers: please enter a whole number from 1 to 2000',
    });
    expect(checkoutCount('1e3', CHECKOUTS.special).ok).toBe(false);
    expect(checkoutCount('-3', CHECKOUTS.special).ok).toBe(false);
  });

  it('when the count is out of range, then there is no total, only the allowed range', () => {
    expect(checkoutCount('0', CHECKOUTS.premium)).toEqual({ ok: false, message: 'The Premium Volume Package allows 1 to 2000 transfers' });
    expect(checkoutCount('99999', CHECKOUTS.special)).toEqual({ ok: false, message: 'The Special Pricing Package allows 1 to 1000 transfers' });
    expect(checkoutCount('49', CHECKOUTS['high-volume'])).toEqual({ ok: false, message: 'The High Volume Package allows 50 to 10000 transfers' });
    expect(checkoutCount('12345678901234567890', CHECKOUTS.ultimate)).toEqual({ ok: false, message: 'The Ultimate Volume Package allows 1 to 10000 transfers' });
  });

  it('when the field is empty, then there is no total and no message yet', () => {
    expect(checkoutCount('', CHECKOUTS.premium)).toEqual({ ok: false });
    expect(checkoutCount('  ', CHECKOUTS['high-volume'])).toEqual({ ok: false });
  });

  it('when a checkout opens, then it starts at the spec default with the spec limits and rates', () => {
    const table = Object.values(CHECKOUTS).map((c) => {
      const start = checkoutCount(String(c.defaultCount), c);
      return [c.tier, c.defaultCount, c.minCount, c.maxCount, start.ok ? start.unitPriceCents : null];
    });
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
    const label = CHECKOUTS['high-volume'].bandLabel;
    expect([50, 100, 150, 200, 5000].map(label)).toEqual([
      '50-99 transfers: $32 each',
      '100-149 transfers: $30 each',
      '150-199 transfers: $29 each',
      '200+ transfers: $28 each',
      '200+ transfers: $28 each',
    ]);
  });

  it('when a visitor arrives with a stored count that is not whole, then it is ignored, not rounded', () => {
    localStorage.setItem('projectedTransfers', '2.5');
    expect(readStoredCount(false)).toBeUndefined();
    localStorage.setItem('projectedTransfers', '60');
    expect(readStoredCount(false)).toBe(60);
    localStorage.clear();
  });
});

/** Issue 17: the page rate and the checkout rate are both shown, each called what it is. */
describe('rate labels', () => {
  it('when a pricing page leads to a checkout, then it names the package and the rate the server charges', () => {
    const rows = Object.values(PRICING_PAGES).map((page) => [page.id, checkoutOfPage(page).title, checkoutRateText(checkoutOfPage(page))]);
    expect(rows).toEqual([
      ['standard', 'Special Pricing Package', '$39.00 per transfer'],
      ['special', 'Special Pricing Package', '$39.00 per transfer'],
      ['premium', 'Premium Volume Package', '$37.00 per transfer'],
      ['enterprise', 'Enterprise Volume Package', '$35.00 per transfer'],
      ['ultimate', 'Ultimate Volume Package', '$32.00 per transfer'],
    ]);
    // Read from the constant the orders service charges, not a copy.
    expect(checkoutOfPage(PRICING_PAGES.premium)).toBe(PACKAGE_CHECKOUTS.premium);
  });

  it('when a pricing page shows its rate, then it calls it the volume rate of its call volume', () => {
    expect(pageRateNote(PRICING_PAGES.premium)).toBe(
      'The $35 above is the volume rate for agencies with 151-199 calls per day; the Premium Volume Package you buy next is charged at $37.00 per transfer.',
    );
    expect(pageRateNote(PRICING_PAGES.standard)).toBe(
      'The $40 above is the volume rate for agencies with up to 100 calls per day; the Special Pricing Package you buy next is charged at $39.00 per transfer.',
    );
  });

  it('when a checkout shows its rate, then it says what the pages that lead there showed', () => {
    expect(checkoutPageRatesNote('premium')).toBe("the Premium page's $35 is the volume rate for agencies with 151-199 calls per day");
    expect(checkoutPageRatesNote('special')).toBe(
      "the Standard page's $40 (up to 100 calls per day) and the Special offer page's $38 (101-150 calls per day) are volume rates for agencies at those call volumes",
    );
  });
});
