import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuyerProfile, CommandData } from '@warmline/contracts';
import { createLogger } from '@warmline/platform';
import { withTransaction } from '@warmline/platform/db/index';
import { waitFor } from '@warmline/platform/testing/index';
import { settleLeadOrder } from '@warmline/orders/domain/lead-settlement';
import { handleStripeEvent } from '@warmline/orders/domain/payments';
import { sandboxProvider } from '@warmline/orders/domain/payment-provider';
import { agent, startCatalogFixture, testCard, type CatalogFixture } from './catalog-fixture';

/**
 * A lead order paid after its reservation ended, when some of its leads were sold to someone
 * else meanwhile (issue 12): the catalog sells the rest and settles the order with orders, which
 * refunds the undelivered leads through the payment provider (the sandbox) once, publishes
 * payment.refunded and asks for the buyer's receipt naming the leads bought and those refunded.
 * Orders reads the buyer's address from the gateway's internal users endpoint, answered here by
 * a small stand-in (the gateway itself is not part of this test).
 */

let fx: CatalogFixture;
let accounts: http.Server;
const profiles = new Map<string, BuyerProfile>();

beforeAll(async () => {
  accounts = http.createServer((req, res) => {
    const profile = profiles.get(/^\/internal\/users\/([\w-]+)$/.exec(req.url ?? '')?.[1] ?? '');
    res.writeHead(profile ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(profile ?? { error: 'User not found' }));
  });
  await new Promise<void>((resolve) => accounts.listen(0, '127.0.0.1', resolve));
  const { port } = accounts.address() as AddressInfo;
  fx = await startCatalogFixture({}, { ordersEnv: { GATEWAY_URL: `http://127.0.0.1:${port}` } });
});

afterAll(async () => {
  await fx?.cleanup();
  await new Promise<void>((resolve) => accounts?.close(() => resolve()));
});

function buyer(name: string) {
  const identity = agent(name);
  profiles.set(identity.userId!, {
    id: identity.userId!,
    username: identity.username!,
    firstName: 'Lena',
    lastName: 'Late',
    email: `${identity.username}@example.com`,
    phone: '(512) 555-0100',
    liveTransferPrice: '35.00',
  });
  return identity;
}

async function refundsOf(orderId: string) {
  const { rows } = await fx.ordersPool.query<{ amount_cents: number; initiated_by: string; reason: string }>(
    'SELECT amount_cents, initiated_by, reason FROM refunds WHERE order_id = $1',
    [orderId],
  );
  return rows;
}

describe('a lead order paid late', () => {
  it('when one of its leads was sold to someone else meanwhile, then its price is refunded automatically once and the receipt names the leads bought and the one refunded', async () => {
    const late = buyer('late_payer');
    const [kept, lost] = await fx.addLeads([
      { ageDays: 45, name: 'Maria Gonzalez', state: 'TX', phone: '5125550134', email: 'maria@example.com', zip: '78701' },
      { ageDays: 46, name: 'Peter Lindqvist', state: 'OK', phone: '4055550177', email: 'peter@example.com' },
    ]);
    const reserved = await fx.call('POST', '/api/bulk-purchase-leads', { body: { leadIds: [kept!.id, lost!.id] }, identity: late });
    expect(reserved.status).toBe(201);
    const orderId = String(reserved.body.orderId);
    // The reservation runs out, and another buyer takes one of the two leads.
    fx.advance(16 * 60_000);
    await fx.catalog.sweepExpiredReservations();
    await fx.buy(agent('quick_buyer'), [lost!.id]);

    const paid = await fx.callOrders('POST', '/api/payments/sandbox/confirm', { body: testCard(String(reserved.body.clientSecret)), identity: late });
    expect(paid.status).toBe(200);

    const receipt = await waitFor('the receipt asked for', async () => {
      const asked = (await outboxOfOrders('email.leads_receipt')).filter((e) => e.data.orderId === orderId);
      return asked.length > 0 && asked;
    }, { timeoutMs: 20_000 });
    expect(await refundsOf(orderId)).toEqual([{ amount_cents: 250, initiated_by: 'system', reason: '1 aged lead was sold to another buyer before the payment arrived' }]);
    const { rows } = await fx.ordersPool.query<{ amount_cents: number; refunded_cents: number }>('SELECT amount_cents, refunded_cents FROM package_orders WHERE id = $1', [orderId]);
    expect(rows[0]).toEqual({ amount_cents: 500, refunded_cents: 250 });
    expect((await outboxOfOrders('payment.refunded')).filter((e) => e.data.orderId === orderId).map((e) => e.data)).toEqual([
      expect.objectContaining({ amountCents: 250, refundedTotalCents: 250, initiatedBy: 'system' }),
    ]);
    expect(receipt.map((e) => e.data)).toEqual([
      expect.objectContaining({
        to: `${late.username}@example.com`,
        name: 'Lena',
        paidCents: 500,
        refundedCents: 250,
        // The lead the buyer got is theirs, in full (issue 22); the one sold elsewhere stays masked, without contact details.
        delivered: [
          { leadId: kept!.id, name: 'Maria Gonzalez', phone: '(512) 555-0134', email: 'maria@example.com', zip: '78701', state: 'TX', ageRange: '30-60', priceCents: 250 },
        ],
        undelivered: [{ leadId: lost!.id, name: 'Peter LinXXXXXX', state: 'OK', ageRange: '30-60', priceCents: 250 }],
      }),
    ]);
    // No separate refund e-mail: the receipt says it.
    expect((await outboxOfOrders('email.refund_issued')).filter((e) => e.data.orderId === orderId)).toEqual([]);

    // The same settlement again (the catalog's command sent twice): nothing more is refunded.
    const settle = (await fx.outbox('lead_order.settle')).find((e) => e.data.orderId === orderId)!;
    const ctx = { pool: fx.ordersPool, provider: sandboxProvider(), log: createLogger('test', 'silent') };
    const users = { buyerProfile: async () => profiles.get(late.userId!)! };
    await withTransaction(fx.ordersPool, (db) =>
      settleLeadOrder(ctx, { users }, settle.data as CommandData<'lead_order.settle'>, { db, log: ctx.log, correlationId: settle.correlationId }),
    );
    expect(await refundsOf(orderId)).toHaveLength(1);
    expect((await outboxOfOrders('payment.refunded')).filter((e) => e.data.orderId === orderId)).toHaveLength(1);
  });

  it('when every lead is delivered, then nothing is refunded and the receipt lists them all', async () => {
    const onTime = buyer('on_time');
    const leads = await fx.addLeads([{ ageDays: 75 }, { ageDays: 120 }]);
    const { orderId } = await fx.buy(onTime, leads.map((l) => l.id));

    const receipt = await waitFor('the receipt asked for', async () => (await outboxOfOrders('email.leads_receipt')).find((e) => e.data.orderId === orderId), { timeoutMs: 20_000 });
    expect(receipt.data).toMatchObject({ refundedCents: 0, undelivered: [], paidCents: 350 });
    expect((receipt.data.delivered as Array<{ leadId: string }>).map((l) => l.leadId).sort()).toEqual(leads.map((l) => l.id).sort());
    expect(await refundsOf(orderId)).toEqual([]);
  });
});

