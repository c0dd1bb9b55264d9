import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@warmline/platform/testing/index';
import { agent, startCatalogFixture, testCard, type CatalogFixture } from './catalog-fixture';

/**
 * One account cannot hold the whole inventory (issue 11, Medium 5): at most 3 unpaid lead
 * purchases and 1,500 reserved leads at once per buyer, checked race-safe.
 */

const TOO_MANY = 'You have too many unpaid lead purchases; pay or wait for them to expire';

let fx: CatalogFixture;

beforeAll(async () => {
  fx = await startCatalogFixture();
});

afterAll(async () => {
  await fx?.cleanup();
});

async function freshLeadIds(count: number): Promise<string[]> {
  const leads = await fx.addLeads(Array.from({ length: count }, (_, i) => ({ ageDays: 45 + (i % 3), ageHours: i % 20 })));
  return leads.map((l) => l.id);
}

const purchase = (buyer: ReturnType<typeof agent>, leadIds: string[]) =>
  fx.call('POST', '/api/bulk-purchase-leads', { body: { leadIds }, identity: buyer });

async function heldBy(userId: string): Promise<number> {
  const { rows } = await fx.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM aged_leads WHERE held_by_user_id = $1', [userId]);
  return rows[0]?.n ?? 0;
}

async function liveReservations(userId: string): Promise<number> {
  const { rows } = await fx.pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM lead_reservations WHERE buyer_user_id = $1 AND status = 'held'",
    [userId],
  );
  return rows[0]?.n ?? 0;
}

describe('limits on unpaid lead purchases', () => {
  it('when a buyer has 3 unpaid purchases, then a 4th is refused with 429 and nothing is held, and paying one makes room', async () => {
    const buyer = agent('hoarder');
    const orders: Array<{ orderId: string; clientSecret: string }> = [];
    for (let i = 0; i < 3; i += 1) {
      const answer = await purchase(buyer, await freshLeadIds(2));
      expect(answer.status).toBe(201);
      orders.push({ orderId: String(answer.body.orderId), clientSecret: String(answer.body.clientSecret) });
    }
    const fourth = await freshLeadIds(2);

    const refused = await purchase(buyer, fourth);

    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe(TOO_MANY);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await heldBy(buyer.userId as string)).toBe(6);
    expect(await liveReservations(buyer.userId as string)).toBe(3);
    // Another buyer is not limited by this one.
    expect((await purchase(agent('neighbour'), fourth)).status).toBe(201);

    const first = orders[0]!;
    const paid = await fx.callOrders('POST', '/api/payments/sandbox/confirm', { body: testCard(first.clientSecret), identity: buyer });
    expect(paid.status).toBe(200);
    await waitFor(`order ${first.orderId} sold`, async () => {
      const answer = await fx.call('GET', `/api/bulk-purchase-leads/${first.orderId}`, { identity: buyer });
      return answer.body.status === 'paid';
    }, { timeoutMs: 20_000 });

    expect((await purchase(buyer, await freshLeadIds(2))).status).toBe(201);
  });

  it('when a buyer already holds reserved leads, then a purchase that would take them past 1,500 is refused, and one that reaches 1,500 is not', async () => {
    const buyer = agent('bulk');
    // 1,400 leads held by one unpaid reservation of this buyer (arranged directly: the API
    // caps a purchase at 500 leads).
    const held = await freshLeadIds(1400);
    const orderId = randomUUID();
    await fx.pool.query(
      `INSERT INTO lead_reservations (order_id, buyer_user_id, lead_count, amount_cents, created_at, expires_at)
       VALUES ($1, $2, $3, $4, now(), now() + interval '15 minutes')`,
      [orderId, buyer.userId, held.length, held.length * 250],
    );
    await fx.pool.query(
      `INSERT INTO lead_reservation_items (order_id, lead_id, age_range, price_cents) SELECT $1, id, '30-60', 250 FROM unnest($2::uuid[]) AS id`,
      [orderId, held],
    );
    await fx.pool.query(
      `UPDATE aged_leads SET held_by_order_id = $1, held_by_user_id = $2, held_until = now() + interval '15 minutes' WHERE id = ANY($3::uuid[])`,
      [orderId, buyer.userId, held],
    );
    const more = await freshLeadIds(101);

    const tooMany = await purchase(buyer, more);
    const exactly = await purchase(buyer, more.slice(0, 100));

    expect(tooMany.status).toBe(429);
    expect(tooMany.body.error).toBe(TOO_MANY);
    expect(exactly.status).toBe(201);
    expect(await heldBy(buyer.userId as string)).toBe(1500);
  });

  it('when one buyer sends 10 purchases at once, then only 3 are reserved and the rest are refused with 429', async () => {
    const buyer = agent('racer');
    const selections = await Promise.all(Array.from({ length: 10 }, () => freshLeadIds(3)));

    const answers = await Promise.all(selections.map((ids) => purchase(buyer, ids)));

    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 201, 201, 429, 429, 429, 429, 429, 429, 429]);
    expect(await liveReservations(buyer.userId as string)).toBe(3);
    expect(await heldBy(buyer.userId as string)).toBe(9);
  });
});

