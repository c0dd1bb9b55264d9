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
