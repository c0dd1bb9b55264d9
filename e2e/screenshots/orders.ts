/**
 * Screenshots of the order screens of issue 12 — Transfer Orders with its actions and Cancel
 * dialog, All Orders with the revenue chart and the Refund dialog, and the agent's My Orders with
 * a receipt — at 390 px and 1280 px wide, for looking at them. Not a test; run it with
 * `make screenshots NAME=orders`.
 */
import { request as playwrightRequest } from 'playwright-core';
import { openPage, startShots, WIDTHS } from './kit';
const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const card = (clientSecret: string) => ({
  clientSecret,
  cardNumber: '4242 4242 4242 4242',
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 2,
  cvc: '123',
  billing: { name: 'Carla Customer', email: 'carla.customer@example.com' },
});

const run = await startShots('orders');
const { system } = run;

// The agent buys a package and two transfer orders (one paid, one left pending); the admin refunds part of the package.
const agent = await playwrightRequest.newContext({ baseURL: system.url });
const admin = await playwrightRequest.newContext({ baseURL: system.url });
try {
  await agent.post('/api/login', { data: { username: system.customer.username, password: system.customer.password } });
  const pkg = (await (await agent.post('/api/create-payment-intent', { headers: XHR, data: { amount: 2220, callCount: 60, tier: 'premium' } })).json()) as {
    orderId: string;
    clientSecret: string;
  };
  await agent.post('/api/payments/sandbox/confirm', { headers: XHR, data: card(pkg.clientSecret) });
  for (const [states, pay] of [[['TX', 'OK', 'FL', 'GA', 'AL'], true], [['TX'], false]] as const) {
    const order = await agent.post('/api/call-transfer-order', {
      headers: XHR,
      data: { totalTransfers: 20, callsPerDay: 5, transferHours: '9am-5pm CST', transferPhone: '(405) 555-0199', workingStates: states, leadType: 'Live Transfers', price: 700 },
    });
    const { clientSecret } = (await order.json()) as { clientSecret: string };
    if (pay) await agent.post('/api/payments/sandbox/confirm', { headers: XHR, data: card(clientSecret) });
  }
  await admin.post('/api/login', { data: { username: system.admin.username, password: system.admin.password } });
  const refund = await admin.post(`/api/admin/orders/${pkg.orderId}/refund`, { headers: XHR, data: { amountCents: 5000, reason: 'Goodwill' } });
  if (!refund.ok()) console.warn(`the refund answered ${refund.status()}: ${await refund.text()}`);
} finally {
  await agent.dispose();
  await admin.dispose();
}

try {
  for (const width of WIDTHS) {
    const { context, page, shot } = await openPage(run, width, { as: system.admin, landing: '/admin' });

    await page.goto('/admin-orders');
    await page.getByRole('heading', { name: 'Transfer Orders', level: 1 }).waitFor();
    await page.locator('tr[data-order-id]').first().waitFor();
    await shot('transfer-orders');
    // The paid order's Cancel, submitted without a reason: the dialog says one is required (nothing is sent).
    const paidRow = page.locator('tr[data-order-id]', { has: page.getByRole('button', { name: /Mark completed/i }) });
    await paidRow.getByRole('button', { name: /^Cancel order/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel and Refund' }).click();
    await page.getByText(/A reason is required/).waitFor();
    await shot('cancel-dialog', false);
    await page.keyboard.press('Escape');

    await page.goto('/admin-all-orders');
    await page.getByRole('heading', { name: 'All Orders', level: 1 }).waitFor();
    await page.locator('[data-testid="revenue-chart"] svg.recharts-surface').first().waitFor();
    await shot('all-orders');
    await page.getByRole('button', { name: /^Refund/ }).first().click();
    await page.getByRole('dialog').getByRole('radio', { name: 'Part of it' }).check();
    await page.getByRole('dialog').getByLabel('Amount ($)').fill('5000');
    await page.getByRole('dialog').getByRole('button', { name: 'Refund', exact: true }).click();
    await page.getByText(/Enter an amount/).waitFor();
    await shot('refund-dialog', false);
    await context.close();

    const { context: agentContext, page: agentPage, shot: agentShot } = await openPage(run, width, { as: system.customer, landing: '/dashboard' });
    await agentPage.goto('/dashboard?view=my-orders');
    await agentPage.locator('tr[data-order-id]').first().waitFor();
    await agentShot('my-orders');
    await agentPage.getByRole('button', { name: /View receipt: Premium/ }).click();
    await agentPage.getByRole('dialog', { name: 'Receipt' }).waitFor();
    await agentShot('receipt', false);
    await agentContext.close();
  }
} finally {
  await run.finish();
}
