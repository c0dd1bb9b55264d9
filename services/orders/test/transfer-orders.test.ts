import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@warmline/platform/testing/index';
import type { TransferOrdersResponse } from '@warmline/contracts';
import type { Browser } from '../../gateway/test/gateway-fixture';
import { testCard } from './orders-fixture';
import { startTransferSystem, XHR, type Agent, type TransferSystem } from './transfer-system';

/**
 * Live transfer orders as the browser makes them: through the gateway, priced by the orders
 * service at the agent's own per-transfer price (read from the gateway), paid with the
 * sandbox card form, announced to the agent and operations by the notifications worker.
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

async function setPrice(agent: Agent, price: string): Promise<void> {
  const answer = await admin.patch(`/api/users/${agent.id}/live-transfer-price`, { price }, XHR);
  expect(answer.status).toBe(200);
}

async function loggedIn(agent: Agent): Promise<Browser> {
  const browser = system.browser();
  await browser.login(agent.username, agent.password);
  return browser;
}

/** The order form as the dashboard sends it. */
function orderForm(overrides: Record<string, unknown> = {}) {
  return {
    totalTransfers: 20,
    callsPerDay: 5,
    transferHours: '9am-5pm CST',
    transferPhone: '(405) 555-0199',
    workingStates: ['TX', 'OK'],
    leadType: 'Live Transfers',
    ...overrides,
  };
}

async function transferRow(id: string) {
  const { rows } = await system.ordersPool.query('SELECT * FROM transfer_orders WHERE id = $1', [id]);
  return rows[0] as Record<string, unknown> | undefined;
}

async function countTransferOrders(): Promise<number> {
  const { rows } = await system.ordersPool.query<{ n: number }>('SELECT count(*)::int AS n FROM transfer_orders');
  return rows[0]!.n;
}