describe('abandoned checkouts do not lock the buyer out (issue 22)', () => {
  it('when the buyer opens the payment dialog for the same leads five times without paying, then the same purchase and payment come back each time and no 429', async () => {
    const buyer = agent('reopener');
    const leadIds = await freshLeadIds(3);
    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push(await purchase(buyer, i % 2 === 0 ? leadIds : [...leadIds].reverse()));

    expect(answers.map((a) => a.status)).toEqual([201, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.orderId)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.clientSecret)).size).toBe(1);
    expect(answers.map((a) => a.body.resumed)).toEqual([false, true, true, true, true]);
    expect(new Set(answers.map((a) => a.body.reservedUntil)).size).toBe(1);
    expect(await liveReservations(buyer.userId as string)).toBe(1);
    const { rows } = await fx.ordersPool.query<{ n: number }>("SELECT count(*)::int AS n FROM package_orders WHERE buyer_user_id = $1 AND kind = 'lead'", [buyer.userId]);
    expect(rows[0]?.n).toBe(1);
    // Two other selections still fit under the limit of 3.
    expect((await purchase(buyer, await freshLeadIds(1))).status).toBe(201);
    expect((await purchase(buyer, await freshLeadIds(1))).status).toBe(201);
    expect((await purchase(buyer, await freshLeadIds(1))).status).toBe(429);
  });

  it('when the buyer grows the same selection four times, then each newer purchase takes over the older one, which no longer counts towards the limit', async () => {
    const buyer = agent('grower');
    const leadIds = await freshLeadIds(5);
    const answers = [];
    for (let n = 2; n <= 5; n += 1) answers.push(await purchase(buyer, leadIds.slice(0, n)));

    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    const unpaid = await fx.call('GET', '/api/bulk-purchase-leads', { identity: buyer });
    expect(unpaid.status).toBe(200);
    // Only the newest holds leads; the older ones hold none and are not listed.
    expect(unpaid.body.purchases).toEqual([expect.objectContaining({ orderId: answers[3]!.body.orderId, leadCount: 5, heldLeadCount: 5, totalCents: 1250 })]);
  });

  it('when the buyer cancels an unpaid purchase in My Orders, then its leads are for sale at once, it is no longer listed, and its payment is refused', async () => {
    const buyer = agent('canceller');
    const leadIds = await freshLeadIds(2);
    const opened = await purchase(buyer, leadIds);
    expect(opened.status).toBe(201);
    const orderId = String(opened.body.orderId);
    const listed = await fx.call('GET', '/api/bulk-purchase-leads', { identity: buyer });
    expect(listed.body.purchases).toEqual([
      { orderId, leadCount: 2, heldLeadCount: 2, totalCents: 500, createdAt: expect.any(String), reservedUntil: opened.body.reservedUntil },
    ]);
    // Somebody else's purchase is not theirs to cancel.
    expect((await fx.call('POST', `/api/bulk-purchase-leads/${orderId}/cancel`, { identity: agent('stranger') })).status).toBe(404);

    const cancelled = await fx.call('POST', `/api/bulk-purchase-leads/${orderId}/cancel`, { identity: buyer });

    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({ orderId, status: 'cancelled', releasedLeadCount: 2 });
    expect(await heldBy(buyer.userId as string)).toBe(0);
    expect((await fx.call('GET', '/api/bulk-purchase-leads', { identity: buyer })).body.purchases).toEqual([]);
    expect((await fx.call('GET', `/api/bulk-purchase-leads/${orderId}`, { identity: buyer })).body.status).toBe('cancelled');
    // Another buyer can take the leads straight away, not 15 minutes later.
    expect((await purchase(agent('next_in_line'), leadIds)).status).toBe(201);
    // The old payment form can no longer take the card, and Pay is refused.
    const late = await fx.callOrders('POST', '/api/payments/sandbox/confirm', { body: testCard(String(opened.body.clientSecret)), identity: buyer });
    expect(late.status).toBe(409);
    expect(late.body.error).toBe('This purchase was cancelled; nothing was charged. Choose the leads again to buy them.');
    const { rows } = await fx.ordersPool.query('SELECT status, cancelled_at IS NOT NULL AS cancelled FROM package_orders WHERE id = $1', [orderId]);
    expect(rows).toEqual([{ status: 'pending', cancelled: true }]);
    expect((await fx.call('POST', `/api/bulk-purchase-leads/${orderId}/resume`, { identity: buyer })).status).toBe(409);
    // Cancelling again answers the same, releasing nothing more.
    const again = await fx.call('POST', `/api/bulk-purchase-leads/${orderId}/cancel`, { identity: buyer });
    expect(again.body).toEqual({ orderId, status: 'cancelled', releasedLeadCount: 0 });
  });

  it('when the buyer presses Pay on an unpaid purchase, then it is the same payment; a paid purchase cannot be cancelled', async () => {
    const buyer = agent('payer');
    const opened = await purchase(buyer, await freshLeadIds(1));
    const orderId = String(opened.body.orderId);
    const resumed = await fx.call('POST', `/api/bulk-purchase-leads/${orderId}/resume`, { identity: buyer });
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ orderId, clientSecret: opened.body.clientSecret, resumed: true, totalCents: 250 });

    const paid = await fx.callOrders('POST', '/api/payments/sandbox/confirm', { body: testCard(String(resumed.body.clientSecret)), identity: buyer });
    expect(paid.status).toBe(200);
    const refused = await fx.call('POST', `/api/bulk-purchase-leads/${orderId}/cancel`, { identity: buyer });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('This purchase is already paid');
    const malformed = await fx.call('POST', '/api/bulk-purchase-leads/not-a-uuid/cancel', { identity: buyer });
    expect(malformed.status).toBe(404);
    expect(malformed.body.error).toBe('Purchase not found');
  });
});
