import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS_EXCHANGE, type AgedLeadAgeRange, type Envelope, type LeadOrderLead } from '@warmline/contracts';
import type { PurchasedLead } from '@warmline/contracts/catalog';
import { createLogger, type Identity } from '@warmline/platform';
import { withTransaction } from '@warmline/platform/db/index';
import { ANONYMOUS } from '@warmline/platform/identity';
import { TEST_AMQP_URL, waitFor } from '@warmline/platform/testing/index';
import type { NewAgedLead } from '../src/db/leads';
import { fillLeadPackage, type PaidLeadPackage } from '../src/market/domain/lead-packages';
import { formatPhone } from '../src/market/domain/masking';
import { agent, startCatalogFixture, testCard, type CatalogFixture } from './catalog-fixture';

/**
 * The second brand's Aged Leads package (issue 13): 100 leads of one age range, paid at the
 * RingCloud checkout, then filled by the catalog from stock over the real bus — sold to the
 * buyer (My Leads), the missing part refunded once by orders through the sandbox provider, the
 * receipt asked for. The orders service runs beside the catalog; its e-mails are read from its
 * outbox. Each describe has its own stock (its own fixture).
 */

const PACKAGE_DOLLARS: Record<AgedLeadAgeRange, number> = { '30-60': 500, '60-90': 400, '90-180': 300 };
const silent = createLogger('test', 'silent');

/** The RingCloud checkout of an Aged Leads package, paid with the sandbox's good card. */
async function buyPackage(
  fx: CatalogFixture,
  buyer: Identity,
  ageRange: AgedLeadAgeRange,
  email = `${buyer.username ?? 'visitor'}@example.com`,
  states?: string,
): Promise<string> {
  const created = await fx.callOrders('POST', '/api/create-payment-intent', {
    body: {
      ...(states !== undefined ? { states } : {}),
      amount: PACKAGE_DOLLARS[ageRange],
      packageType: 'RingCloud Aged Leads',
      calls: 100,
      callCount: 1,
      tier: 'ringcloud',
      ageRange,
      billing: { name: 'Rae Cloud', email, phone: '(512) 555-0142' },
    },
    identity: buyer,
  });
  if (created.status !== 200 && created.status !== 201) throw new Error(`create-payment-intent answered ${created.status}: ${created.text}`);
  const paid = await fx.callOrders('POST', '/api/payments/sandbox/confirm', { body: testCard(String(created.body.clientSecret)), identity: buyer });
  if (paid.status !== 200) throw new Error(`payment answered ${paid.status}: ${paid.text}`);
  return String(created.body.orderId);
}

async function ordersOutbox(fx: CatalogFixture, type: string, orderId: string): Promise<Envelope<Record<string, unknown>>[]> {
  const { rows } = await fx.ordersPool.query<{ envelope: Envelope<Record<string, unknown>> }>(
    "SELECT envelope FROM outbox WHERE routing_key = $1 AND envelope->'data'->>'orderId' = $2 ORDER BY created_at, id",
    [type, orderId],
  );
  return rows.map((r) => r.envelope);
}

async function catalogOutbox(fx: CatalogFixture, type: string, orderId: string) {
  return (await fx.outbox(type)).filter((e) => e.data.orderId === orderId);
}

/**
 * Waits until orders has acted on the catalog's settlement: its receipt, or for an order without
 * an account its refund e-mail. Both are written in the settlement's own transaction, after the
 * refund's (payment.refunded commits first, so waiting on it races the e-mails).
 */
async function settled(fx: CatalogFixture, orderId: string, after: 'email.leads_receipt' | 'email.refund_issued' = 'email.leads_receipt') {
  return waitFor(`order ${orderId} settled`, async () => {
    const done = await ordersOutbox(fx, after, orderId);
    return done.length > 0 && done;
  }, { timeoutMs: 20_000 });
}

async function soldTo(fx: CatalogFixture, orderId: string) {
  const { rows } = await fx.pool.query<{ id: string; sold_to_user_id: string; sold_price_cents: number; sold_age_range: string }>(
    'SELECT id, sold_to_user_id, sold_price_cents, sold_age_range FROM aged_leads WHERE sold_order_id = $1',
    [orderId],
  );
  return rows;
}