describe('ordering live transfers', () => {
  it('when the form is empty, then every field says the spec message and nothing is stored', async () => {
    const browser = await loggedIn(await system.createAgent());
    const before = await countTransferOrders();

    const answer = await browser.post('/api/call-transfer-order', {}, XHR);

    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('Must be at least 1 transfer');
    expect(answer.json.issues).toEqual([
      { path: 'totalTransfers', message: 'Must be at least 1 transfer' },
      { path: 'callsPerDay', message: 'Must be at least 1 call per day' },
      { path: 'transferHours', message: 'Please specify transfer hours' },
      { path: 'transferPhone', message: 'Phone number must be at least 10 digits' },
      { path: 'workingStates', message: 'Please specify working states' },
    ]);
    expect(await countTransferOrders()).toBe(before);
  });

  it('when counts are zero, the phone short and the states empty, then each is refused with its message', async () => {
    const browser = await loggedIn(await system.createAgent());

    const answer = await browser.post(
      '/api/call-transfer-order',
      orderForm({ totalTransfers: 0, callsPerDay: '0', transferHours: '   ', transferPhone: '555-0199', workingStates: ' , ' }),
      XHR,
    );

    expect(answer.status).toBe(400);
    expect((answer.json.issues as Array<{ message: string }>).map((i) => i.message)).toEqual([
      'Must be at least 1 transfer',
      'Must be at least 1 call per day',
      'Please specify transfer hours',
      'Phone number must be at least 10 digits',
      'Please specify working states',
    ]);
  });

  it("when the count is '2.5' or 99999, then it is refused with a message (never rounded) and nothing is stored", async () => {
    const browser = await loggedIn(await system.createAgent());
    const before = await countTransferOrders();

    const fractional = await browser.post('/api/call-transfer-order', orderForm({ totalTransfers: '2.5', callsPerDay: 1 }), XHR);
    const tooMany = await browser.post('/api/call-transfer-order', orderForm({ totalTransfers: 99999 }), XHR);
    const fractionalPerDay = await browser.post('/api/call-transfer-order', orderForm({ callsPerDay: 2.5 }), XHR);

    expect([fractional.status, tooMany.status, fractionalPerDay.status]).toEqual([400, 400, 400]);
    expect(fractional.json.error).toBe('Must be a whole number of transfers');
    expect(tooMany.json.error).toBe('Must be at most 10,000 transfers');
    expect(fractionalPerDay.json.error).toBe('Must be a whole number of calls per day');
    expect(await countTransferOrders()).toBe(before);
  });

  it('when the calls per day are more than the total transfers, then the order is refused on callsPerDay and nothing is stored', async () => {
    const browser = await loggedIn(await system.createAgent());
    const before = await countTransferOrders();

    const answer = await browser.post('/api/call-transfer-order', orderForm({ totalTransfers: 10, callsPerDay: 50 }), XHR);

    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('Transfers per day (50) cannot be more than the total transfers (10)');
    expect(answer.json.issues).toEqual([{ path: 'callsPerDay', message: 'Transfers per day (50) cannot be more than the total transfers (10)' }]);
    expect(await countTransferOrders()).toBe(before);

    // Named in the same answer as the other fields' mistakes.
    const alsoWrong = await browser.post('/api/call-transfer-order', orderForm({ totalTransfers: 10, callsPerDay: 50, transferHours: '', workingStates: [] }), XHR);
    expect(alsoWrong.status).toBe(400);
    expect(alsoWrong.json.issues).toEqual([
      { path: 'transferHours', message: 'Please specify transfer hours' },
      { path: 'workingStates', message: 'Please specify working states' },
      { path: 'callsPerDay', message: 'Transfers per day (50) cannot be more than the total transfers (10)' },
    ]);

    // As many per day as in all is one day's order, and is taken.
    const oneDay = await browser.post('/api/call-transfer-order', orderForm({ totalTransfers: 10, callsPerDay: 10 }), XHR);
    expect(oneDay.status).toBe(201);
  });

  it('when a working state is not a US state, then the order is refused naming it', async () => {
    const browser = await loggedIn(await system.createAgent());

    const answer = await browser.post('/api/call-transfer-order', orderForm({ workingStates: ['TX', 'XY'] }), XHR);

    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe("'XY' is not a US state — use 2-letter codes like TX, FL");
  });

  it('when the states come as comma-separated text, then they are stored as a list of codes', async () => {
    const browser = await loggedIn(await system.createAgent());

    const answer = await browser.post('/api/call-transfer-order', orderForm({ workingStates: 'tx, Oklahoma, TX', price: undefined }), XHR);

    expect(answer.status).toBe(201);
    expect((await transferRow(String(answer.json.orderId)))?.selected_states).toEqual(['TX', 'OK']);
  });

  it('when nobody is logged in, then ordering answers 401', async () => {
    const answer = await system.browser().post('/api/call-transfer-order', orderForm(), XHR);

    expect(answer.status).toBe(401);
  });

  it("when an admin set the agent's price to $31.50, then 20 transfers cost $630.00 and any other browser price is refused", async () => {
    const agent = await system.createAgent({ firstName: 'Tess', lastName: 'Rancher', phone: '(512) 555-0142' });
    await setPrice(agent, '31.50');
    const browser = await loggedIn(agent);

    const wrong = await browser.post('/api/call-transfer-order', orderForm({ price: 700 }), XHR);
    const atDefault = await browser.post('/api/call-transfer-order', orderForm({ price: '700.00' }), XHR);
    const right = await browser.post('/api/call-transfer-order', orderForm({ price: '630.00' }), XHR);

    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toBe('Price does not match your per-transfer price: expected $630.00 (20 × $31.50)');
    expect(atDefault.status).toBe(400);
    expect(right.status).toBe(201);
    expect(right.json).toMatchObject({ totalPrice: '630.00', totalPriceCents: 63000, unitPrice: '31.50', totalTransfers: 20, paymentProvider: 'sandbox' });
    expect(String(right.json.clientSecret)).toMatch(/^pi_sandbox_\w+_secret_\w+$/);
    expect(await transferRow(right.json.orderId)).toMatchObject({
      user_id: agent.id,
      first_name: 'Tess',
      last_name: 'Rancher',
      email: agent.email,
      phone: '(512) 555-0142',
      transfer_number: '(405) 555-0199',
      total_transfers: 20,
      transfers_per_day: 5,
      transfer_hours: '9am-5pm CST',
      selected_states: ['TX', 'OK'],
      unit_price: '31.50',
      total_price: '630.00',
      status: 'pending',
      lead_type: 'Live Transfers',
      paid_at: null,
    });
    const created = (await system.ordersOutbox('order.created')).filter((e) => e.data.orderId === right.json.orderId);
    expect(created.map((e) => e.data)).toEqual([
      expect.objectContaining({ kind: 'transfer', tier: 'live-transfers', count: 20, unitPriceCents: 3150, amountCents: 63000, buyerUserId: agent.id }),
    ]);
  });

  it("when the admin changes the price again, then the agent's very next order is priced at the new price", async () => {
    const agent = await system.createAgent();
    const browser = await loggedIn(agent);
    const atDefault = await browser.post('/api/call-transfer-order', orderForm({ totalTransfers: 10, price: 350 }), XHR);
    await setPrice(agent, '40.00');

    const stale = await browser.post('/api/call-transfer-order', orderForm({ totalTransfers: 10, price: 350 }), XHR);
    const fresh = await browser.post('/api/call-transfer-order', orderForm({ totalTransfers: 10, price: 400 }), XHR);

    expect(atDefault.status).toBe(201);
    expect(atDefault.json.totalPrice).toBe('350.00');
    expect(stale.status).toBe(400);
    expect(stale.json.error).toBe('Price does not match your per-transfer price: expected $400.00 (10 × $40.00)');
    expect(fresh.status).toBe(201);
    expect(fresh.json.totalPrice).toBe('400.00');
  });

  it('when the agent’s price is $0.00, then the order is refused with a clear message instead of an unpayable total', async () => {
    const agent = await system.createAgent();
    await setPrice(agent, '0');
    const browser = await loggedIn(agent);
    const before = await countTransferOrders();

    const answer = await browser.post('/api/call-transfer-order', orderForm(), XHR);

    expect(answer.status).toBe(400);
    expect(answer.json.error).toContain('a card payment must be at least $0.50');
    expect(await countTransferOrders()).toBe(before);
  });
});