describe('a cancelled lead purchase paid anyway (issue 22)', () => {
  it('when the provider still reports the payment of a purchase its buyer cancelled, then no lead is sold and all of it is refunded once', async () => {
    const changed = buyer('changed_mind');
    const [lead] = await fx.addLeads([{ ageDays: 50, name: 'Cora Cancel', state: 'FL' }]);
    const reserved = await fx.call('POST', '/api/bulk-purchase-leads', { body: { leadIds: [lead!.id] }, identity: changed });
    expect(reserved.status).toBe(201);
    const orderId = String(reserved.body.orderId);
    expect((await fx.call('POST', `/api/bulk-purchase-leads/${orderId}/cancel`, { identity: changed })).status).toBe(200);

    // Stripe's card form was still open in another tab: the money is taken and the webhook says so.
    const { rows: intents } = await fx.ordersPool.query<{ id: string }>('SELECT id FROM payment_intents WHERE order_id = $1', [orderId]);
    const ctx = { pool: fx.ordersPool, provider: sandboxProvider(), log: createLogger('test', 'silent') };
    const outcome = await handleStripeEvent(
      ctx,
      {
        id: `evt_${orderId}`,
        type: 'payment_intent.succeeded',
        data: { object: { id: intents[0]!.id, amount_received: 250, currency: 'usd', metadata: { orderId }, receipt_email: null, latest_charge: null } },
      } as unknown as Parameters<typeof handleStripeEvent>[1],
      orderId,
    );
    expect(outcome.outcome).toBe('recorded');

    await waitFor('the cancelled purchase refunded', async () => (await refundsOf(orderId)).length === 1, { timeoutMs: 20_000 });
    expect(await refundsOf(orderId)).toEqual([
      { amount_cents: 250, initiated_by: 'system', reason: 'The purchase was cancelled before the payment arrived, so no lead was delivered' },
    ]);
    const { rows: leads } = await fx.pool.query('SELECT sold_to_user_id FROM aged_leads WHERE id = $1', [lead!.id]);
    expect(leads).toEqual([{ sold_to_user_id: null }]);
    const settle = (await fx.outbox('lead_order.settle')).find((e) => e.data.orderId === orderId);
    expect(settle?.data).toMatchObject({ delivered: [], refundDueCents: 250 });
  });
});

async function outboxOfOrders(type: string) {
  const { rows } = await fx.ordersPool.query<{ envelope: { data: Record<string, unknown> } }>('SELECT envelope FROM outbox WHERE routing_key = $1 ORDER BY created_at, id', [type]);
  return rows.map((r) => r.envelope);
}
