import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@warmline/platform';
import { waitFor } from '@warmline/platform/testing/index';
import type { Browser } from '../../gateway/test/gateway-fixture';
import { sandboxProvider } from '../src/domain/payment-provider';
import { cancelStaleTransferOrders } from '../src/domain/transfer-status';
import { testCard } from './orders-fixture';
import { startTransferSystem, XHR, type Agent, type TransferSystem } from './transfer-system';

/**
 * The back office's order moves (issue 12), through the real gateway, orders and notifications:
 * transfer order status moves (a paid one cancelled is refunded), admin refunds whole or in part,
 * the 24-hour cancellation of unpaid transfer orders, each e-mailed and in the audit log.
 */

let system: TransferSystem;
let admin: Browser;

beforeAll(async () => {
  system = await startTransferSystem();
  admin = await system.adminBrowser();
});

afterAll(async () => {
  await system?.cleanup();
});

async function transferOrder(agent: Agent, pay: boolean): Promise<string> {
  const browser = system.browser();
  await browser.login(agent.username, agent.password);
  const order = await browser.post(
    '/api/call-transfer-order',
    { totalTransfers: 10, callsPerDay: 5, transferHours: '9am-5pm CST', transferPhone: '(405) 555-0199', workingStates: ['TX'], leadType: 'Live Transfers', price: 350 },
    XHR,
  );
  expect(order.status).toBe(201);
  if (pay) expect((await browser.post('/api/payments/sandbox/confirm', testCard(String(order.json.clientSecret)), XHR)).status).toBe(200);
  return String(order.json.orderId);
}

const move = (id: string, body: unknown) => admin.patch(`/api/transfer-orders/${id}/status`, body, XHR);

async function auditActions(subjectId: string): Promise<string[]> {
  const answer = await admin.get('/api/admin/audit-log');
  return (answer.json.entries as Array<{ subjectId: string; action: string }>).filter((e) => e.subjectId === subjectId).map((e) => e.action);
}

