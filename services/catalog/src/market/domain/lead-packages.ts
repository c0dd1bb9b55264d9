import type { PoolClient } from '@warmline/platform/db/index';
import { enqueue } from '@warmline/platform/bus/index';
import type { Logger } from '@warmline/platform/log';
import { AGED_LEAD_AGE_RANGES, type AgedLeadAgeRange, type EventData, type LeadOrderLead } from '@warmline/contracts';
import { AGED_LEAD_MAX_AGE_DAYS } from '@warmline/contracts/catalog';
import {
  claimLeadPackageFill,
  lockUnsoldLeads,
  recordLeadPackageFilled,
  sellPackageLeads,
  unsoldLeadsInWindow,
} from '../db/lead-package-fills';
import { ageRangeOfAge, DAY_MS } from './lead-age';
import type { ListingWindow } from '../db/listing-window';
import { ownedLead } from './receipt-leads';
import { SOURCE } from '../../domain/context';

/**
 * The second brand's Aged Leads package (spec §9: 100 leads at $5 for 30-60 days, $4 for 60-90,
 * $3 for 90-180): once paid, the catalog picks the leads from stock itself, as no buyer chose
 * them. Orders took the money; the catalog decides what is delivered and what is owed back, and
 * tells orders with `lead_package.settle`.
 */

export interface PaidLeadPackage {
  orderId: string;
  /** Null: nobody's account (an anonymous checkout no token linked). */
  buyerUserId: string | null;
  ageRange: AgedLeadAgeRange;
  /** Leads in the package (100). */
  count: number;
  /** What the buyer paid per lead. */
  unitPriceCents: number;
  amountCents: number;
  /** The only states its leads may come from, as the buyer chose them (issue 22); absent: every state. */
  states?: readonly string[];
  correlationId: string;
}

export type FillOutcome =
  | { outcome: 'filled'; soldLeadIds: string[]; refundDueCents: number }
  | { outcome: 'no-account'; refundDueCents: number }
  | { outcome: 'already-filled' };

/**
 * The package of a payment.succeeded, or null when the order is not one. Events written before
 * leadType and ageRange travelled name both only in the description
 * ('RingCloud Aged Leads (60-90 days): 100 leads × $4.00').
 */
export function paidLeadPackage(payment: EventData<'payment.succeeded'>, correlationId: string): PaidLeadPackage | null {
  if (payment.kind !== 'package' || payment.tier !== 'ringcloud') return null;
  const named = /^RingCloud Aged Leads \(([\d-]+) days\)/.exec(payment.description)?.[1];
  const described = AGED_LEAD_AGE_RANGES.find((range) => range === named);
  const leadType = payment.leadType ?? (described ? 'Aged Leads' : undefined);
  const ageRange = payment.ageRange ?? described;
  if (leadType !== 'Aged Leads' || !ageRange) return null;
  return {
    orderId: payment.orderId,
    buyerUserId: payment.buyerUserId,
    ageRange,
    count: payment.count,
    unitPriceCents: payment.unitPriceCents,
    amountCents: payment.amountCents,
    ...(payment.states && payment.states.length > 0 ? { states: payment.states } : {}),
    correlationId,
  };
}

/**
 * The form-fill times whose age is in `range` at `now`, by the one rule of lead-age.ts (a
 * range's shared edge day belongs to the younger range): 60-90 is days 61 through 90.
 */
export function ageRangeWindow(range: AgedLeadAgeRange, now: Date): ListingWindow {
  const days = Array.from({ length: AGED_LEAD_MAX_AGE_DAYS + 1 }, (_, day) => day).filter((day) => ageRangeOfAge(day) === range);
  const first = days[0];
  const last = days[days.length - 1];
  if (first === undefined || last === undefined) throw new Error(`No day of age is in the range ${range}`);
  return { oldestExclusive: new Date(now.getTime() - (last + 1) * DAY_MS), newest: new Date(now.getTime() - first * DAY_MS) };
}

/**
 * A paid package is filled, in the consumer's transaction (with processed_events, and claimed
 * per order in lead_package_fills, so no redelivery or repeat of the payment sells twice):
 * - up to `count` unsold leads that no reservation holds, whose age is in the package's range
 *   now, newest first, sold to the buyer's account at the package's price per lead (so they
 *   are in My Leads), and `leads.purchased`;
 * - the leads missing for want of stock are owed back at that price;
 * - an order without an account gets nothing and all of it back: leads are delivered to My
 *   Leads only, and an order cannot be linked to an account after its checkout (docs/adr/0015),
 *   so holding the money for a link that never comes would leave the buyer with neither.
 * Either way `lead_package.settle` asks orders to refund what is due and send the receipt.
 *
 * `states`: the states the buyer chose at the RingCloud checkout (issue 22: a buyer of FL and GA
 * was sold leads of TX, IL, …), by default the order's own; null for every state (an order
 * that names none). A shortfall in those states is refunded like any other.
 */
