import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuyerProfile, CommandData, LeadOrderLead } from '@warmline/contracts';
import { createLogger, type Identity } from '@warmline/platform';
import { withTransaction } from '@warmline/platform/db/index';
import { ANONYMOUS } from '@warmline/platform/identity';
import { settleLeadPackage } from '../src/domain/lead-package-settlement';
import { sandboxProvider } from '../src/domain/payment-provider';
import { customer, startOrdersFixture, testCard, type OrdersFixture } from './orders-fixture';

/**
 * Orders' side of a RingCloud Aged Leads package the catalog filled (issue 13): what the
 * catalog could not deliver is refunded through the provider (the sandbox), exactly the amount
 * it names, once per order; the buyer gets the receipt listing the leads and the refund e-mail.
 * The command is handled here as the orders.lead-sales consumer would, in a transaction.
 */

let orders: OrdersFixture;
const log = createLogger('test', 'silent');
const profiles = new Map<string, BuyerProfile>();
const users = {
  async buyerProfile(buyer: Identity) {
    const profile = profiles.get(buyer.userId ?? '');
    if (!profile) throw new Error(`no profile for ${buyer.userId}`);
    return profile;
  },
};

beforeAll(async () => {
  orders = await startOrdersFixture();
});

afterAll(async () => {
  await orders?.cleanup();
});

/** A paid 60-90 package ($400.00) of `buyer`; `email` null: the checkout gave no billing address. */
async function paidPackage(buyer: Identity, email: string | null = 'rae@example.com', body: Record<string, unknown> = {}): Promise<string> {
  const created = await orders.call('POST', '/api/create-payment-intent', {
    body: {
      amount: 400,
      packageType: 'RingCloud Aged Leads',
      calls: 100,
      callCount: 1,
      tier: 'ringcloud',
      ageRange: '60-90',
      ...(email ? { billing: { name: 'Rae Cloud', email } } : {}),
      ...body,
    },
    identity: buyer,
  });
  expect(created.status).toBeLessThan(300);
  const paid = await orders.call('POST', '/api/payments/sandbox/confirm', { body: testCard(String(created.body.clientSecret)), identity: buyer });
  expect(paid.status).toBe(200);
  return String(created.body.orderId);
}

function leads(n: number): LeadOrderLead[] {
  return Array.from({ length: n }, () => ({ leadId: randomUUID(), name: 'James SmiXX', state: 'TX', ageRange: '60-90', priceCents: 400 }));
}

async function settle(command: CommandData<'lead_package.settle'>): Promise<void> {
  const ctx = { pool: orders.pool, provider: sandboxProvider(), log };
  await withTransaction(orders.pool, (db) => settleLeadPackage(ctx, { users }, command, { db, log, correlationId: randomUUID() }));
}

async function refundsOf(orderId: string) {
  const { rows } = await orders.pool.query<{ amount_cents: number; initiated_by: string; reason: string }>(
    'SELECT amount_cents, initiated_by, reason FROM refunds WHERE order_id = $1',
    [orderId],
  );
  return rows;
}

async function asked(type: string, orderId: string) {
  return (await orders.outbox(type)).filter((e) => e.data.orderId === orderId).map((e) => e.data);
}