async function refundsOf(fx: CatalogFixture, orderId: string) {
  const { rows } = await fx.ordersPool.query<{ amount_cents: number; initiated_by: string; reason: string }>(
    'SELECT amount_cents, initiated_by, reason FROM refunds WHERE order_id = $1',
    [orderId],
  );
  return rows;
}

/** `n` leads of the 60-90 range, each at its own time: lead 0 is the newest (61 days), the last the oldest. */
function sixtyToNinety(n: number, state = 'TX'): Array<Partial<NewAgedLead> & { ageDays: number; ageHours: number }> {
  return Array.from({ length: n }, (_, i) => ({ ageDays: 61 + Math.floor((i * 29) / Math.max(1, n - 1)), ageHours: 1 + (i % 20), state }));
}

const newestFirst = (leads: NewAgedLead[]) => [...leads].sort((a, b) => b.formFillTime.getTime() - a.formFillTime.getTime());

describe('a paid RingCloud Aged Leads package with enough in stock', () => {
  let fx: CatalogFixture;
  const buyer = agent('rc_buyer');
  let matching: NewAgedLead[] = [];
  let others: NewAgedLead[] = [];
  let held: NewAgedLead[] = [];
  let orderId = '';

  beforeAll(async () => {
    fx = await startCatalogFixture();
    matching = await fx.addLeads(sixtyToNinety(150));
    // Other ranges, with their edge days: 60 is still 30-60, 91 already 90-180; 29 is not listed yet.
    others = await fx.addLeads([
      ...Array.from({ length: 20 }, (_, i) => ({ ageDays: 30 + i, state: 'TX' })),
      { ageDays: 60, ageHours: 23 },
      { ageDays: 91, ageHours: 0 },
      ...Array.from({ length: 20 }, (_, i) => ({ ageDays: 100 + i * 4, state: 'OK' })),
      { ageDays: 29 },
      { ageDays: 181 },
    ]);
    // 60-90 leads in another buyer's unpaid purchase: held, not for the package.
    held = await fx.addLeads([{ ageDays: 62, ageHours: 2 }, { ageDays: 63, ageHours: 2 }]);
    const reserved = await fx.call('POST', '/api/bulk-purchase-leads', { body: { leadIds: held.map((l) => l.id) }, identity: agent('market_buyer') });
    expect(reserved.status).toBe(201);

    orderId = await buyPackage(fx, buyer, '60-90');
    await settled(fx, orderId);
  });

  afterAll(async () => {
    await fx?.cleanup();
  });

  it('when it is filled, then the 100 newest unsold, unheld leads of its range are sold to the buyer at $4.00 and none of another range', async () => {
    const sold = await soldTo(fx, orderId);
    expect(sold).toHaveLength(100);
    expect(sold.map((l) => l.id).sort()).toEqual(newestFirst(matching).slice(0, 100).map((l) => l.id).sort());
    expect(new Set(sold.map((l) => `${l.sold_to_user_id} ${l.sold_price_cents} ${l.sold_age_range}`))).toEqual(new Set([`${buyer.userId} 400 60-90`]));
    const { rows } = await fx.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM aged_leads WHERE id = ANY($1::uuid[]) AND sold_at IS NOT NULL', [
      [...others, ...held].map((l) => l.id),
    ]);
    expect(rows[0]?.n).toBe(0);
  });

  it('when the buyer opens My Leads, then the 100 leads are there with the range and price of the package', async () => {
    const answer = await fx.call('GET', '/api/my-leads', { identity: buyer });
    expect(answer.status).toBe(200);
    expect(answer.body.total).toBe(100);
    const leads = answer.body.leads as PurchasedLead[];
    expect(leads).toHaveLength(50);
    for (const lead of leads) expect(lead).toMatchObject({ orderId, ageRangeAtPurchase: '60-90', priceCents: 400, pricePaid: 4 });
  });

  it('when it is filled, then leads.purchased says so, orders refunds nothing and the receipt lists the 100 leads, newest first', async () => {
    expect((await catalogOutbox(fx, 'leads.purchased', orderId)).map((e) => e.data)).toEqual([
      expect.objectContaining({ buyerUserId: buyer.userId, leadCount: 100, amountCents: 40_000, refundDueCents: 0, undeliveredLeadIds: [] }),
    ]);
    const [settle] = await catalogOutbox(fx, 'lead_package.settle', orderId);
    expect(settle?.data).toMatchObject({ buyerUserId: buyer.userId, refundDueCents: 0 });
    const receipts = await ordersOutbox(fx, 'email.leads_receipt', orderId);
    expect(receipts).toHaveLength(1);
    const receipt = receipts[0]!.data as { to: string; delivered: LeadOrderLead[]; undelivered: LeadOrderLead[]; refundedCents: number; paidCents: number };
    expect(receipt).toMatchObject({ to: `${buyer.username}@example.com`, paidCents: 40_000, refundedCents: 0, undelivered: [] });
    expect(receipt.delivered.map((l) => l.leadId)).toEqual(newestFirst(matching).slice(0, 100).map((l) => l.id));
    // The buyer's own now, in full as in My Leads (issue 22): name, phone, e-mail.
    const newest = newestFirst(matching)[0]!;
    expect(receipt.delivered[0]).toMatchObject({ state: 'TX', ageRange: '60-90', priceCents: 400, name: newest.name, email: newest.email, phone: formatPhone(newest.phone) });
    expect(await refundsOf(fx, orderId)).toEqual([]);
    expect(await ordersOutbox(fx, 'email.refund_issued', orderId)).toEqual([]);
  });

  it('when its payment.succeeded is delivered again, or stated again under a new id, then nothing more is sold or settled', async () => {
    const [paid] = await ordersOutbox(fx, 'payment.succeeded', orderId);
    expect(paid).toBeDefined();
    const again = { ...paid!, id: randomUUID() } as Envelope<unknown>;
    await fx.publishEvent(paid as Envelope<unknown>);
    await fx.publishEvent(again);
    await waitFor('the repeated payment handled', async () => {
      const { rows } = await fx.pool.query('SELECT 1 FROM processed_events WHERE event_id = $1', [again.id]);
      const metrics = await (await fetch(`${fx.catalog.url}/metrics`)).text();
      return rows.length === 1 && /warmline_consumer_messages_total\{[^}]*outcome="duplicate"[^}]*\} [1-9]/.test(metrics);
    }, { timeoutMs: 20_000 });

    expect(await soldTo(fx, orderId)).toHaveLength(100);
    expect(await catalogOutbox(fx, 'lead_package.settle', orderId)).toHaveLength(1);
    expect(await catalogOutbox(fx, 'leads.purchased', orderId)).toHaveLength(1);
    const { rows } = await fx.pool.query('SELECT leads_delivered, refund_due_cents FROM lead_package_fills WHERE order_id = $1', [orderId]);
    expect(rows).toEqual([{ leads_delivered: 100, refund_due_cents: 0 }]);
  });
});

