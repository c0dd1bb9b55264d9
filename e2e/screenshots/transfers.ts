/**
 * Screenshots of Buy Call Transfers (intro, order form, payment), /transfer-checkout,
 * Insurance Recruiting (and its dialog) and /admin-orders at 390 px and 1280 px wide, for
 * looking at them as an agent and an admin would. Not a test; run it with
 * `make screenshots NAME=transfers`.
 */
import { openPage, startShots, WIDTHS } from './kit';

const run = await startShots('transfers');
const { system } = run;

try {
  for (const width of WIDTHS) {
    const { context, page, shot } = await openPage(run, width, { as: system.customer, landing: '/dashboard' });

    await page.goto('/transfer-checkout');
    await page.getByRole('heading', { name: 'No Order Found' }).waitFor();
    await shot('checkout-empty');

    await page.goto('/dashboard?view=buy-call-transfers');
    await page.getByRole('button', { name: 'Order Call Transfers' }).waitFor();
    await shot('intro');
    await page.getByRole('button', { name: 'Order Call Transfers' }).click();
    await page.getByRole('heading', { name: 'Order Call Transfers' }).waitFor();
    await page.getByLabel('Transfer phone').fill('');
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await page.getByText('Please specify working states', { exact: true }).waitFor();
    await shot('form-errors');
    await page.getByLabel('Total transfers').fill('20');
    await page.getByLabel('Transfers per day').fill('5');
    await page.getByLabel('Transfer hours').fill('Mon-Fri 9am-5pm CST');
    await page.getByLabel('Transfer phone').fill('(405) 555-0199');
    for (const [name, code] of [['Texas', 'TX'], ['Oklahoma', 'OK'], ['Florida', 'FL']] as const) {
      await page.getByLabel('Search states').fill(name);
      await page.getByRole('checkbox', { name: `${name} (${code})` }).check();
    }
    await page.getByLabel('Search states').fill('');
    await shot('form');
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await page.getByLabel('Card number').waitFor();
    await shot('payment');

    await page.goto('/transfer-checkout');
    await page.getByLabel('Card number').waitFor();
    await shot('checkout');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM / YY)').fill('12 / 30');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: /Complete Payment/ }).click();
    await page.waitForURL((url) => url.pathname === '/thank-you', { timeout: 20_000 });

    await page.goto('/dashboard?view=insurance-recruiting');
    await page.getByRole('button', { name: 'Contact Recruiting Team' }).click();
    await page.getByRole('dialog').waitFor();
    await shot('recruiting-dialog', false);
    await page.keyboard.press('Escape');
    await shot('recruiting');
    await context.close();

    const { context: adminContext, page: admin, shot: adminShot } = await openPage(run, width, { as: system.admin, landing: '/admin' });
    await admin.goto('/admin-orders');
    await admin.getByRole('heading', { name: 'Transfer Orders', level: 1 }).waitFor();
    await admin.locator('.orders-table tbody tr').first().waitFor();
    await adminShot('admin-orders');
    await adminContext.close();
  }
} finally {
  await run.finish();
}
