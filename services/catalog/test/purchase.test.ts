import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, createLogger } from '@warmline/platform';
import { waitFor } from '@warmline/platform/testing/index';
import { consumerMark } from '@warmline/platform/testing/barriers';
import type { Envelope } from '@warmline/contracts';
import type { MarketLead } from '@warmline/contracts/catalog';
import { catalogEnv } from '../src/config';
import { formatPhone } from '../src/market/domain/masking';
import { startCatalog } from '../src/service';
import { LEAD_PAYMENTS_QUEUE } from '../src/events/consumers';
import { agent, startCatalogFixture, testCard, type CatalogFixture } from './catalog-fixture';

/**
 * Buying aged leads: reserve all or none, pay through the orders service, sold on
 * payment.succeeded once, released on failure or after 15 minutes.
 */

let fx: CatalogFixture;

beforeAll(async () => {
  fx = await startCatalogFixture();
});

afterAll(async () => {
  await fx?.cleanup();
});

async function freshLeads(count: number, ageDays = 45) {
  return fx.addLeads(Array.from({ length: count }, (_, i) => ({ ageDays: ageDays + (i % 3), ageHours: i % 20 })));
}

const purchase = (buyer: ReturnType<typeof agent>, leadIds: string[]) =>
  fx.call('POST', '/api/bulk-purchase-leads', { body: { leadIds }, identity: buyer });

async function leadRows(ids: string[]) {
  const { rows } = await fx.pool.query<{
    id: string;
    sold_to_user_id: string | null;
    sold_order_id: string | null;
    held_by_user_id: string | null;
    sold_price_cents: number | null;
  }>('SELECT id, sold_to_user_id, sold_order_id, held_by_user_id, sold_price_cents FROM aged_leads WHERE id = ANY($1::uuid[])', [ids]);
  return rows;
}

async function reservationStatus(orderId: string) {
  const { rows } = await fx.pool.query<{ status: string }>('SELECT status FROM lead_reservations WHERE order_id = $1', [orderId]);
  return rows[0]?.status;
}

async function visibleTo(buyer: ReturnType<typeof agent>, ids: string[]): Promise<string[]> {
  const seen: string[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await fx.call('GET', `/api/aged-leads?page=${page}`, { identity: buyer });
    const leads = answer.body.leads as MarketLead[];
    if (leads.length === 0) return seen;
    seen.push(...leads.map((l) => l.id).filter((id) => ids.includes(id)));
  }
}

