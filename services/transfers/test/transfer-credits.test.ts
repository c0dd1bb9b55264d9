import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerMismatches } from '../src/db/ledger';
import {
  agent,
  balanceOf,
  chargeTransfer,
  claimed,
  envelope,
  insertTransfer,
  orderFacts,
  paid,
  refunded,
  startLedgerFixture,
  type LedgerFixture,
} from './ledger-fixture';

/**
 * The transfer ledger's credits (issue 23 §1): every paid live-transfer order is one lot at the
 * price paid, a claimed one when claimed, refunds take back only unused transfers, and repeated
 * or reordered events leave the ledger equal to its rows.
 */

let fx: LedgerFixture;

beforeAll(async () => {
  fx = await startLedgerFixture();
});

afterAll(async () => {
  await fx?.cleanup();
});

async function lotsOf(agentId: string) {
  const { rows } = await fx.pool.query(
    'SELECT source, order_id AS "orderId", unit_cents AS "unitCents", paid_cents AS "paidCents", credited, remaining, taken_back AS "takenBack" FROM credit_lots WHERE agent_id = $1 ORDER BY credited_at',
    [agentId],
  );
  return rows;
}

describe('credits from paid orders', () => {
  it.each([
    ['a transfer order at the agent’s own price', { kind: 'transfer' as const, tier: 'live-transfers', leadType: 'Live Transfers', unitPriceCents: 3150, description: 'Live call transfers: 10 × $31.50' }],
    ['a Standard/Special package', { tier: 'special', unitPriceCents: 3900 }],
    ['a Premium package', { tier: 'premium', unitPriceCents: 3700 }],
    ['an Enterprise package', { tier: 'enterprise', unitPriceCents: 3500 }],
    ['an Ultimate package', { tier: 'ultimate', unitPriceCents: 3200 }],
    ['a High-volume package', { tier: 'high-volume', unitPriceCents: 3000 }],
    ['RingCloud Live Transfers', { tier: 'ringcloud', leadType: 'Live Transfers', unitPriceCents: 3700, description: 'RingCloud Live Transfers: 10 transfers × $37.00' }],
    ['RingCloud Live Transfers written before leadType travelled', { tier: 'ringcloud', unitPriceCents: 3700, description: 'RingCloud Live Transfers: 10 transfers × $37.00' }],
  ])('when %s is paid, then its buyer gets one lot of count transfers at the unit price paid', async (_what, overrides) => {
    const buyer = agent();
    const order = orderFacts(buyer.userId!, { ...overrides, amountCents: 10 * overrides.unitPriceCents });

    await fx.publish(paid(order));

    expect(await lotsOf(buyer.userId!)).toEqual([
      { source: 'order', orderId: order.orderId, unitCents: overrides.unitPriceCents, paidCents: 10 * overrides.unitPriceCents, credited: 10, remaining: 10, takenBack: 0 },
    ]);
    expect(await balanceOf(fx.pool, buyer.userId!)).toBe(10);
    const { rows } = await fx.pool.query('SELECT kind, transfers, unit_cents AS "unitCents", cause_id AS "causeId" FROM ledger_entries WHERE agent_id = $1', [buyer.userId]);
    expect(rows).toEqual([{ kind: 'order_credit', transfers: 10, unitCents: overrides.unitPriceCents, causeId: order.orderId }]);
  });

  it.each([
    ["WarmLine's Call-Backs", { tier: 'callbacks', unitPriceCents: 1500 }],
    ['RingCloud Call-Backs', { tier: 'ringcloud', leadType: 'Call-Backs', unitPriceCents: 1500, description: 'RingCloud Call-Backs: 10 callbacks × $15.00' }],
    ['RingCloud Call-Backs written before leadType travelled', { tier: 'ringcloud', unitPriceCents: 1500, description: 'RingCloud Call-Backs: 10 callbacks × $15.00' }],
    ['RingCloud Aged Leads', { tier: 'ringcloud', leadType: 'Aged Leads', ageRange: '30-60' as const, unitPriceCents: 500, description: 'RingCloud Aged Leads (30-60 days): 100 leads × $5.00' }],
    ['an aged-lead order', { kind: 'lead' as const, tier: 'aged-leads', unitPriceCents: 250 }],
  ])('when %s is paid, then no transfer is credited', async (_what, overrides) => {
    const buyer = agent();

    await fx.publish(paid(orderFacts(buyer.userId!, { ...overrides, amountCents: 10 * overrides.unitPriceCents })));

    expect(await lotsOf(buyer.userId!)).toEqual([]);
    expect(await balanceOf(fx.pool, buyer.userId!)).toBe(0);
  });

  it('when the same payment arrives again (a new envelope), then it is credited once', async () => {
    const buyer = agent();
    const order = orderFacts(buyer.userId!);

    await fx.publish(paid(order));
    await fx.publish(paid(order));

    expect(await balanceOf(fx.pool, buyer.userId!)).toBe(10);
    expect(await lotsOf(buyer.userId!)).toHaveLength(1);
    expect(await ledgerMismatches(fx.pool)).toEqual([]);
  });
});

