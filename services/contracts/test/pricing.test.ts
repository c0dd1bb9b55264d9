import { describe, expect, it } from 'vitest';
import {
  AGED_LEAD_PRICES_CENTS,
  BUFFER_SECONDS,
  DEFAULT_CALLBACK_PRICE_CENTS,
  DEFAULT_LIVE_TRANSFER_PRICE,
  DEFAULT_LIVE_TRANSFER_PRICE_CENTS,
  HIGH_VOLUME_CHECKOUT,
  PACKAGE_CHECKOUTS,
  PRICING_PAGES,
  PricingError,
  createPaymentIntentBody,
  formatUsd,
  highVolumeBand,
  highVolumeBandLabel,
  pricingPageForCallsPerDay,
  quotePackage,
  sandboxConfirmBody,
} from '../src/index';

/** The message of the PricingError a quote throws, or undefined when it prices fine. */
function refusal(request: Parameters<typeof quotePackage>[0]): string | undefined {
  try {
    quotePackage(request);
    return undefined;
  } catch (err) {
    if (err instanceof PricingError) return err.message;
    throw err;
  }
}

const firstMessage = (r: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  r.success ? undefined : r.error?.issues[0]?.message;

describe('pricing pages (spec §9)', () => {
  it('when a page is shown, then it advertises the spec rate for its calls per day', () => {
    expect(PRICING_PAGES.standard).toMatchObject({ path: '/standard-pricing', priceCents: 4000, callsPerDayLabel: 'up to 100 calls per day', checkoutTier: 'special' });
    expect(PRICING_PAGES.special).toMatchObject({ priceCents: 3800, wasPriceCents: 4000, callsPerDay: { min: 101, max: 150 }, badge: 'Congratulations' });
    expect(PRICING_PAGES.premium).toMatchObject({ priceCents: 3500, callsPerDay: { min: 151, max: 199 }, checkoutTier: 'premium' });
    expect(PRICING_PAGES.enterprise).toMatchObject({ priceCents: 3200, callsPerDay: { min: 200, max: 299 }, badge: 'Great Rate' });
    expect(PRICING_PAGES.ultimate).toMatchObject({ priceCents: 2800, callsPerDay: { min: 300 }, badge: 'Best Rate Available' });
  });

  it('when an agency states its calls per day, then it is sent to the page of its band', () => {
    const page = (n: number) => pricingPageForCallsPerDay(n).id;
    expect([0, 99, 100].map(page)).toEqual(['standard', 'standard', 'standard']);
    expect([101, 150].map(page)).toEqual(['special', 'special']);
    expect([151, 199].map(page)).toEqual(['premium', 'premium']);
    expect([200, 299].map(page)).toEqual(['enterprise', 'enterprise']);
    expect([300, 5000].map(page)).toEqual(['ultimate', 'ultimate']);
    expect(() => pricingPageForCallsPerDay(-1)).toThrow(PricingError);
  });
});

describe('flat-rate checkouts (spec §9)', () => {
  const rows = [
    { tier: 'special', unit: 3900, min: 1, max: 1000, def: 25, name: 'Special Pricing Package' },
    { tier: 'premium', unit: 3700, min: 1, max: 2000, def: 50, name: 'Premium Volume Package' },
    { tier: 'enterprise', unit: 3500, min: 1, max: 5000, def: 100, name: 'Enterprise Volume Package' },
    { tier: 'ultimate', unit: 3200, min: 1, max: 10000, def: 200, name: 'Ultimate Volume Package' },
  ] as const;

  for (const row of rows) {
    it(`when a buyer orders ${row.tier} transfers, then each costs ${formatUsd(row.unit)} from ${row.min} up to ${row.max}`, () => {
      expect(PACKAGE_CHECKOUTS[row.tier]).toMatchObject({
        unitPriceCents: row.unit,
        minCount: row.min,
        maxCount: row.max,
        defaultCount: row.def,
      });
      for (const count of [row.min, row.def, row.max]) {
        expect(quotePackage({ tier: row.tier, count })).toMatchObject({
          tier: row.tier,
          count,
          unitPriceCents: row.unit,
          amountCents: count * row.unit,
          currency: 'usd',
        });
      }
      expect(refusal({ tier: row.tier, count: row.max + 1 })).toBe(`The ${row.name} allows 1 to ${row.max} transfers`);
      expect(refusal({ tier: row.tier, count: 0 })).toBe(`The ${row.name} allows 1 to ${row.max} transfers`);
    });
  }

  it('when a premium buyer takes 60 transfers, then the total is $2,220.00 (not the page rate of $35)', () => {
    const quote = quotePackage({ tier: 'premium', count: 60 });
    expect(quote.amountCents).toBe(222000);
    expect(formatUsd(quote.amountCents)).toBe('$2,220.00');
    expect(quote.description).toBe('Premium Volume Package: 60 transfers × $37.00');
  });

  it('when the count is not a whole number, then the quote says so', () => {
    for (const count of ['abc', 2.5, Number.NaN, '', null, undefined, true, '-3', {}]) {
      expect(refusal({ tier: 'premium', count })).toMatch(/^Count (must be a whole number|is required)$/);
    }
    expect(quotePackage({ tier: 'premium', count: '60' }).count).toBe(60);
  });

  it('when the tier is not one WarmLine sells, then the quote names it', () => {
    expect(refusal({ tier: 'gold', count: 10 })).toBe('Unknown package tier: gold');
    expect(refusal({ tier: 'standard', count: 10 })).toBe('Unknown package tier: standard');
  });
});

describe('high-volume checkout (spec §9)', () => {
  it('when the count crosses a band edge, then the unit price changes at exactly that count', () => {
    const unit = (count: number) => quotePackage({ tier: 'high-volume', count }).unitPriceCents;
    expect(refusal({ tier: 'high-volume', count: 49 })).toBe('The High Volume Package allows 50 to 10000 transfers');
    expect([50, 99].map(unit)).toEqual([3200, 3200]);
    expect([100, 149].map(unit)).toEqual([3000, 3000]);
    expect([150, 199].map(unit)).toEqual([2900, 2900]);
    expect([200, 10000].map(unit)).toEqual([2800, 2800]);
    expect(refusal({ tier: 'high-volume', count: 10001 })).toBe('The High Volume Package allows 50 to 10000 transfers');
    expect(quotePackage({ tier: 'high-volume', count: 150 }).amountCents).toBe(150 * 2900);
  });

  it('when the checkout opens, then the count starts at the minimum of 50 and each band has its label', () => {
    expect(HIGH_VOLUME_CHECKOUT).toMatchObject({ minCount: 50, defaultCount: 50, path: '/checkout-high-volume', backPath: '/pricing' });
    expect(HIGH_VOLUME_CHECKOUT.bands.map(highVolumeBandLabel)).toEqual([
      '50-99 transfers: $32 each',
      '100-149 transfers: $30 each',
      '150-199 transfers: $29 each',
      '200+ transfers: $28 each',
    ]);
    expect(highVolumeBandLabel(highVolumeBand(250))).toBe('200+ transfers: $28 each');
  });
});

describe('every row of spec §9 at its edges, as the pages and checkouts show them', () => {
  it('when the high-volume count sits on either side of a band edge, then the total is count × that band\'s rate', () => {
    const total = (count: number) => formatUsd(quotePackage({ tier: 'high-volume', count }).amountCents);
    expect(refusal({ tier: 'high-volume', count: 49 })).toBeDefined();
    expect([50, 99, 100, 149, 150, 199, 200].map(total)).toEqual([
      '$1,600.00', // 50 × $32
      '$3,168.00', // 99 × $32
      '$3,000.00', // 100 × $30
      '$4,470.00', // 149 × $30
      '$4,350.00', // 150 × $29
      '$5,771.00', // 199 × $29
      '$5,600.00', // 200 × $28
    ]);
    expect(total(10000)).toBe('$280,000.00');
  });

  it("when each checkout is at its maximum, then it still prices, and one more is refused", () => {
    const maxima = { special: 1000, premium: 2000, enterprise: 5000, ultimate: 10000 } as const;
    for (const [tier, max] of Object.entries(maxima)) {
      expect(quotePackage({ tier, count: max }).amountCents).toBe(max * PACKAGE_CHECKOUTS[tier as keyof typeof maxima].unitPriceCents);
      expect(refusal({ tier, count: max + 1 })).toMatch(/Package allows 1 to/);
    }
    expect(formatUsd(quotePackage({ tier: 'ultimate', count: 10000 }).amountCents)).toBe('$320,000.00');
  });

  it('when a pricing page sends the buyer on, then each page and checkout has the route and Back link of spec §2', () => {
    expect(Object.values(PRICING_PAGES).map((p) => [p.path, PACKAGE_CHECKOUTS[p.checkoutTier].path])).toEqual([
      ['/standard-pricing', '/checkout'],
      ['/special-pricing', '/checkout'],
      ['/premium-pricing', '/checkout-premium'],
      ['/enterprise-pricing', '/checkout-enterprise'],
      ['/ultimate-pricing', '/checkout-ultimate'],
    ]);
    expect(Object.values(PACKAGE_CHECKOUTS).map((c) => [c.path, c.backPath])).toEqual([
      ['/checkout', '/special-pricing'],
      ['/checkout-premium', '/premium-pricing'],
      ['/checkout-enterprise', '/enterprise-pricing'],
      ['/checkout-ultimate', '/ultimate-pricing'],
    ]);
    expect(PACKAGE_CHECKOUTS.premium.title).toBe('Premium Volume Package');
    expect(PACKAGE_CHECKOUTS.enterprise.title).toBe('Enterprise Volume Package');
    expect(PACKAGE_CHECKOUTS.ultimate.title).toBe('Ultimate Volume Package');
  });

  it('when a transfer is shorter than the buffer, then it is not charged: the buffer is 120 seconds', () => {
    expect(BUFFER_SECONDS).toBe(120);
  });
});

describe('the second brand (spec §9)', () => {
  it('when a RingCloud buyer orders live transfers or call-backs, then each costs $37 or $15', () => {
    expect(quotePackage({ tier: 'ringcloud', leadType: 'Live Transfers', count: 10 })).toMatchObject({
      count: 10,
      unitPriceCents: 3700,
      amountCents: 37000,
      leadType: 'Live Transfers',
    });
    expect(quotePackage({ tier: 'ringcloud', leadType: 'Call-Backs', count: 20 })).toMatchObject({
      count: 20,
      unitPriceCents: 1500,
      amountCents: 30000,
    });
    expect(refusal({ tier: 'ringcloud', leadType: 'Call-Backs', count: 0 })).toBe('A RingCloud Call-Backs order allows 1 to 10000 callbacks');
  });

  it('when a RingCloud buyer orders aged leads, then a pack of 100 is priced by age: $5, $4, $3 per lead', () => {
    const amount = (ageRange: string) => quotePackage({ tier: 'ringcloud', leadType: 'Aged Leads', ageRange }).amountCents;
    expect(amount('30-60')).toBe(50000);
    expect(amount('60-90')).toBe(40000);
    expect(amount('90-180')).toBe(30000);
    expect(quotePackage({ tier: 'ringcloud', leadType: 'Aged Leads', ageRange: '30-60', count: 100 }).count).toBe(100);
    expect(refusal({ tier: 'ringcloud', leadType: 'Aged Leads', ageRange: '30-60', count: 7 })).toBe(
      'RingCloud Aged Leads are sold in packs of 100 leads',
    );
    expect(refusal({ tier: 'ringcloud', leadType: 'Aged Leads' })).toMatch(/^Please select an age range/);
    expect(refusal({ tier: 'ringcloud', leadType: 'Insurance Recruiting', count: 1 })).toBe(
      'Unknown RingCloud lead type: Insurance Recruiting',
    );
    expect(refusal({ tier: 'ringcloud', count: 1 })).toBe('Please select a lead type');
  });
});

describe("WarmLine's own call-backs (issue 22)", () => {
  it("when an agent buys call-backs in the dashboard, then it is WarmLine Call-Backs at the default callback price, not a RingCloud package", () => {
    expect(quotePackage({ tier: 'callbacks', count: 10 })).toEqual({
      tier: 'callbacks',
      count: 10,
      unitPriceCents: 1500,
      amountCents: 15000,
      currency: 'usd',
      description: 'WarmLine Call-Backs: 10 call-backs × $15.00',
      leadType: 'Call-Backs',
    });
    expect(quotePackage({ tier: 'callbacks', count: 1 }).description).toBe('WarmLine Call-Backs: 1 call-back × $15.00');
    expect(refusal({ tier: 'callbacks', count: 0 })).toBe('A WarmLine Call-Backs order allows 1 to 10000 call-backs');
    expect(refusal({ tier: 'callbacks', count: 10001 })).toBe('A WarmLine Call-Backs order allows 1 to 10000 call-backs');
  });
});

describe('other prices (spec §9)', () => {
  it('when admins price aged leads, callbacks and a new customer, then the spec defaults apply', () => {
    expect(AGED_LEAD_PRICES_CENTS).toEqual({ '30-60': 250, '60-90': 200, '90-180': 150 });
    expect(DEFAULT_CALLBACK_PRICE_CENTS).toBe(1500);
    expect(DEFAULT_LIVE_TRANSFER_PRICE_CENTS).toBe(3500);
    // accounts.ts shows the same default as text; the two must never drift apart.
    expect(formatUsd(DEFAULT_LIVE_TRANSFER_PRICE_CENTS)).toBe(`$${DEFAULT_LIVE_TRANSFER_PRICE}`);
  });
});

describe('the create-payment-intent body', () => {
  it('when each checkout sends its spec §7 shape at the right amount, then it is accepted with the server quote', () => {
    const accepted = (body: unknown) => {
      const result = createPaymentIntentBody.safeParse(body);
      if (!result.success) throw new Error(result.error.issues[0]?.message);
      return result.data.quote;
    };
    expect(accepted({ amount: 975, callCount: 25 })).toMatchObject({ tier: 'special', amountCents: 97500 });
    expect(accepted({ amount: 3000, callCount: 100, tier: 'high-volume', pricePerCall: 30, volume: 100 })).toMatchObject({ amountCents: 300000 });
    expect(accepted({ amount: 2220, callCount: 60, tier: 'premium' })).toMatchObject({ amountCents: 222000 });
    expect(accepted({ amount: 3500, callCount: 100, tier: 'enterprise' })).toMatchObject({ amountCents: 350000 });
    expect(accepted({ amount: '6400.00', callCount: '200', tier: 'ultimate' })).toMatchObject({ amountCents: 640000 });
    expect(
      accepted({ amount: 370, packageType: 'RingCloud Live Transfers', calls: 10, callCount: 1, tier: 'ringcloud' }),
    ).toMatchObject({ tier: 'ringcloud', count: 10, amountCents: 37000 });
    expect(
      accepted({ amount: 400, packageType: 'RingCloud Aged Leads', callCount: 1, tier: 'ringcloud', ageRange: '60-90' }),
    ).toMatchObject({ count: 100, amountCents: 40000 });
  });

  it('when the amount is not the server price, then the body is refused naming the right one', () => {
    expect(firstMessage(createPaymentIntentBody.safeParse({ amount: 2100, callCount: 60, tier: 'premium' }))).toBe(
      'Amount does not match the price: expected $2,220.00',
    );
    expect(firstMessage(createPaymentIntentBody.safeParse({ amount: 2220.001, callCount: 60, tier: 'premium' }))).toBe(
      'Amount must be in dollars with at most two decimals',
    );
    expect(firstMessage(createPaymentIntentBody.safeParse({ callCount: 60, tier: 'premium' }))).toBe('Amount is required');
  });
});

describe('the sandbox card form', () => {
  const card = { clientSecret: 'pi_x_secret_y', cardNumber: '4242 4242 4242 4242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };

  it("when the card cannot be charged at all, then Stripe's own wording says why", () => {
    expect(sandboxConfirmBody.safeParse(card).success).toBe(true);
    expect(firstMessage(sandboxConfirmBody.safeParse({ ...card, cardNumber: '4242 4242 4242 4241' }))).toBe('Your card number is invalid.');
    expect(firstMessage(sandboxConfirmBody.safeParse({ ...card, cardNumber: '4242 4242' }))).toBe('Your card number is incomplete.');
    expect(firstMessage(sandboxConfirmBody.safeParse({ ...card, expYear: 2020, expMonth: 1 }))).toBe(
      "Your card's expiration date is in the past.",
    );
    expect(firstMessage(sandboxConfirmBody.safeParse({ ...card, cvc: '12' }))).toBe("Your card's security code is incomplete.");
    expect(firstMessage(sandboxConfirmBody.safeParse({ ...card, expMonth: 13 }))).toBe("Your card's expiration month is invalid.");
  });

  it('when the card expires this month, then it is still good', () => {
    const now = new Date();
    expect(sandboxConfirmBody.safeParse({ ...card, expMonth: now.getUTCMonth() + 1, expYear: now.getUTCFullYear() }).success).toBe(true);
  });
});