describe('buying aged leads', () => {
  it('when a buyer buys leads, then they are reserved and priced on the server, and once paid they are sold to that buyer and leads.purchased says so', async () => {
    const buyer = agent('buyer');
    const young = await fx.addLeads([{ ageDays: 40, zip: '78701' }, { ageDays: 59 }]);
    const older = await fx.addLeads([{ ageDays: 75 }, { ageDays: 150 }]);
    const ids = [...young, ...older].map((l) => l.id);

    const reserved = await purchase(buyer, ids);

    expect(reserved.status).toBe(201);
    expect(reserved.body).toMatchObject({ total: 8.5, totalCents: 850, leadCount: 4, paymentProvider: 'sandbox' });
    expect(String(reserved.body.clientSecret)).toContain('_secret_');
    const orderId = String(reserved.body.orderId);
    // The order at orders is the same purchase, priced from the same table.
    const order = await fx.ordersPool.query('SELECT kind, amount_cents, count, buyer_user_id FROM package_orders WHERE id = $1', [orderId]);
    expect(order.rows[0]).toEqual({ kind: 'lead', amount_cents: 850, count: 4, buyer_user_id: buyer.userId });
    // Held: gone for others, still there for the buyer.
    expect(await visibleTo(agent('someone'), ids)).toEqual([]);
    expect((await visibleTo(buyer, ids)).sort()).toEqual([...ids].sort());

    const pending = await fx.call('GET', `/api/bulk-purchase-leads/${orderId}`, { identity: buyer });
    expect(pending.body).toMatchObject({ orderId, status: 'held', leadCount: 4, soldLeadCount: 0, leads: [], totalCents: 0, paidAt: null });
    expect((await fx.call('GET', `/api/bulk-purchase-leads/${orderId}`, { identity: agent('nosy') })).status).toBe(404);

    const paid = await fx.callOrders('POST', '/api/payments/sandbox/confirm', { body: testCard(String(reserved.body.clientSecret)), identity: buyer });
    expect(paid.status).toBe(200);
    await waitFor('the leads sold', async () => (await reservationStatus(orderId)) === 'paid', { timeoutMs: 20_000 });
    const done = await fx.call('GET', `/api/bulk-purchase-leads/${orderId}`, { identity: buyer });
    expect(done.body).toMatchObject({ status: 'paid', leadCount: 4, soldLeadCount: 4, totalCents: 850 });
    // The receipt screen's list (issue 22): each lead the buyer now owns, in full — name, phone,
    // e-mail, state and zip — with its age range and price.
    const receiptLeads = done.body.leads as Array<{ leadId: string; name: string; phone: string; email: string | null; state: string; zip: string | null; ageRange: string; priceCents: number }>;
    expect(receiptLeads.map((l) => l.leadId).sort()).toEqual([...ids].sort());
    for (const lead of [...young, ...older]) {
      expect(receiptLeads.find((l) => l.leadId === lead.id)).toMatchObject({ name: lead.name, phone: formatPhone(lead.phone), email: lead.email, state: lead.state, zip: lead.zip ?? null });
    }
    const first = young[0]!;
    expect(receiptLeads.find((l) => l.leadId === first.id)?.zip).toBe('78701');
    expect(receiptLeads.map((l) => `${l.ageRange}:${l.priceCents}`).sort()).toEqual(['30-60:250', '30-60:250', '60-90:200', '90-180:150']);
    // Never to anyone else: another buyer, even one who knows the order id, gets 'not found'.
    const nosy = await fx.call('GET', `/api/bulk-purchase-leads/${orderId}`, { identity: agent('nosy') });
    expect(nosy.status).toBe(404);
    expect(JSON.stringify(nosy.body)).not.toContain(first.name);
    expect(typeof done.body.paidAt).toBe('string');

    const rows = await leadRows(ids);
    expect(rows.every((r) => r.sold_to_user_id === buyer.userId && r.sold_order_id === orderId && r.held_by_user_id === null)).toBe(true);
    expect(rows.map((r) => r.sold_price_cents).sort()).toEqual([150, 200, 250, 250]);
    const purchased = (await fx.outbox('leads.purchased')).filter((e) => e.data.orderId === orderId);
    expect(purchased).toHaveLength(1);
    expect(purchased[0]?.data).toMatchObject({ buyerUserId: buyer.userId, leadCount: 4, amountCents: 850, undeliveredLeadIds: [], refundDueCents: 0 });
    expect((purchased[0]?.data.leadIds as string[]).sort()).toEqual([...ids].sort());
    expect(JSON.stringify(purchased[0])).not.toContain(young[0]?.phone);
    // Sold: gone for everyone, the buyer included.
    expect(await visibleTo(buyer, ids)).toEqual([]);
  });

  it('when one chosen lead is no longer available, then nothing is reserved and 409 names it', async () => {
    const [taken, ...rest] = await freshLeads(4);
    const first = await purchase(agent('quick'), [taken!.id]);
    expect(first.status).toBe(201);

    const answer = await purchase(agent('slow'), [taken!.id, ...rest.map((l) => l.id)]);

    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ error: 'Some leads are no longer available', unavailableLeadIds: [taken!.id] });
    const rows = await leadRows(rest.map((l) => l.id));
    expect(rows.every((r) => r.held_by_user_id === null)).toBe(true);
  });

  it('when a lead is unknown, sold, or too young to list, then it is unavailable', async () => {
    const [young] = await fx.addLeads([{ ageDays: 12 }]);
    const unknown = randomUUID();

    const answer = await purchase(agent(), [young!.id, unknown]);

    expect(answer.status).toBe(409);
    expect((answer.body.unavailableLeadIds as string[]).sort()).toEqual([young!.id, unknown].sort());
  });

  it('refuses an empty selection with the spec message, and malformed ids, with 400', async () => {
    const none = await purchase(agent(), []);
    const missing = await fx.call('POST', '/api/bulk-purchase-leads', { body: {}, identity: agent() });
    const malformed = await purchase(agent(), ['not-a-uuid']);
    const tooMany = await purchase(agent(), Array.from({ length: 501 }, () => randomUUID()));
    const anonymous = await fx.call('POST', '/api/bulk-purchase-leads', { body: { leadIds: [randomUUID()] } });

    expect(none.status).toBe(400);
    expect(none.body.error).toBe('Please select at least one lead to purchase.');
    expect(missing.body.error).toBe('Please select at least one lead to purchase.');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe('Each lead id must be a UUID');
    expect(tooMany.status).toBe(400);
    expect(anonymous.status).toBe(401);
  });

  it('when 50 buyers race for the same 20 leads, then every request is answered 201 or 409 and no lead is sold twice', async () => {
    const pool = (await freshLeads(20)).map((l) => l.id);
    const buyers = Array.from({ length: 50 }, (_, i) => agent(`racer${i}`));
    // Each wants 3 to 6 of the 20, overlapping with many others.
    const wants = buyers.map((_, i) => Array.from({ length: 3 + (i % 4) }, (__, k) => pool[(i * 7 + k * 3) % 20] as string));

    const answers = await Promise.all(buyers.map((buyer, i) => purchase(buyer, wants[i] as string[])));

    expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
    const winners = answers.flatMap((a, i) => (a.status === 201 ? [{ buyer: buyers[i]!, answer: a, leads: wants[i]! }] : []));
    expect(winners.length).toBeGreaterThan(0);
    // No lead is in two live reservations.
    const reservedLeads = winners.flatMap((w) => [...new Set(w.leads)]);
    expect(new Set(reservedLeads).size).toBe(reservedLeads.length);

    // Everyone who got a reservation pays at once.
    await Promise.all(
      winners.map((w) =>
        fx.callOrders('POST', '/api/payments/sandbox/confirm', { body: testCard(String(w.answer.body.clientSecret)), identity: w.buyer }),
      ),
    );
    await waitFor('every winning order sold', async () => {
      const statuses = await Promise.all(winners.map((w) => reservationStatus(String(w.answer.body.orderId))));
      return statuses.every((s) => s === 'paid');
    }, { timeoutMs: 30_000 });

    const rows = await leadRows(pool);
    const sold = rows.filter((r) => r.sold_to_user_id);
    expect(sold).toHaveLength(reservedLeads.length);
    for (const row of sold) {
      const winner = winners.find((w) => w.answer.body.orderId === row.sold_order_id);
      expect(winner?.buyer.userId).toBe(row.sold_to_user_id);
      expect(winner?.leads).toContain(row.id);
    }
    const { rows: saleCounts } = await fx.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM lead_reservation_items WHERE lead_id = ANY($1::uuid[]) AND outcome = 'sold' GROUP BY lead_id HAVING count(*) > 1`,
      [pool],
    );
    expect(saleCounts).toEqual([]);
  });

  it('when a reservation is not paid within 15 minutes, then the sweeper releases it and another buyer can buy the leads', async () => {
    const leads = await freshLeads(3);
    const ids = leads.map((l) => l.id);
    const slow = agent('slow');
    const reserved = await purchase(slow, ids);
    expect(reserved.status).toBe(201);
    const orderId = String(reserved.body.orderId);

    fx.advance(14 * 60_000);
    expect(await fx.catalog.sweepExpiredReservations()).toBe(0);
    expect(await visibleTo(agent('early'), ids)).toEqual([]);

    fx.advance(61_000);
    // Listed again the moment the 15 minutes are up, before any sweep.
    expect((await visibleTo(agent('late'), ids)).sort()).toEqual([...ids].sort());
    expect(await fx.catalog.sweepExpiredReservations()).toBeGreaterThanOrEqual(1);

    expect(await reservationStatus(orderId)).toBe('expired');
    expect((await leadRows(ids)).every((r) => r.held_by_user_id === null)).toBe(true);
    const next = agent('next');
    await fx.buy(next, ids);
    expect((await leadRows(ids)).every((r) => r.sold_to_user_id === next.userId)).toBe(true);
  });

  it('when the same payment.succeeded arrives again (redelivered, or re-sent with a new id), then the leads are sold once', async () => {
    const buyer = agent('twice');
    const ids = (await freshLeads(2)).map((l) => l.id);
    const { orderId } = await fx.buy(buyer, ids);
    const before = await leadRows(ids);
    const { rows } = await fx.ordersPool.query<{ envelope: Envelope<Record<string, unknown>> }>(
      "SELECT envelope FROM outbox WHERE routing_key = 'payment.succeeded' AND envelope->'data'->>'orderId' = $1",
      [orderId],
    );
    const envelope = rows[0]!.envelope;

    const resentId = randomUUID();
    const mark = await consumerMark(fx.catalog.url, LEAD_PAYMENTS_QUEUE);
    await fx.publishEvent(envelope);
    await fx.publishEvent(envelope);
    await fx.publishEvent({ ...envelope, id: resentId });
    await waitFor('the re-sent event handled', async () => {
      const { rows: done } = await fx.pool.query('SELECT 1 FROM processed_events WHERE consumer = $1 AND event_id = $2', [
        'catalog.lead-payments',
        resentId,
      ]);
      return done.length === 1;
    });
    // Both repeats of the first id finished too: a wrongly-duplicated sale would be in the outbox by now.
    await mark.passed({ duplicate: 2 });

    expect((await fx.outbox('leads.purchased')).filter((e) => e.data.orderId === orderId)).toHaveLength(1);
    expect(await leadRows(ids)).toEqual(before);
  });

  it('when the database is asked to sell a sold lead again, then it refuses', async () => {
    const ids = (await freshLeads(1)).map((l) => l.id);
    await fx.buy(agent('first'), ids);

    await expect(
      fx.pool.query('UPDATE aged_leads SET sold_to_user_id = $2 WHERE id = $1', [ids[0], randomUUID()]),
    ).rejects.toThrow(/already sold/);
  });

  it('when the card is declined, then the reservation is released at once', async () => {
    const buyer = agent('declined');
    const ids = (await freshLeads(2)).map((l) => l.id);
    const reserved = await purchase(buyer, ids);
    const orderId = String(reserved.body.orderId);

    const declined = await fx.callOrders('POST', '/api/payments/sandbox/confirm', {
      body: testCard(String(reserved.body.clientSecret), '4000 0000 0000 0002'),
      identity: buyer,
    });

    expect(declined.status).toBe(402);
    await waitFor('the reservation released', async () => (await reservationStatus(orderId)) === 'released', { timeoutMs: 20_000 });
    expect((await visibleTo(agent('other'), ids)).sort()).toEqual([...ids].sort());
  });

  it('when an order is paid after its reservation ended and someone else bought one of its leads, then the rest are sold and that one is owed back', async () => {
    const late = agent('late_payer');
    const [kept, lost] = await freshLeads(2);
    const reserved = await purchase(late, [kept!.id, lost!.id]);
    const orderId = String(reserved.body.orderId);
    fx.advance(16 * 60_000);
    await fx.catalog.sweepExpiredReservations();
    const quick = agent('quick_buyer');
    await fx.buy(quick, [lost!.id]);

    await fx.callOrders('POST', '/api/payments/sandbox/confirm', { body: testCard(String(reserved.body.clientSecret)), identity: late });
    await waitFor('the late order settled', async () => (await reservationStatus(orderId)) === 'paid', { timeoutMs: 20_000 });

    const rows = await leadRows([kept!.id, lost!.id]);
    expect(rows.find((r) => r.id === kept!.id)?.sold_to_user_id).toBe(late.userId);
    expect(rows.find((r) => r.id === lost!.id)?.sold_to_user_id).toBe(quick.userId);
    const event = (await fx.outbox('leads.purchased')).find((e) => e.data.orderId === orderId);
    expect(event?.data).toMatchObject({ leadIds: [kept!.id], leadCount: 1, undeliveredLeadIds: [lost!.id], refundDueCents: 250 });
    const { rows: items } = await fx.pool.query('SELECT lead_id, outcome FROM lead_reservation_items WHERE order_id = $1', [orderId]);
    expect(items).toEqual(expect.arrayContaining([{ lead_id: lost!.id, outcome: 'undelivered' }, { lead_id: kept!.id, outcome: 'sold' }]));
  });

  it('when the payment cannot be opened, then the answer is 502 and the leads are not kept', async () => {
    const broken = await startCatalog(
      parseConfig(catalogEnv, { ...fx.config, CATALOG_PORT: '0', ORDERS_URL: 'http://127.0.0.1:9' } as unknown as NodeJS.ProcessEnv),
      createLogger('catalog', 'silent'),
      { sweeper: false },
    );
    try {
      const ids = (await freshLeads(2)).map((l) => l.id);
      const { IDENTITY_HEADER } = await import('@warmline/platform');
      const { signTestIdentity } = await import('@warmline/platform/testing/index');
      const response = await fetch(`${broken.url}/api/bulk-purchase-leads`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [IDENTITY_HEADER]: signTestIdentity('catalog', agent()) },
        body: JSON.stringify({ leadIds: ids }),
      });

      expect(response.status).toBe(502);
      expect(((await response.json()) as { error: string }).error).toBe('The payment service is unavailable, please try again shortly');
      expect((await leadRows(ids)).every((r) => r.held_by_user_id === null)).toBe(true);
    } finally {
      await broken.stop();
    }
  });
});