describe('claims of orders paid without an account', () => {
  it('when an anonymous order is paid, then nothing is credited until its claim, which credits the claimer once', async () => {
    const buyer = agent();
    const order = orderFacts(null);

    await fx.publish(paid(order));
    const { rows: waiting } = await fx.pool.query('SELECT count, unit_cents AS "unitCents" FROM unclaimed_orders WHERE order_id = $1', [order.orderId]);
    expect(waiting).toEqual([{ count: 10, unitCents: 3700 }]);

    await fx.publish(claimed(order, buyer.userId!));
    await fx.publish(claimed(order, buyer.userId!));

    expect(await balanceOf(fx.pool, buyer.userId!)).toBe(10);
    expect((await fx.pool.query('SELECT 1 FROM unclaimed_orders WHERE order_id = $1', [order.orderId])).rows).toHaveLength(0);
  });

  it('when the claim arrives before the anonymous payment, then it is credited once and the payment changes nothing', async () => {
    const buyer = agent();
    const order = orderFacts(null);

    await fx.publish(claimed(order, buyer.userId!));
    await fx.publish(paid(order));

    expect(await balanceOf(fx.pool, buyer.userId!)).toBe(10);
    expect((await fx.pool.query('SELECT 1 FROM unclaimed_orders WHERE order_id = $1', [order.orderId])).rows).toHaveLength(0);
    expect(await ledgerMismatches(fx.pool)).toEqual([]);
  });
});

describe('refunds', () => {
  it('when a package is refunded whole after 4 of its 10 transfers were charged, then only the 6 unused are taken back', async () => {
    const buyer = agent();
    const order = orderFacts(buyer.userId!);
    await fx.publish(paid(order));
    for (let i = 0; i < 4; i++) {
      const transferId = await insertTransfer(fx.pool, { agentId: buyer.userId!, routedAt: new Date() });
      expect(await chargeTransfer(fx.pool, buyer.userId!, transferId)).toBe(3700);
    }

    await fx.publish(refunded(order.orderId, 37_000));

    expect(await balanceOf(fx.pool, buyer.userId!)).toBe(0);
    expect(await lotsOf(buyer.userId!)).toEqual([expect.objectContaining({ credited: 10, remaining: 0, takenBack: 6 })]);
    const { rows } = await fx.pool.query("SELECT count(*)::int AS n FROM transfers WHERE agent_id = $1 AND status = 'charged'", [buyer.userId]);
    expect(rows[0].n).toBe(4);
    expect(await ledgerMismatches(fx.pool)).toEqual([]);
  });

  it('when a package is refunded in parts, then each part takes back ceil(total / price) less what was taken, never more than is left', async () => {
    const buyer = agent();
    const order = orderFacts(buyer.userId!);
    await fx.publish(paid(order));
    for (let i = 0; i < 5; i++) await chargeTransfer(fx.pool, buyer.userId!, await insertTransfer(fx.pool, { agentId: buyer.userId!, routedAt: new Date() }));

    // $50 back: two transfers' worth (rounded up).
    await fx.publish(refunded(order.orderId, 5_000));
    expect(await balanceOf(fx.pool, buyer.userId!)).toBe(3);
    // The same refund heard again changes nothing.
    await fx.publish(refunded(order.orderId, 5_000));
    expect(await balanceOf(fx.pool, buyer.userId!)).toBe(3);
    // $259 in all: 7 transfers' worth, 5 more than taken, but only 3 are left.
    await fx.publish(refunded(order.orderId, 25_900, 20_900));

    expect(await balanceOf(fx.pool, buyer.userId!)).toBe(0);
    expect(await lotsOf(buyer.userId!)).toEqual([expect.objectContaining({ remaining: 0, takenBack: 5 })]);
    expect(await ledgerMismatches(fx.pool)).toEqual([]);
  });

  it('when the refund arrives before the payment, then it is kept and applied when the credit arrives', async () => {
    const buyer = agent();
    const order = orderFacts(buyer.userId!);

    await fx.publish(refunded(order.orderId, 3_700 * 3));
    expect(await balanceOf(fx.pool, buyer.userId!)).toBe(0);
    await fx.publish(paid(order));

    expect(await balanceOf(fx.pool, buyer.userId!)).toBe(7);
    expect(await lotsOf(buyer.userId!)).toEqual([expect.objectContaining({ credited: 10, remaining: 7, takenBack: 3 })]);
  });

  it('when an anonymous order is refunded whole before it is claimed, then its claim credits nothing usable', async () => {
    const buyer = agent();
    const order = orderFacts(null);
    await fx.publish(paid(order));

    await fx.publish(refunded(order.orderId, 37_000));
    await fx.publish(claimed(order, buyer.userId!));

    expect(await balanceOf(fx.pool, buyer.userId!)).toBe(0);
    expect(await ledgerMismatches(fx.pool)).toEqual([]);
  });

  it("when a refund is for an order that bought no transfers, then no agent's balance changes", async () => {
    const buyer = agent();
    await fx.publish(paid(orderFacts(buyer.userId!)));

    await fx.publish(refunded(randomUUID(), 1_500));

    expect(await balanceOf(fx.pool, buyer.userId!)).toBe(10);
  });
});

