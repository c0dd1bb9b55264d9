/**
 * Screenshots of the public site, pricing pages, package checkouts and /onboarding-success at
 * 390 px and 1280 px wide, for looking at them as a buyer would. Not a test; run it with
 * `make screenshots NAME=checkout`. Reduced motion is on, so no confetti hides the page.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { RunningSystem } from '../harness';
import { openPage, startShots, WIDTHS } from './kit';

const run = await startShots('checkout');
const { system, out: OUT } = run;

async function shoot(name: string, pathname: string, prepare?: (page: Page) => Promise<void>) {
  for (const width of WIDTHS) {
    const { context, page, shot } = await openPage(run, width, { reducedMotion: true });
    await page.goto(pathname, { waitUntil: 'networkidle' });
    if (prepare) await prepare(page);
    await shot(name);
    if (width < 600) {
      // A long phone page shrinks to nothing when viewed whole: also keep it in screen-sized parts.
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let y = 0, part = 1; y < height; y += 1200, part += 1) {
        await page.screenshot({
          path: path.join(OUT, `${name}-${width}-part${part}.png`),
          fullPage: true,
          clip: { x: 0, y, width, height: Math.min(1200, height - y) },
        });
      }
    }
    await context.close();
  }
}

async function paidOrderId(system: RunningSystem): Promise<string> {
  const post = async (url: string, body: unknown) => {
    const res = await fetch(`${system.url}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, string>;
  };
  const intent = await post('/api/create-payment-intent', { amount: 2220, callCount: 60, tier: 'premium' });
  await post('/api/payments/sandbox/confirm', {
    clientSecret: intent.clientSecret,
    cardNumber: '4242424242424242',
    expMonth: 12,
    expYear: new Date().getUTCFullYear() + 2,
    cvc: '123',
    billing: { name: 'Pat Premium', email: 'pat@example.com' },
  });
  return intent.orderId!;
}

try {
  await shoot('landing', '/');
  await shoot('pricing', '/pricing');
  for (const tier of ['standard', 'special', 'premium', 'enterprise', 'ultimate']) {
    await shoot(`${tier}-pricing`, `/${tier}-pricing`);
  }
  await shoot('checkout-premium', '/checkout-premium');
  await shoot('checkout-premium-payment', '/checkout-premium', async (page) => {
    await page.getByLabel('How many transfers would you like to purchase?').fill('60');
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    await page.getByRole('heading', { name: 'Order Summary' }).waitFor();
  });
  await shoot('checkout-premium-declined', '/checkout-premium', async (page) => {
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    await page.getByLabel('Name on card').fill('Dee Clined');
    await page.getByLabel('Email for your receipt').fill('dee@example.com');
    await page.getByLabel('Card number').fill('4000000000000002');
    await page.getByLabel('Expiry (MM / YY)').fill('1230');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: /Complete Payment/ }).click();
    await page.locator('.payment-alert').getByText('Payment Failed', { exact: true }).waitFor();
  });
  await shoot('checkout-high-volume', '/checkout-high-volume', async (page) => {
    await page.getByLabel('How many transfers would you like to purchase?').fill('200');
    await page.getByText('200+ transfers: $28 each', { exact: true }).waitFor();
  });
  await shoot('checkout-high-volume-below-minimum', '/checkout-high-volume', async (page) => {
    await page.getByLabel('How many transfers would you like to purchase?').fill('49');
  });
  await shoot('checkout-special', '/checkout');
  await shoot('onboarding-success', `/onboarding-success?order=${await paidOrderId(system)}`, async (page) => {
    await page.getByText('Paid', { exact: true }).waitFor();
  });
} finally {
  await run.finish();
}
