import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AGED_LEAD_AGE_RANGES, type EventData } from '@warmline/contracts';
import { ageRangeWindow, paidLeadPackage } from '../src/market/domain/lead-packages';
import { DAY_MS, priceLead } from '../src/market/domain/lead-age';

/** Which payments are Aged Leads packages, and which leads a package's age range takes. */

const now = new Date('2025-11-25T12:00:00Z');

function payment(overrides: Partial<EventData<'payment.succeeded'>> = {}): EventData<'payment.succeeded'> {
  return {
    orderId: randomUUID(),
    kind: 'package',
    tier: 'ringcloud',
    count: 100,
    unitPriceCents: 400,
    amountCents: 40_000,
    currency: 'usd',
    description: 'RingCloud Aged Leads (60-90 days): 100 leads × $4.00',
    buyerUserId: randomUUID(),
    hasBillingEmail: true,
    leadType: 'Aged Leads',
    ageRange: '60-90',
    provider: 'sandbox',
    paymentIntentId: 'pi_test',
    paidAt: now.toISOString(),
    ...overrides,
  };
}

describe('an Aged Leads package', () => {
  it('when a RingCloud Aged Leads order is paid, then it is a package of its range, count and price', () => {
    const paid = payment();
    expect(paidLeadPackage(paid, 'corr')).toEqual({
      orderId: paid.orderId,
      buyerUserId: paid.buyerUserId,
      ageRange: '60-90',
      count: 100,
      unitPriceCents: 400,
      amountCents: 40_000,
      correlationId: 'corr',
    });
  });

  it('when the event was written before leadType and ageRange travelled, then the description names them', () => {
    const { leadType: _t, ageRange: _r, ...old } = payment({ description: 'RingCloud Aged Leads (90-180 days): 100 leads × $3.00', unitPriceCents: 300, amountCents: 30_000 });
    expect(paidLeadPackage(old, 'corr')).toMatchObject({ ageRange: '90-180', unitPriceCents: 300 });
  });

  it('when the order is another product, tier or kind, then it is no package', () => {
    expect(paidLeadPackage(payment({ leadType: 'Call-Backs', ageRange: undefined, description: 'RingCloud Call-Backs: 10 callbacks × $15.00' }), 'c')).toBeNull();
    expect(paidLeadPackage(payment({ tier: 'premium', leadType: undefined, ageRange: undefined, description: 'Premium Volume Package: 60 transfers × $37.00' }), 'c')).toBeNull();
    expect(paidLeadPackage(payment({ kind: 'lead', tier: 'aged-leads' }), 'c')).toBeNull();
  });

  it("when a range's window is taken, then it holds exactly the form-fill times the market prices in that range", () => {
    for (const range of AGED_LEAD_AGE_RANGES) {
      const window = ageRangeWindow(range, now);
      // Each edge, and a millisecond past it.
      const newest = window.newest;
      const oldest = new Date(window.oldestExclusive.getTime() + 1);
      expect(priceLead(newest, now)?.ageRange).toBe(range);
      expect(priceLead(oldest, now)?.ageRange).toBe(range);
      expect(priceLead(new Date(newest.getTime() + 1), now)?.ageRange).not.toBe(range);
      expect(priceLead(window.oldestExclusive, now)?.ageRange).not.toBe(range);
    }
    expect(ageRangeWindow('60-90', now)).toEqual({ oldestExclusive: new Date(now.getTime() - 91 * DAY_MS), newest: new Date(now.getTime() - 61 * DAY_MS) });
  });
});