describe('moving transfer orders', () => {
  it('when an admin completes a paid order, then the agent is told, the audit log says who, and it can no longer be cancelled', async () => {
    const agent = await system.createAgent({ firstName: 'Cora' });
    const id = await transferOrder(agent, true);
    const done = await move(id, { status: 'completed' });
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({ id, status: 'completed' });

    const refused = await move(id, { status: 'cancelled', reason: 'changed mind' });
    expect(refused.status).toBe(409);
    expect(refused.json.error).toBe('A completed order cannot be cancelled');

    await waitFor('the agent e-mail', async () => (await system.mailTo(agent.email)).some((m) => m.includes('live transfers are complete')));
    // Reported by orders with audit.record, stored by the gateway: one list.
    expect(await waitFor('the audit entry', async () => {
      const actions = await auditActions(id);
      return actions.length > 0 && actions;
    })).toEqual(['transfer_order.status_changed']);
  });

  it("when an admin completes an order with a note, then the agent's e-mail quotes it and the audit log keeps it as the reason; a blank note is none", async () => {
    const agent = await system.createAgent({ firstName: 'Nell' });
    const id = await transferOrder(agent, true);
    const tooLong = await move(id, { status: 'completed', note: 'x'.repeat(501) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.error).toBe('Note must be at most 500 characters');

    expect((await move(id, { status: 'completed', note: '  Thanks for a great month!  ' })).status).toBe(200);

    const mail = await waitFor('the agent e-mail', async () => (await system.mailTo(agent.email)).find((m) => m.includes('live transfers are complete')));
    expect(mail).toContain('A note from the WarmLine team:');
    expect(mail).toContain('Thanks for a great month!');
    const entry = await waitFor('the audit entry', async () => {
      const answer = await admin.get('/api/admin/audit-log');
      return (answer.json.entries as Array<{ subjectId: string; reason: string | null }>).find((e) => e.subjectId === id);
    });
    expect(entry.reason).toBe('Note to the agent: Thanks for a great month!');

    const other = await transferOrder(await system.createAgent(), true);
    expect((await move(other, { status: 'completed', note: '   ' })).status).toBe(200);
    const plain = await waitFor('the audit entry', async () => {
      const answer = await admin.get('/api/admin/audit-log');
      return (answer.json.entries as Array<{ subjectId: string; reason: string | null }>).find((e) => e.subjectId === other);
    });
    expect(plain.reason).toBeNull();
  });

  it('when an admin cancels a paid order, then a reason is required, the payment is refunded once and the agent is told when the money returns', async () => {
    const agent = await system.createAgent({ firstName: 'Rhea' });
    const id = await transferOrder(agent, true);
    const noReason = await move(id, { status: 'cancelled' });
    expect(noReason.status).toBe(400);
    expect(noReason.json.error).toMatch(/A reason is required to cancel a paid order/);

    const [first, second] = await Promise.all([move(id, { status: 'cancelled', reason: 'Agent asked' }), move(id, { status: 'cancelled', reason: 'Agent asked' })]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);

    const { rows } = await system.ordersPool.query<{ refunded_cents: number; refunds: number }>(
      'SELECT refunded_cents, (SELECT count(*)::int FROM refunds WHERE order_id = $1) AS refunds FROM package_orders WHERE id = $1',
      [id],
    );
    expect(rows[0]).toEqual({ refunded_cents: 35_000, refunds: 1 });
    const refunded = (await system.ordersOutbox('payment.refunded')).filter((e) => e.data.orderId === id);
    expect(refunded.map((e) => e.data)).toEqual([expect.objectContaining({ amountCents: 35_000, refundedTotalCents: 35_000, initiatedBy: 'admin' })]);
    const mail = await waitFor('the cancellation e-mail', async () => (await system.mailTo(agent.email)).find((m) => m.includes('was cancelled')));
    expect(mail).toContain('Reason: Agent asked');
    expect(mail).toContain('We have refunded $350.00');
    expect(mail).toContain('5–10 business days');
  });

  it('when a pending order is cancelled, then nothing is refunded; an unpaid order cannot be completed', async () => {
    const agent = await system.createAgent();
    const id = await transferOrder(agent, false);
    const early = await move(id, { status: 'completed' });
    expect(early.status).toBe(409);
    expect(early.json.error).toBe('An unpaid order cannot be completed');
    expect((await move(id, { status: 'cancelled' })).status).toBe(200);
    const { rows } = await system.ordersPool.query<{ n: number }>('SELECT count(*)::int AS n FROM refunds WHERE order_id = $1', [id]);
    expect(rows[0]!.n).toBe(0);
  });

  it('when the body or the id is wrong, or a customer asks, then the answer says so and nothing moves', async () => {
    const agent = await system.createAgent();
    const id = await transferOrder(agent, true);
    expect((await move(id, { status: 'paid' })).json.error).toBe("Status must be 'completed' or 'cancelled'");
    expect((await move(randomUUID(), { status: 'completed' })).status).toBe(404);
    expect((await move('not-an-id', { status: 'completed' })).status).toBe(404);
    const customer = system.browser();
    await customer.login(agent.username, agent.password);
    expect((await customer.patch(`/api/transfer-orders/${id}/status`, { status: 'completed' }, XHR)).status).toBe(403);
    const { rows } = await system.ordersPool.query<{ status: string }>('SELECT status FROM transfer_orders WHERE id = $1', [id]);
    expect(rows[0]!.status).toBe('paid');
  });

  it('when a buyer pays a transfer order after it was cancelled, then the payment is refunded at once and it counts as no revenue', async () => {
    const before = (await admin.get('/api/admin/stats')).json.revenueThisMonthCents as number;
    const agent = await system.createAgent();
    const browser = system.browser();
    await browser.login(agent.username, agent.password);
    const order = await browser.post(
      '/api/call-transfer-order',
      { totalTransfers: 10, callsPerDay: 5, transferHours: '9am-5pm CST', transferPhone: '(405) 555-0199', workingStates: ['TX'], leadType: 'Live Transfers', price: 350 },
      XHR,
    );
    const id = String(order.json.orderId);
    expect((await move(id, { status: 'cancelled' })).status).toBe(200);
    expect((await browser.post('/api/payments/sandbox/confirm', testCard(String(order.json.clientSecret)), XHR)).status).toBe(200);

    const { rows } = await system.ordersPool.query<{ refunded_cents: number; initiated_by: string }>(
      'SELECT o.refunded_cents, r.initiated_by FROM package_orders o JOIN refunds r ON r.order_id = o.id WHERE o.id = $1',
      [id],
    );
    expect(rows).toEqual([{ refunded_cents: 35_000, initiated_by: 'system' }]);
    expect((await admin.get('/api/admin/stats')).json.revenueThisMonthCents).toBe(before);
  });

  it('when an unpaid order is 24 hours old, then the sweeper cancels it; a younger one stays', async () => {
    const agent = await system.createAgent();
    const old = await transferOrder(agent, false);
    const young = await transferOrder(agent, false);
    await system.ordersPool.query(`UPDATE transfer_orders SET created_at = now() - interval '25 hours' WHERE id = $1`, [old]);
    const cancelled = await cancelStaleTransferOrders({ pool: system.ordersPool, provider: sandboxProvider(), log: createLogger('test', 'silent') });
    expect(cancelled).toContain(old);
    expect(cancelled).not.toContain(young);
  });
});

describe('refunds by an admin', () => {
  async function paidPackage(email: string): Promise<string> {
    const buyer = system.browser();
    const created = await buyer.post('/api/create-payment-intent', { amount: 2220, callCount: 60, tier: 'premium' }, XHR);
    await buyer.post('/api/payments/sandbox/confirm', testCard(String(created.json.clientSecret), { billing: { name: 'Rita Refund', email } }), XHR);
    return String(created.json.orderId);
  }
  const refund = (id: string, body: unknown, key = randomUUID()) => admin.post(`/api/admin/orders/${id}/refund`, body, { headers: { ...XHR.headers, 'idempotency-key': key } });

  it('when an admin refunds part and then the rest, then each is recorded once, never more than was paid, and the buyer is e-mailed', async () => {
    const email = `rita_${randomUUID().slice(0, 6)}@example.com`;
    const id = await paidPackage(email);
    const key = randomUUID();
    const part = await refund(id, { amountCents: 20_000, reason: 'Goodwill' }, key);
    expect(part.status).toBe(201);
    expect(part.json).toEqual({ orderId: id, refundedCents: 20_000, refundedTotalCents: 20_000 });
    // The same request again (a double click, a retry): refunded once.
    expect((await refund(id, { amountCents: 20_000, reason: 'Goodwill' }, key)).status).toBe(200);

    const tooMuch = await refund(id, { amountCents: 300_000, reason: 'Oops' });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.json.error).toBe('At most $2,020.00 is left to refund on this order');

    const rest = await refund(id, { reason: 'Cancelled the package' });
    expect(rest.json).toMatchObject({ refundedCents: 202_000, refundedTotalCents: 222_000 });
    expect((await refund(id, { reason: 'again' })).json.error).toBe('This order has already been refunded in full');

    const mails = await waitFor('two refund e-mails', async () => {
      const found = (await system.mailTo(email)).filter((m) => m.includes('refunded'));
      return found.length >= 2 && found;
    });
    expect(mails.some((m) => m.includes('We have refunded $200.00'))).toBe(true);
    expect(await waitFor('the audit entries', async () => {
      const actions = await auditActions(id);
      return actions.length >= 2 && actions;
    })).toEqual(['order.refunded', 'order.refunded']);
  });

  it('when the key of a refund on one order is sent for another order, then it is refused (409) and the other order is not touched', async () => {
    const first = await paidPackage(`k1_${randomUUID().slice(0, 6)}@example.com`);
    const second = await paidPackage(`k2_${randomUUID().slice(0, 6)}@example.com`);
    const key = randomUUID();
    expect((await refund(first, { amountCents: 10_000, reason: 'Goodwill' }, key)).status).toBe(201);

    const reused = await refund(second, { amountCents: 10_000, reason: 'Goodwill' }, key);
    expect(reused.status).toBe(409);
    expect(reused.json.error).toBe('This idempotency key was already used for another order');
    // The first order's replay still answers as before.
    expect((await refund(first, { amountCents: 10_000, reason: 'Goodwill' }, key)).json).toEqual({ orderId: first, refundedCents: 10_000, refundedTotalCents: 10_000 });
    const fresh = await refund(second, { amountCents: 10_000, reason: 'Goodwill' });
    expect(fresh.json).toEqual({ orderId: second, refundedCents: 10_000, refundedTotalCents: 10_000 });
  });

  it('when one key is sent for two orders at the same moment, then one refunds and the other is 409, never a 500', async () => {
    const [first, second] = await Promise.all([paidPackage(`r1_${randomUUID().slice(0, 6)}@example.com`), paidPackage(`r2_${randomUUID().slice(0, 6)}@example.com`)]);
    const key = randomUUID();
    const answers = await Promise.all([refund(first, { amountCents: 5_000, reason: 'Goodwill' }, key), refund(second, { amountCents: 5_000, reason: 'Goodwill' }, key)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
  });

  it('when the refund has no reason, an odd amount or the order is unpaid, then it is refused saying why', async () => {
    const id = await paidPackage(`x_${randomUUID().slice(0, 6)}@example.com`);
    expect((await refund(id, { amountCents: 100 })).json.error).toBe('A reason is required');
    expect((await refund(id, { amountCents: 10.5, reason: 'x' })).json.error).toBe('Amount must be a whole number of cents');
    expect((await refund(id, { amountCents: 0, reason: 'x' })).json.error).toBe('Amount must be more than $0.00');
    const unpaid = await system.browser().post('/api/create-payment-intent', { amount: 2220, callCount: 60, tier: 'premium' }, XHR);
    const answer = await refund(String(unpaid.json.orderId), { reason: 'x' });
    expect(answer.status).toBe(409);
    expect(answer.json.error).toBe('Only a paid order can be refunded');
  });
});