describe('paying for live transfers', () => {
  it('when the card is declined and then paid twice, then the order becomes paid exactly once and operations and the agent are told once', async () => {
    const agent = await system.createAgent({ firstName: 'Olive', lastName: 'Okafor' });
    await setPrice(agent, '31.50');
    const browser = await loggedIn(agent);
    const order = await browser.post('/api/call-transfer-order', orderForm({ price: 630 }), XHR);
    const orderId = String(order.json.orderId);
    const secret = String(order.json.clientSecret);

    const declined = await browser.post('/api/payments/sandbox/confirm', testCard(secret, { cardNumber: '4000 0000 0000 0002' }), XHR);
    const pendingAfterDecline = (await transferRow(orderId))?.status;
    const paid = await browser.post('/api/payments/sandbox/confirm', testCard(secret), XHR);
    const again = await browser.post('/api/payments/sandbox/confirm', testCard(secret), XHR);

    expect(declined.status).toBe(402);
    expect(pendingAfterDecline).toBe('pending');
    expect(paid.status).toBe(200);
    expect(again.status).toBe(200);
    const row = await transferRow(orderId);
    expect(row?.status).toBe('paid');
    expect(row?.paid_at).toBeInstanceOf(Date);
    expect((await system.ordersOutbox('payment.succeeded')).filter((e) => e.data.orderId === orderId)).toHaveLength(1);
    // The event says what was bought; the agent's contact, transfer phone and the hours they typed
    // (free text, issue 25) travel only in the e-mail command, written in the same transaction.
    const announced = (await system.ordersOutbox('transfer_order.paid')).filter((e) => e.data.orderId === orderId);
    const facts = {
      orderId,
      buyerUserId: agent.id,
      totalTransfers: 20,
      transfersPerDay: 5,
      selectedStates: ['TX', 'OK'],
      unitPriceCents: 3150,
      amountCents: 63000,
      currency: 'usd',
      paidAt: expect.any(String),
    };
    expect(announced.map((e) => e.data)).toEqual([facts]);
    const asked = (await system.ordersOutbox('email.transfer_order_paid')).filter((e) => e.data.orderId === orderId);
    expect(asked.map((e) => e.data)).toEqual([
      {
        ...facts,
        transferHours: '9am-5pm CST',
        agent: { firstName: 'Olive', lastName: 'Okafor', email: agent.email, phone: expect.any(String) },
        transferNumber: '(405) 555-0199',
      },
    ]);
    expect(asked[0]!.data.paidAt).toBe(announced[0]!.data.paidAt);
    // No receipt command on top of the confirmation.
    expect((await system.ordersOutbox('email.order_paid')).filter((e) => e.data.orderId === orderId)).toEqual([]);

    const [notice] = await waitFor('the operations notice', async () => {
      const found = (await system.mailTo(system.operationsEmail)).filter((m) => m.includes(orderId));
      return found.length > 0 ? found : undefined;
    });
    expect(notice).toContain('States: Texas (TX), Oklahoma (OK)');
    expect(notice).toContain('Transfer hours: 9am-5pm CST');
    expect(notice).toContain('Transfer phone: (405) 555-0199');
    expect(notice).toContain('Transfers per day: 5');
    expect(notice).toContain('Total paid: $630.00 (USD)');
    expect(notice).toContain('Agent: Olive Okafor');
    const [confirmation] = await waitFor('the agent confirmation', async () => {
      const found = await system.mailTo(agent.email);
      return found.length > 0 ? found : undefined;
    });
    expect(confirmation).toMatch(/^Subject: Your live transfers are confirmed: 20 transfers, \$630\.00$/m);
    expect(confirmation).toContain('Hi Olive,');
    expect(confirmation).toContain('Live transfers: 20 transfers × $31.50');
    expect(confirmation).toContain('States: Texas (TX), Oklahoma (OK)');
    // The agent has been sent only the confirmation (no generic receipt on top of it), and operations one notice.
    const { rows: toAgent } = await system.ordersPool.query(
      "SELECT envelope->'data'->>'template' AS template FROM notifications.outbox WHERE routing_key = 'email.send' AND envelope->'data'->>'to' = $1",
      [agent.email],
    );
    expect(toAgent).toEqual([{ template: 'transfer-order-confirmation' }]);
    expect((await system.mailTo(system.operationsEmail)).filter((m) => m.includes(orderId))).toHaveLength(1);
  });
});