export async function fillLeadPackage(
  db: PoolClient,
  deps: { log: Logger; clock: () => Date },
  paid: PaidLeadPackage,
  options: { states: readonly string[] | null } = { states: paid.states ?? null },
): Promise<FillOutcome> {
  const now = deps.clock();
  const claimed = await claimLeadPackageFill(db, {
    orderId: paid.orderId,
    buyerUserId: paid.buyerUserId,
    ageRange: paid.ageRange,
    priceCents: paid.unitPriceCents,
    leadsOrdered: paid.count,
    states: options.states,
    filledAt: now,
  });
  if (!claimed) return { outcome: 'already-filled' };

  if (paid.buyerUserId === null) {
    await recordLeadPackageFilled(db, paid.orderId, { leadsDelivered: 0, refundDueCents: paid.amountCents });
    await settle(db, paid, { buyerUserId: null, delivered: [], refundDueCents: paid.amountCents, at: now });
    deps.log.warn({ orderId: paid.orderId }, 'an Aged Leads package was paid without an account to deliver to; it is refunded in full');
    return { outcome: 'no-account', refundDueCents: paid.amountCents };
  }

  const window = ageRangeWindow(paid.ageRange, now);
  const taken = await takeUnsoldLeads(db, { window, states: options.states, now, count: paid.count });
  const sold = taken.length
    ? await sellPackageLeads(db, { leadIds: taken, orderId: paid.orderId, buyerUserId: paid.buyerUserId, soldAt: now, priceCents: paid.unitPriceCents, ageRange: paid.ageRange })
    : [];
  // Never more than was paid, whatever the count and price say.
  const refundDueCents = Math.min(paid.amountCents, (paid.count - sold.length) * paid.unitPriceCents);
  await recordLeadPackageFilled(db, paid.orderId, { leadsDelivered: sold.length, refundDueCents });

  if (sold.length > 0) {
    await enqueue(db, {
      type: 'leads.purchased',
      data: {
        orderId: paid.orderId,
        buyerUserId: paid.buyerUserId,
        leadIds: sold.map((l) => l.id),
        leadCount: sold.length,
        amountCents: sold.length * paid.unitPriceCents,
        purchasedAt: now.toISOString(),
        // Missing stock names no lead: the shortfall is only money owed.
        undeliveredLeadIds: [],
        refundDueCents,
      },
      correlationId: paid.correlationId,
      source: SOURCE,
    });
  }
  // The buyer's own now: in full on the receipt, as in My Leads (issue 22).
  const delivered = sold.map((l) => ownedLead({ leadId: l.id, ageRange: paid.ageRange, priceCents: paid.unitPriceCents }, l));
  await settle(db, paid, { buyerUserId: paid.buyerUserId, delivered, refundDueCents, at: now });
  if (sold.length < paid.count) {
    deps.log.warn({ orderId: paid.orderId, ageRange: paid.ageRange, states: options.states, ordered: paid.count, delivered: sold.length }, 'too few aged leads in stock for a package; the rest is refunded');
  }
  deps.log.info({ orderId: paid.orderId, sold: sold.length }, 'aged-lead package filled');
  return { outcome: 'filled', soldLeadIds: sold.map((l) => l.id), refundDueCents };
}

/**
 * Locks up to `count` leads for sale, newest first. Candidates are read, then locked in id order
 * skipping any another transaction holds; whatever was skipped or taken meanwhile is made up
 * from the next newest, until the count is reached or the stock runs out.
 */
async function takeUnsoldLeads(
  db: PoolClient,
  p: { window: ListingWindow; states: readonly string[] | null; now: Date; count: number },
): Promise<string[]> {
  const taken: string[] = [];
  const tried: string[] = [];
  while (taken.length < p.count) {
    const candidates = await unsoldLeadsInWindow(db, { window: p.window, states: p.states, now: p.now, limit: p.count - taken.length, exceptIds: tried });
    if (candidates.length === 0) break;
    tried.push(...candidates);
    taken.push(...(await lockUnsoldLeads(db, candidates, { window: p.window, now: p.now })));
  }
  return taken;
}

async function settle(
  db: PoolClient,
  paid: PaidLeadPackage,
  s: { buyerUserId: string | null; delivered: LeadOrderLead[]; refundDueCents: number; at: Date },
): Promise<void> {
  await enqueue(db, {
    type: 'lead_package.settle',
    data: { orderId: paid.orderId, buyerUserId: s.buyerUserId, delivered: s.delivered, refundDueCents: s.refundDueCents, settledAt: s.at.toISOString() },
    correlationId: paid.correlationId,
    source: SOURCE,
  });
}