describe('an Aged Leads package settled by the catalog', () => {
  it('when it is paid, then payment.succeeded names its product and age range, so the catalog knows what to fill', async () => {
    const orderId = await paidPackage(customer('rc_facts'));
    expect(await asked('payment.succeeded', orderId)).toEqual([expect.objectContaining({ kind: 'package', tier: 'ringcloud', leadType: 'Aged Leads', ageRange: '60-90', count: 100, unitPriceCents: 400 })]);
    expect(await asked('order.created', orderId)).toEqual([expect.objectContaining({ leadType: 'Aged Leads', ageRange: '60-90' })]);
  });

  it('when 40 of 100 leads were delivered, then $240.00 is refunded once, payment.refunded says so, and the buyer gets the receipt and the refund e-mail', async () => {
    const buyer = customer('rc_partial');
    const orderId = await paidPackage(buyer);
    const delivered = leads(40);
    const command = { orderId, buyerUserId: buyer.userId, delivered, refundDueCents: 24_000, settledAt: new Date().toISOString() };

    await settle(command);
    // The same settlement again (a redelivery that got past the consumer's record): nothing more.
    await settle(command);

    const reason = '60 of the 100 aged leads ordered were not in stock';
    expect(await refundsOf(orderId)).toEqual([{ amount_cents: 24_000, initiated_by: 'system', reason }]);
    const { rows } = await orders.pool.query('SELECT amount_cents, refunded_cents, status FROM package_orders WHERE id = $1', [orderId]);
    expect(rows).toEqual([{ amount_cents: 40_000, refunded_cents: 24_000, status: 'paid' }]);
    const announced = await asked('payment.refunded', orderId);
    expect(announced).toEqual([expect.objectContaining({ amountCents: 24_000, refundedTotalCents: 24_000, initiatedBy: 'system' })]);
    // The reason is free text: it stays in orders' refunds table, off the events exchange (issue 25).
    expect(announced[0]).not.toHaveProperty('reason');
    const receipt = await asked('email.leads_receipt', orderId);
    // A RingCloud pack: the receipt is sent in RingCloud's name (issue 17 item 7).
    expect(receipt[0]).toEqual({ to: 'rae@example.com', name: 'Rae Cloud', orderId, paidCents: 40_000, paidAt: expect.any(String), delivered, undelivered: [], refundedCents: 0, brand: 'RingCloud',
      // Issue 22: how many of how many, from where (no states named: every state), and what goes back.
      leadPackage: { ordered: 100, states: null, refundDueCents: 24_000 } });
    expect((await asked('email.refund_issued', orderId))[0]).toMatchObject({
      to: 'rae@example.com',
      amountCents: 24_000,
      refundedTotalCents: 24_000,
      orderAmountCents: 40_000,
      description: 'RingCloud Aged Leads (60-90 days): 100 leads × $4.00',
      reason,
    });
  });

  it('when every lead was delivered, then nothing is refunded and only the receipt is sent', async () => {
    const buyer = customer('rc_full');
    const orderId = await paidPackage(buyer);
    await settle({ orderId, buyerUserId: buyer.userId, delivered: leads(100), refundDueCents: 0, settledAt: new Date().toISOString() });

    expect(await refundsOf(orderId)).toEqual([]);
    expect(await asked('email.leads_receipt', orderId)).toHaveLength(1);
    expect(await asked('email.refund_issued', orderId)).toEqual([]);
  });

  it('when the checkout gave no billing address, then the e-mails go to the account', async () => {
    const buyer = customer('rc_account');
    profiles.set(buyer.userId!, { id: buyer.userId!, username: buyer.username!, firstName: 'Rae', lastName: 'Cloud', email: 'rae.account@example.com', phone: '', liveTransferPrice: '35.00' });
    const orderId = await paidPackage(buyer, null);
    await settle({ orderId, buyerUserId: buyer.userId, delivered: leads(99), refundDueCents: 400, settledAt: new Date().toISOString() });

    expect(await refundsOf(orderId)).toEqual([expect.objectContaining({ amount_cents: 400, reason: '1 of the 100 aged leads ordered was not in stock' })]);
    expect((await asked('email.leads_receipt', orderId)).map((e) => [e.to, e.name])).toEqual([['rae.account@example.com', 'Rae']]);
    expect((await asked('email.refund_issued', orderId)).map((e) => e.to)).toEqual(['rae.account@example.com']);
  });

  it('when the order has no account, then all of it is refunded and the billing address is told why; no receipt', async () => {
    const orderId = await paidPackage(ANONYMOUS, 'visitor@example.com');
    await settle({ orderId, buyerUserId: null, delivered: [], refundDueCents: 40_000, settledAt: new Date().toISOString() });

    expect(await refundsOf(orderId)).toEqual([expect.objectContaining({ amount_cents: 40_000, initiated_by: 'system' })]);
    expect(await asked('email.refund_issued', orderId)).toEqual([expect.objectContaining({ to: 'visitor@example.com', amountCents: 40_000, refundedTotalCents: 40_000 })]);
    expect(await asked('email.leads_receipt', orderId)).toEqual([]);
  });

  it('when the refund due is more than is left, then only what is left goes back', async () => {
    const buyer = customer('rc_cap');
    const orderId = await paidPackage(buyer);
    await settle({ orderId, buyerUserId: buyer.userId, delivered: [], refundDueCents: 90_000, settledAt: new Date().toISOString() });

    expect((await refundsOf(orderId)).map((r) => r.amount_cents)).toEqual([40_000]);
  });

  it('when the settlement names another buyer or an order that is no Aged Leads package, then nothing is refunded or sent', async () => {
    const buyer = customer('rc_owner');
    const orderId = await paidPackage(buyer);
    const callBacks = await paidPackage(buyer, 'rae@example.com', { amount: 150, packageType: 'RingCloud Call-Backs', calls: 10, ageRange: undefined });

    await settle({ orderId, buyerUserId: randomUUID(), delivered: [], refundDueCents: 40_000, settledAt: new Date().toISOString() });
    await settle({ orderId: callBacks, buyerUserId: buyer.userId, delivered: [], refundDueCents: 15_000, settledAt: new Date().toISOString() });
    await settle({ orderId: randomUUID(), buyerUserId: buyer.userId, delivered: [], refundDueCents: 100, settledAt: new Date().toISOString() });

    expect(await refundsOf(orderId)).toEqual([]);
    expect(await refundsOf(callBacks)).toEqual([]);
    expect(await asked('email.leads_receipt', orderId)).toEqual([]);
  });
});