describe('a paid RingCloud Aged Leads package short of stock', () => {
  let fx: CatalogFixture;
  const buyer = agent('rc_short');
  let matching: NewAgedLead[] = [];
  let orderId = '';

  beforeAll(async () => {
    fx = await startCatalogFixture();
    matching = await fx.addLeads(sixtyToNinety(40));
    await fx.addLeads([{ ageDays: 45 }, { ageDays: 59 }, { ageDays: 95 }, { ageDays: 150 }]);
    orderId = await buyPackage(fx, buyer, '60-90');
    await settled(fx, orderId);
  });

  afterAll(async () => {
    await fx?.cleanup();
  });

  it('when only 40 are in stock, then those 40 are sold and 60 × $4.00 = $240.00 is refunded once, recorded by orders', async () => {
    const sold = await soldTo(fx, orderId);
    expect(sold.map((l) => l.id).sort()).toEqual(matching.map((l) => l.id).sort());
    const [settle] = await catalogOutbox(fx, 'lead_package.settle', orderId);
    expect(settle?.data).toMatchObject({ buyerUserId: buyer.userId, refundDueCents: 24_000 });
    expect((settle?.data.delivered as LeadOrderLead[]).length).toBe(40);

    expect(await refundsOf(fx, orderId)).toEqual([{ amount_cents: 24_000, initiated_by: 'system', reason: '60 of the 100 aged leads ordered were not in stock' }]);
    const { rows } = await fx.ordersPool.query('SELECT amount_cents, refunded_cents FROM package_orders WHERE id = $1', [orderId]);
    expect(rows).toEqual([{ amount_cents: 40_000, refunded_cents: 24_000 }]);
    expect((await ordersOutbox(fx, 'payment.refunded', orderId)).map((e) => e.data)).toEqual([
      expect.objectContaining({ amountCents: 24_000, refundedTotalCents: 24_000, initiatedBy: 'system' }),
    ]);
    // The receipt lists the 40; the refund e-mail says what went back and why.
    expect((await ordersOutbox(fx, 'email.leads_receipt', orderId)).map((e) => (e.data.delivered as unknown[]).length)).toEqual([40]);
    expect((await ordersOutbox(fx, 'email.refund_issued', orderId)).map((e) => e.data)).toEqual([
      expect.objectContaining({ to: `${buyer.username}@example.com`, amountCents: 24_000, refundedTotalCents: 24_000, orderAmountCents: 40_000, reason: '60 of the 100 aged leads ordered were not in stock' }),
    ]);
    const myLeads = await fx.call('GET', '/api/my-leads', { identity: buyer });
    expect(myLeads.body.total).toBe(40);
  });

  it('when the catalog settles it again, then orders refunds nothing more', async () => {
    const [settle] = await catalogOutbox(fx, 'lead_package.settle', orderId);
    // The command delivered a second time under a new id (a replay from the dead-letter queue, say).
    await publishCommand(fx, { ...settle!, id: randomUUID() });
    await waitFor('the repeated settlement handled', async () => (await ordersOutbox(fx, 'email.leads_receipt', orderId)).length === 2, { timeoutMs: 20_000 });

    expect(await refundsOf(fx, orderId)).toHaveLength(1);
    expect(await ordersOutbox(fx, 'payment.refunded', orderId)).toHaveLength(1);
    const { rows } = await fx.ordersPool.query('SELECT refunded_cents FROM package_orders WHERE id = $1', [orderId]);
    expect(rows).toEqual([{ refunded_cents: 24_000 }]);
  });

  it('when a visitor without an account pays for a package, then nothing is sold and the whole order is refunded, with an e-mail saying why', async () => {
    const anonymousOrder = await buyPackage(fx, ANONYMOUS, '30-60', 'visitor@example.com');
    await settled(fx, anonymousOrder, 'email.refund_issued');

    expect(await soldTo(fx, anonymousOrder)).toEqual([]);
    const reason = 'This order is not linked to an account, so its aged leads could not be delivered to My Leads. Please log in and order again.';
    expect(await refundsOf(fx, anonymousOrder)).toEqual([{ amount_cents: 50_000, initiated_by: 'system', reason }]);
    expect((await ordersOutbox(fx, 'email.refund_issued', anonymousOrder)).map((e) => e.data)).toEqual([
      expect.objectContaining({ to: 'visitor@example.com', amountCents: 50_000, refundedTotalCents: 50_000, reason }),
    ]);
    expect(await ordersOutbox(fx, 'email.leads_receipt', anonymousOrder)).toEqual([]);
    expect(await catalogOutbox(fx, 'leads.purchased', anonymousOrder)).toEqual([]);
  });
});

