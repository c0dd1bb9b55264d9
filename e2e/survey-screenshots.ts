/**
 * Screenshots of the survey funnels at 390 px and 1280 px wide: each wizard step with and
 * without messages, the success pages, the second brand's checkout and the referral survey.
 * Not a test; run it with
 *   npx tsx e2e/survey-screenshots.ts
 * and open test-results/survey-screens/*.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startSystem, TEST_RESULTS_DIR, type RunningSystem } from './harness';

const OUT = path.join(TEST_RESULTS_DIR, 'survey-screens');
const WIDTHS = [390, 1280];

async function shoot(browser: Browser, system: RunningSystem, name: string, pathname: string, prepare?: (page: Page, width: number) => Promise<void>) {
  for (const width of WIDTHS) {
    const context = await browser.newContext({ baseURL: system.url, viewport: { width, height: width < 600 ? 844 : 800 } });
    const page = await context.newPage();
    await page.goto(pathname, { waitUntil: 'networkidle' });
    if (prepare) await prepare(page, width);
    await page.screenshot({ path: path.join(OUT, `${name}-${width}.png`), fullPage: true });
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

const system = await startSystem();
const browser = await launchBrowser();
try {
  mkdirSync(OUT, { recursive: true });
  await shoot(browser, system, 'survey-step1', '/survey');
  await shoot(browser, system, 'survey-step1-errors', '/survey', async (page) => {
    await page.getByRole('button', { name: 'Continue' }).click();
  });
  await shoot(browser, system, 'survey-step2-live-transfers', '/survey', async (page) => {
    await fillStep1(page);
    await page.getByLabel('Live Transfers').check();
  });
  await shoot(browser, system, 'survey-step2-errors', '/survey', async (page) => {
    await fillStep1(page);
    await page.getByRole('button', { name: 'Submit Survey' }).click();
  });
  await shoot(browser, system, 'survey-step2-recruiting', '/survey', async (page) => {
    await fillStep1(page);
    await page.getByLabel('Insurance Recruiting').check();
  });
  await shoot(browser, system, 'survey-success', '/survey-success', async (page) => {
    await page.waitForTimeout(3500);
  });
  await shoot(browser, system, 'ringcloud-step1', '/ringcloud');
  await shoot(browser, system, 'ringcloud-step2', '/ringcloud', async (page) => {
    await fillStep1(page);
    await page.getByLabel('Call-Backs').check();
    await page.getByRole('button', { name: 'Continue to Checkout' }).click();
  });
  await shoot(browser, system, 'ringcloud-checkout', '/ringcloud', async (page) => {
    await fillStep1(page);
    await page.getByLabel('Live Transfers').check();
    await page.getByLabel('Working States').fill('TX, FL');
    await page.getByLabel('Total Transfers Needed').fill('20');
    await page.getByRole('button', { name: 'Continue to Checkout' }).click();
    await page.waitForURL((url) => url.pathname === '/ringcloud-checkout');
    await page.getByLabel('Card number').waitFor();
  });
  await shoot(browser, system, 'thank-you', '/thank-you', async (page) => {
    await page.waitForTimeout(3500);
  });
  await shoot(browser, system, 'referral-step2', '/john', async (page) => {
    await page.getByRole('heading', { name: 'Your Information' }).waitFor();
    await fillStep1(page);
    await page.getByLabel('Aged Leads').check();
  });
  await shoot(browser, system, 'referral-unknown', '/no-such-person');
  console.log(`Screenshots in ${OUT}`);
} finally {
  await browser.close();
  await system.stop();
}
