/**
 * Screenshots of the survey funnels at 390 px and 1280 px wide: each wizard step with and
 * without messages, the success pages, the second brand's checkout and the referral survey.
 * Not a test; run it with `make screenshots NAME=survey`.
 */
import type { Page } from 'playwright-core';
import { openPage, startShots, WIDTHS } from './kit';

const run = await startShots('survey');

async function shoot(name: string, pathname: string, prepare?: (page: Page, width: number) => Promise<void>) {
  for (const width of WIDTHS) {
    const { context, page, shot } = await openPage(run, width);
    await page.goto(pathname, { waitUntil: 'networkidle' });
    if (prepare) await prepare(page, width);
    await shot(name);
    await context.close();
  }
}

let counter = 0;
async function fillStep1(page: Page) {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}`;
  await page.getByLabel('First Name').fill('Sam');
  await page.getByLabel('Last Name').fill('Rivera');
  await page.getByLabel('Agency Name').fill('Rivera Insurance Group');
  await page.getByLabel('Role').selectOption('Agency Owner');
  await page.getByLabel('Phone Number').fill('(555) 123-4567');
  await page.getByLabel('Email').fill(`sam.${tag}@example.com`);
  await page.getByLabel('Username').fill(`sam_${tag}`);
  await page.getByLabel('Password', { exact: true }).fill('sunny-harbor-42');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Lead Preferences' }).waitFor();
}

try {
  await shoot('survey-step1', '/survey');
  await shoot('survey-step1-errors', '/survey', async (page) => {
    await page.getByRole('button', { name: 'Continue' }).click();
  });
  await shoot('survey-step2-live-transfers', '/survey', async (page) => {
    await fillStep1(page);
    await page.getByLabel('Live Transfers').check();
  });
  await shoot('survey-step2-errors', '/survey', async (page) => {
    await fillStep1(page);
    await page.getByRole('button', { name: 'Submit Survey' }).click();
  });
  await shoot('survey-step2-recruiting', '/survey', async (page) => {
    await fillStep1(page);
    await page.getByLabel('Insurance Recruiting').check();
  });
  await shoot('survey-success', '/survey-success', async (page) => {
    await page.waitForTimeout(3500);
  });
  await shoot('ringcloud-step1', '/ringcloud');
  await shoot('ringcloud-step2', '/ringcloud', async (page) => {
    await fillStep1(page);
    await page.getByLabel('Call-Backs').check();
    await page.getByRole('button', { name: 'Continue to Checkout' }).click();
  });
  await shoot('ringcloud-checkout', '/ringcloud', async (page) => {
    await fillStep1(page);
    await page.getByLabel('Live Transfers').check();
    await page.getByLabel('Working States').fill('TX, FL');
    await page.getByLabel('Total Transfers Needed').fill('20');
    await page.getByRole('button', { name: 'Continue to Checkout' }).click();
    await page.waitForURL((url) => url.pathname === '/ringcloud-checkout');
    await page.getByLabel('Card number').waitFor();
  });
  await shoot('thank-you', '/thank-you', async (page) => {
    await page.waitForTimeout(3500);
  });
  await shoot('referral-step2', '/john', async (page) => {
    await page.getByRole('heading', { name: 'Your Information' }).waitFor();
    await fillStep1(page);
    await page.getByLabel('Aged Leads').check();
  });
  await shoot('referral-unknown', '/no-such-person');
} finally {
  await run.finish();
}