describe("a paid RingCloud Aged Leads package of the buyer's states (issue 22)", () => {
  let fx: CatalogFixture;
  const buyer = agent('rc_fl_ga');
  let chosen: NewAgedLead[] = [];
  let orderId = '';

  beforeAll(async () => {
    fx = await startCatalogFixture();
    // 12 leads in FL or GA, and plenty in other states (the buyer got TX 25, IL 11, …).
    chosen = await fx.addLeads([...sixtyToNinety(7, 'FL'), ...sixtyToNinety(5, 'GA')]);
    await fx.addLeads([...sixtyToNinety(60, 'TX'), ...sixtyToNinety(30, 'IL'), ...sixtyToNinety(30, 'NC'), ...sixtyToNinety(20, 'CA')]);
    // The RingCloud checkout sends the survey's working states as it stored them.
    orderId = await buyPackage(fx, buyer, '60-90', undefined, 'FL, GA');
    await settled(fx, orderId);
  });

  afterAll(async () => {
    await fx?.cleanup();
  });

  it('when the buyer chose FL and GA, then only their 12 leads in FL or GA are sold and the 88 missing are refunded, saying where', async () => {
    const sold = await soldTo(fx, orderId);
    expect(sold.map((l) => l.id).sort()).toEqual(chosen.map((l) => l.id).sort());
    const { rows: fills } = await fx.pool.query('SELECT states, leads_delivered, refund_due_cents FROM lead_package_fills WHERE order_id = $1', [orderId]);
    expect(fills).toEqual([{ states: ['FL', 'GA'], leads_delivered: 12, refund_due_cents: 88 * 400 }]);
    const reason = '88 of the 100 aged leads ordered were not in stock in FL, GA';
    expect(await refundsOf(fx, orderId)).toEqual([{ amount_cents: 88 * 400, initiated_by: 'system', reason }]);
  });

  it('when it is settled, then the receipt says 12 of 100 from FL and GA, and the order status tells the thank-you page the same', async () => {
    const [receipt] = await ordersOutbox(fx, 'email.leads_receipt', orderId);
    expect(receipt?.data).toMatchObject({ brand: 'RingCloud', leadPackage: { ordered: 100, states: ['FL', 'GA'], refundDueCents: 88 * 400 } });
    expect((receipt?.data.delivered as LeadOrderLead[]).map((l) => l.state).sort()).toEqual([...Array(7).fill('FL'), ...Array(5).fill('GA')]);
    const status = await fx.callOrders('GET', `/api/orders/${orderId}/status`, { identity: buyer });
    expect(status.status).toBe(200);
    expect(status.body.leadPackage).toEqual({ ordered: 100, delivered: 12, states: ['FL', 'GA'] });
    const [paid] = await ordersOutbox(fx, 'payment.succeeded', orderId);
    expect(paid?.data.states).toEqual(['FL', 'GA']);
  });

  it('when the states are not US states, then the checkout is refused with a 400 naming them and nothing is ordered', async () => {
    const answer = await fx.callOrders('POST', '/api/create-payment-intent', {
      body: { amount: 400, packageType: 'RingCloud Aged Leads', calls: 100, callCount: 1, tier: 'ringcloud', ageRange: '60-90', states: 'FL, Narnia' },
      identity: agent('rc_narnia'),
    });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain("'Narnia' is not a US state");
  });

  it('when another order type names states, then they are not kept', async () => {
    const answer = await fx.callOrders('POST', '/api/create-payment-intent', {
      body: { amount: 150, packageType: 'RingCloud Call-Backs', calls: 10, callCount: 1, tier: 'ringcloud', states: 'FL' },
      identity: agent('rc_cb_states'),
    });
    expect(answer.status).toBe(201);
    const { rows } = await fx.ordersPool.query('SELECT states FROM package_orders WHERE id = $1', [answer.body.orderId]);
    expect(rows).toEqual([{ states: null }]);
  });
});