describe('the admin list of transfer orders', () => {
  it('when a visitor or an agent asks, then it is refused; when an admin asks, then every order and the four figures come back', async () => {
    const agent = await system.createAgent({ firstName: 'Lena', lastName: 'Lister' });
    await setPrice(agent, '25.00');
    const agentBrowser = await loggedIn(agent);
    const before = (await admin.get('/api/transfer-orders')).json as TransferOrdersResponse;
    const paidOrder = await agentBrowser.post('/api/call-transfer-order', orderForm({ totalTransfers: 4, callsPerDay: 2, price: 100, workingStates: ['FL', 'GA', 'AL'] }), XHR);
    await agentBrowser.post('/api/call-transfer-order', orderForm({ totalTransfers: 6, price: 150 }), XHR);
    await agentBrowser.post('/api/payments/sandbox/confirm', testCard(String(paidOrder.json.clientSecret)), XHR);

    const visitor = await system.browser().get('/api/transfer-orders');
    const asAgent = await agentBrowser.get('/api/transfer-orders');
    const asAdmin = await admin.get('/api/transfer-orders');

    expect(visitor.status).toBe(401);
    expect(asAgent.status).toBe(403);
    expect(asAdmin.status).toBe(200);
    const after = asAdmin.json as TransferOrdersResponse;
    expect(after.stats.totalOrders - before.stats.totalOrders).toBe(2);
    expect(after.stats.pendingOrders - before.stats.pendingOrders).toBe(1);
    expect(Number(after.stats.totalRevenue) - Number(before.stats.totalRevenue)).toBeCloseTo(100, 2);
    expect(after.stats.totalTransfers - before.stats.totalTransfers).toBe(10);
    // The figures are those of the list itself.
    expect(after.stats.totalOrders).toBe(after.orders.length);
    expect(after.stats.pendingOrders).toBe(after.orders.filter((o) => o.status === 'pending').length);
    expect(after.stats.totalTransfers).toBe(after.orders.reduce((n, o) => n + o.totalTransfers, 0));
    const revenueCents = after.orders.filter((o) => o.status === 'paid').reduce((n, o) => n + Math.round(Number(o.totalPrice) * 100), 0);
    expect(Math.round(Number(after.stats.totalRevenue) * 100)).toBe(revenueCents);
    expect(after.stats.totalRevenue).toMatch(/^\d+\.\d{2}$/);

    const listed = after.orders.find((o) => o.id === paidOrder.json.orderId);
    expect(listed).toMatchObject({
      firstName: 'Lena',
      lastName: 'Lister',
      transferNumber: '(405) 555-0199',
      phone: agent.phone,
      email: agent.email,
      totalTransfers: 4,
      transfersPerDay: 2,
      selectedStates: ['FL', 'GA', 'AL'],
      totalPrice: '100.00',
      unitPrice: '25.00',
      status: 'paid',
      leadType: 'Live Transfers',
    });
    expect(new Date(listed!.createdAt).getTime()).not.toBeNaN();
    // Newest first.
    const times = after.orders.map((o) => Date.parse(o.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });
});
