/**
 * What every screenshot script shares: the system and a browser, one folder per script under
 * var/screenshots/, and pages at the two widths we look at (a phone and a laptop), signed in or
 * not. `make screenshots` runs every script (e2e/screenshots/run.ts); `make screenshots
 * NAME=checkout` one. They are not tests: they are for looking at the SPA as a person would.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, logIn, startSystem, type Account, type RunningSystem, type SystemOptions } from '../harness';

export const SCREENSHOTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../var/screenshots');
export const WIDTHS = [390, 1280] as const;

/** A phone's screen below 600 px, a laptop's above. */
export const viewportFor = (width: number) => ({ width, height: width < 600 ? 844 : 800 });

export interface ShotRun {
  system: RunningSystem;
  browser: Browser;
  /** var/screenshots/<script>/ */
  out: string;
  /** Closes the browser and stops the system; says where the PNGs are. */
  finish(): Promise<void>;
}

/** Starts the system and the browser and makes the script's folder. */
export async function startShots(script: string, options?: SystemOptions): Promise<ShotRun> {
  const out = path.join(SCREENSHOTS_DIR, script);
  mkdirSync(out, { recursive: true });
  const system = await startSystem(options);
  const browser = await launchBrowser();
  return {
    system,
    browser,
    out,
    async finish() {
      await browser.close();
      await system.stop();
      console.log(`Screenshots in ${out}`);
    },
  };
}

export interface ShotPage {
  context: BrowserContext;
  page: Page;
  /** Writes `<out>/<prefix><name>-<width>.png`, the whole page unless `fullPage` is false. */
  shot(name: string, fullPage?: boolean): Promise<Buffer>;
}

export interface PageOptions {
  /** Logged in as this account first; with `landing`, once the login has led there. */
  as?: Account;
  landing?: string;
  /** Before every file name, e.g. 'admin-'. */
  prefix?: string;
  /** No confetti or transitions over what the screenshot is for. */
  reducedMotion?: boolean;
}

/** A fresh browser context at `width`, its page, and a `shot` that names files by width. */
export async function openPage(run: ShotRun, width: number, options: PageOptions = {}): Promise<ShotPage> {
  const context = await run.browser.newContext({
    baseURL: run.system.url,
    viewport: viewportFor(width),
    ...(options.reducedMotion ? { reducedMotion: 'reduce' as const } : {}),
  });
  const page = await context.newPage();
  if (options.as) await logIn(page, options.as.username, options.as.password, options.landing);
  const prefix = options.prefix ?? '';
  return {
    context,
    page,
    shot: (name, fullPage = true) => page.screenshot({ path: path.join(run.out, `${prefix}${name}-${width}.png`), fullPage }),
  };
}

/**
 * Closes the toasts shown so far and those queued behind them (one shows at a time): a toast is
 * fixed to the viewport, and in a full-page shot it would sit over the content.
 */
export async function closeToasts(page: Page): Promise<void> {
  const region = page.getByRole('region', { name: /Notification/ });
  const close = region.getByRole('button', { name: 'Close' });
  for (let i = 0; i < 20 && (await close.count()) > 0; i += 1) {
    // A toast may be leaving on its own while this clicks it: that is fine too.
    await close.first().click({ timeout: 1000 }).catch(() => undefined);
    await page.waitForTimeout(300);
  }
  await region.getByRole('listitem').waitFor({ state: 'detached' }).catch(() => undefined);
}