describe('RingCloud Aged Leads packages filled at the same time', () => {
  let fx: CatalogFixture;

  beforeAll(async () => {
    fx = await startCatalogFixture();
  });

  afterAll(async () => {
    await fx?.cleanup();
  });

  it('when two packages of the same range are paid at once with 150 in stock, then they share no lead and 50 leads are refunded between them', async () => {
    const stock = await fx.addLeads(sixtyToNinety(150));
    const [a, b] = [agent('racer_a'), agent('racer_b')];
    const orders = await Promise.all([buyPackage(fx, a, '60-90'), buyPackage(fx, b, '60-90')]);
    await Promise.all(orders.map((orderId) => settled(fx, orderId)));

    const [soldA, soldB] = await Promise.all(orders.map((orderId) => soldTo(fx, orderId)));
    const idsA = soldA!.map((l) => l.id);
    const idsB = soldB!.map((l) => l.id);
    expect(idsA.filter((id) => idsB.includes(id))).toEqual([]);
    expect([...idsA, ...idsB].sort()).toEqual(stock.map((l) => l.id).sort());
    expect(soldA!.every((l) => l.sold_to_user_id === a.userId) && soldB!.every((l) => l.sold_to_user_id === b.userId)).toBe(true);
    // Each order's settlement names exactly its own leads, and the missing ones are refunded.
    for (const [orderId, ids] of [[orders[0]!, idsA], [orders[1]!, idsB]] as const) {
      const [settle] = await catalogOutbox(fx, 'lead_package.settle', orderId);
      expect((settle?.data.delivered as LeadOrderLead[]).map((l) => l.leadId).sort()).toEqual([...ids].sort());
      const refunded = (await refundsOf(fx, orderId)).reduce((sum, r) => sum + r.amount_cents, 0);
      expect(refunded).toBe((100 - ids.length) * 400);
    }
  });

  it('when one fill holds its leads uncommitted, then a second one does not wait for them: it takes the next newest and never one of the first', async () => {
    // The newest 100 in one state, the older 50 in another: a sale also counts itself out of
    // lead_stock (per day, state and area code), and two sales counted in the same row do wait
    // for each other there — briefly, and never in a cycle. Here only the leads are shared.
    const stock = newestFirst(
      await fx.addLeads([
        ...Array.from({ length: 100 }, (_, i) => ({ ageDays: 61 + Math.floor(i / 8), ageHours: 1 + (i % 8), state: 'TX' })),
        ...Array.from({ length: 50 }, (_, i) => ({ ageDays: 76 + Math.floor(i / 4), ageHours: 1 + (i % 4), state: 'OK' })),
      ]),
    );
    const first = await fx.pool.connect();
    const second = await fx.pool.connect();
    try {
      await first.query('BEGIN');
      await second.query('BEGIN');
      // Waiting on the first fill's row locks would be a failure here, not a pause.
      await second.query("SET LOCAL lock_timeout = '2s'");
      const deps = { log: silent, clock: fx.now };
      const a = await fillLeadPackage(first, deps, paidPackage(agent('tx_a').userId!));
      const b = await fillLeadPackage(second, deps, paidPackage(agent('tx_b').userId!));
      await first.query('COMMIT');
      await second.query('COMMIT');

      expect(a).toEqual({ outcome: 'filled', soldLeadIds: stock.slice(0, 100).map((l) => l.id), refundDueCents: 0 });
      expect(b).toEqual({ outcome: 'filled', soldLeadIds: stock.slice(100).map((l) => l.id), refundDueCents: 50 * 400 });
    } finally {
      await first.query('ROLLBACK').catch(() => undefined);
      await second.query('ROLLBACK').catch(() => undefined);
      first.release();
      second.release();
    }
  });

  it('when a package names states, then only leads of those states are sold', async () => {
    const leads = await fx.addLeads([...sixtyToNinety(3, 'OK'), ...sixtyToNinety(3, 'KS')]);
    const filled = await withTransaction(fx.pool, (db) => fillLeadPackage(db, { log: silent, clock: fx.now }, paidPackage(agent('tx_states').userId!), { states: ['OK'] }));
    const ok = newestFirst(leads.filter((l) => l.state === 'OK')).map((l) => l.id);
    expect(filled).toEqual({ outcome: 'filled', soldLeadIds: ok, refundDueCents: 97 * 400 });
  });
});

/** A paid 60-90 package as payment.succeeded would name it (orders knows no such order: its settlement is logged there and dropped). */
function paidPackage(buyerUserId: string): PaidLeadPackage {
  return { orderId: randomUUID(), buyerUserId, ageRange: '60-90', count: 100, unitPriceCents: 400, amountCents: 40_000, correlationId: randomUUID() };
}

/** Sends a command on the run's commands exchange, as the catalog's relay would. */
async function publishCommand(fx: CatalogFixture, envelope: Envelope<Record<string, unknown>>): Promise<void> {
  const connection = await amqp.connect(TEST_AMQP_URL);
  try {
    const channel = await connection.createConfirmChannel();
    await new Promise<void>((resolve, reject) =>
      channel.publish(`${fx.namespace}.${COMMANDS_EXCHANGE}`, envelope.type, Buffer.from(JSON.stringify(envelope)), { persistent: true, contentType: 'application/json', messageId: envelope.id }, (err: unknown) =>
        err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(),
      ),
    );
  } finally {
    await connection.close();
  }
}