describe('repeated and reordered events', () => {
  it('when payments, claims and refunds of several orders arrive repeated and in every order, then each ledger equals its rows and the same balances result', async () => {
    const buyer = agent();
    const known = orderFacts(buyer.userId!, { count: 20 });
    const anonymous = orderFacts(null, { count: 5, tier: 'enterprise', unitPriceCents: 3500, amountCents: 17_500 });
    const events = [
      paid(known),
      paid(known),
      refunded(known.orderId, 3_700 * 4),
      paid(anonymous),
      claimed(anonymous, buyer.userId!),
      refunded(anonymous.orderId, 3_500),
      claimed(anonymous, buyer.userId!),
      refunded(known.orderId, 3_700 * 4),
    ];
    // Backwards: every refund and claim before its payment.
    for (const e of [...events].reverse()) await fx.publish({ ...e, id: randomUUID() });

    // 20 − 4 + 5 − 1.
    expect(await balanceOf(fx.pool, buyer.userId!)).toBe(20);
    expect(await ledgerMismatches(fx.pool)).toEqual([]);

    const other = agent();
    const knownAgain = { ...known, orderId: randomUUID(), buyerUserId: other.userId! };
    const anonymousAgain = { ...anonymous, orderId: randomUUID() };
    const forwards = [
      paid(knownAgain),
      refunded(knownAgain.orderId, 3_700 * 4),
      paid(anonymousAgain),
      claimed(anonymousAgain, other.userId!),
      refunded(anonymousAgain.orderId, 3_500),
    ];
    await Promise.all([...forwards, ...forwards].map((e) => fx.publish({ ...e, id: randomUUID() })));

    expect(await balanceOf(fx.pool, other.userId!)).toBe(20);
    expect(await ledgerMismatches(fx.pool)).toEqual([]);
  });
});

describe('deleted accounts', () => {
  it('when the agent’s account is deleted, then they are marked and never routed again, their ledger kept', async () => {
    const buyer = agent();
    await fx.publish(paid(orderFacts(buyer.userId!)));

    await fx.publish(envelope('user.deleted', { userId: buyer.userId!, deletedBy: randomUUID() }, 'gateway'));

    const { rows } = await fx.pool.query('SELECT deleted_at IS NOT NULL AS deleted, balance FROM agents WHERE user_id = $1', [buyer.userId]);
    expect(rows[0]).toEqual({ deleted: true, balance: 10 });
  });
});
