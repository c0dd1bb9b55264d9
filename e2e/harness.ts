import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AxeResults } from 'axe-core';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { parseConfig, createPool, createLogger } from '@warmline/platform';
import {
  createTestDatabase,
  freePort,
  requireService,
  TEST_AMQP_URL,
  TEST_KEYS,
  TEST_REDIS_URL,
  uniqueName,
  type TestDatabase,
} from '@warmline/platform/testing/index';
import { deleteBusNames, migrateTestNamespace } from '@warmline/platform/testing/system';
import { gatewayEnv } from '@warmline/gateway/config';
import { GATEWAY_SCHEMA, startGateway } from '@warmline/gateway/service';
import { seedDemoAccounts, seedDemoSalespeople } from '@warmline/gateway/seed';
import { notificationsEnv } from '@warmline/notifications/config';
import { startNotifications } from '@warmline/notifications/service';
import { ordersEnv } from '@warmline/orders/config';
import { startOrders } from '@warmline/orders/service';
import { catalogEnv, importerEnv } from '@warmline/catalog/config';
import { startCatalog } from '@warmline/catalog/service';
import { startImporter } from '@warmline/catalog/importer';
import { partnersEnv } from '@warmline/partners/config';
import { startPartners } from '@warmline/partners/service';
import { ingestionEnv } from '@warmline/ingestion/config';
import { startIngestion } from '@warmline/ingestion/service';
import { transfersEnv } from '@warmline/transfers/config';
import { startTransfers } from '@warmline/transfers/service';
import { eventually, readMail } from './waits';

/**
 * The end-to-end harness: the whole system in this process (gateway serving the built SPA,
 * the orders service with the sandbox payment provider, the catalog (aged leads) and its
 * importer worker, the partners service (partner applications), the ingestion service (vendors' calls), the transfers service
 * (live transfers: routing, outcomes, the ledger), the notifications worker writing .eml
 * files), on free ports, with its own database, bus namespace, Redis prefix and mail
 * directory, driven by Debian's Chromium through playwright-core.
 */

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB_DIR = path.join(REPO_ROOT, 'web');
const WEB_DIST_DIR = path.join(WEB_DIR, 'dist');
export const TEST_RESULTS_DIR = path.join(REPO_ROOT, 'test-results');
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

// ---------------------------------------------------------------- the SPA build

function newestChange(target: string): number {
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestChange(path.join(target, entry)));
  return newest;
}

/** Whether web/dist is missing or older than the SPA's sources (or its contracts). */
function spaBuildIsStale(): boolean {
  const index = path.join(WEB_DIST_DIR, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  const sources = [
    path.join(WEB_DIR, 'src'),
    path.join(WEB_DIR, 'index.html'),
    path.join(WEB_DIR, 'vite.config.ts'),
    path.join(WEB_DIR, 'package.json'),
    path.join(WEB_DIR, 'scripts'),
    path.join(REPO_ROOT, 'services/contracts/src'),
  ];
  return sources.some((source) => existsSync(source) && newestChange(source) > built);
}

/**
 * Builds the SPA when it is missing or stale. A lock directory keeps two test files from
 * building at once; the second waits and then finds the build fresh.
 */
async function ensureSpaBuilt(): Promise<void> {
  if (!spaBuildIsStale()) return;
  const lock = path.join(WEB_DIR, '.e2e-build-lock');
  await eventually(
    `the build lock ${lock} (remove it if no build is running)`,
    () => {
      try {
        mkdirSync(lock);
        return true;
      } catch {
        return false;
      }
    },
    { timeoutMs: 180_000, intervalMs: 500 },
  );
  try {
    if (!spaBuildIsStale()) return;
    // As `make build` does: vitest sets NODE_ENV=test, which would give React's development build
    // (65 KB more on the landing route, over its budget) instead of the one users get.
    execFileSync('npm', ['run', 'build', '-w', 'web'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NODE_ENV: 'production' } });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * A private copy of the build for one running system, so a rebuild of web/dist while the
 * tests run (another terminal, `make build`) cannot pull files from under the browser.
 * Copies again when it caught a build half-written.
 */
async function snapshotSpaBuild(into: string): Promise<string> {
  for (let attempt = 1; ; attempt += 1) {
    rmSync(into, { recursive: true, force: true });
    cpSync(WEB_DIST_DIR, into, { recursive: true });
    if (isCompleteBuild(into)) return into;
    if (attempt >= 20) throw new Error(`${WEB_DIST_DIR} is incomplete (a build still running?); run 'npm run build -w web'`);
    await new Promise((r) => setTimeout(r, 500));
    await ensureSpaBuilt();
  }
}

function isCompleteBuild(dir: string): boolean {
  try {
    const manifest = JSON.parse(readFileSync(path.join(dir, '.vite/manifest.json'), 'utf8')) as Record<string, { file: string; css?: string[] }>;
    const files = Object.values(manifest).flatMap((chunk) => [chunk.file, ...(chunk.css ?? [])]);
    return existsSync(path.join(dir, 'index.html')) && files.every((file) => existsSync(path.join(dir, file)));
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- the system

export interface Account {
  username: string;
  password: string;
  email: string;
  firstName: string;
  lastName: string;
}

export interface RunningSystem {
  /** The gateway's address, e.g. http://127.0.0.1:41234 (also its PUBLIC_URL). */
  url: string;
  mailDir: string;
  /** The run's own database (every service's schema), for tests that check what was stored. */
  databaseUrl: string;
  admin: Account;
  customer: Account;
  stop(): Promise<void>;
}

export interface SystemOptions {
  /** More of the gateway's settings (e.g. BOOKING_URL, TRAINING_VIDEOS). */
  gatewayEnv?: Record<string, string>;
  /**
   * The transfers service's clock (live transfers are routed only inside the prospect's legal
   * calling hours, and some hours of the UTC day are outside them in every US state).
   */
  transfersClock?: () => Date;
}

/** Starts gateway + orders + catalog (+ its importer) + partners + ingestion + transfers + notifications against the real PostgreSQL, Redis and RabbitMQ. */
export async function startSystem(options: SystemOptions = {}): Promise<RunningSystem> {
  await ensureSpaBuilt();
  await requireService('Redis', TEST_REDIS_URL);
  await requireService('RabbitMQ', TEST_AMQP_URL);
  const database: TestDatabase = await createTestDatabase('wl_e2e');
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'warmline-e2e-'));
  const mailDir = path.join(workDir, 'mail');
  mkdirSync(mailDir);
  const redisPrefix = `${uniqueName('e2e')}:`;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // The gateway's internal listener, where orders reads users (started after orders).
  const internalPort = await freePort();
  const shared = {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'error',
    DATABASE_URL: database.url,
    // Each service migrates its schema as its owner role and works as its app role (docs/adr/0043).
    MIGRATION_DATABASE_URL: database.url,
    REDIS_URL: TEST_REDIS_URL,
    AMQP_URL: TEST_AMQP_URL,
    ...TEST_KEYS,
    BUS_NAMESPACE: uniqueName('t').toLowerCase(),
  };

  const stops: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    for (const close of stops.reverse()) {
      try {
        await close();
      } catch (err) {
        console.warn('e2e harness: error while stopping', err);
      }
    }
  };
  stops.push(() => database.drop());
  stops.push(() => rm(workDir, { recursive: true, force: true }));
  stops.push(() => deleteRedisKeys(redisPrefix));
  stops.push(() => deleteBusNames(shared.BUS_NAMESPACE));

  try {
    await migrateTestNamespace(shared.BUS_NAMESPACE);
    const webDistDir = await snapshotSpaBuild(path.join(workDir, 'web-dist'));
    // Links in e-mails (My Leads, My Call-backs) point at this run's gateway, as in production.
    const notificationsConfig = parseConfig(notificationsEnv, { ...shared, NOTIFICATIONS_PORT: '0', MAIL_DIR: mailDir, PUBLIC_URL: url });
    const notifications = await startNotifications(
      notificationsConfig,
      createLogger('notifications', notificationsConfig.LOG_LEVEL),
    );
    stops.push(() => notifications.stop());
    // Card payments are confirmed by the orders service itself (Stripe's test cards).
    const ordersConfig = parseConfig(ordersEnv, { ...shared, ORDERS_PORT: '0', PAYMENT_PROVIDER: 'sandbox', GATEWAY_URL: `http://127.0.0.1:${internalPort}` });
    const orders = await startOrders(ordersConfig, createLogger('orders', ordersConfig.LOG_LEVEL));
    stops.push(() => orders.stop());
    // The catalog stores an upload's file and its importer reads it back, the partners service an
    // application's documents: one blob directory for all.
    const blobs = { BLOB_STORE: 'local', BLOB_DIR: path.join(workDir, 'blobs') };
    const catalogConfig = parseConfig(catalogEnv, {
      ...shared,
      ...blobs,
      CATALOG_PORT: '0',
      ORDERS_URL: orders.url,
      GATEWAY_INTERNAL_URL: `http://127.0.0.1:${internalPort}`,
    });
    const catalog = await startCatalog(catalogConfig, createLogger('catalog', catalogConfig.LOG_LEVEL));
    stops.push(() => catalog.stop());
    // The catalog's second entry point (docs/adr/0016): it runs the imports the catalog queues.
    const importerConfig = parseConfig(importerEnv, { ...shared, ...blobs, IMPORTER_PORT: '0' });
    const importer = await startImporter(importerConfig, createLogger('importer', importerConfig.LOG_LEVEL));
    stops.push(() => importer.stop());
    const partnersConfig = parseConfig(partnersEnv, { ...shared, ...blobs, PARTNERS_PORT: '0' });
    const partners = await startPartners(partnersConfig, createLogger('partners', partnersConfig.LOG_LEVEL));
    stops.push(() => partners.stop());
    const ingestionConfig = parseConfig(ingestionEnv, { ...shared, INGESTION_PORT: '0' });
    const ingestion = await startIngestion(ingestionConfig, createLogger('ingestion', ingestionConfig.LOG_LEVEL));
    stops.push(() => ingestion.stop());
    // Transfers asks the gateway's internal listener for an agent's name and survey, orders for their latest transfer order.
    const transfersConfig = parseConfig(transfersEnv, { ...shared, TRANSFERS_PORT: '0', GATEWAY_INTERNAL_URL: `http://127.0.0.1:${internalPort}`, ORDERS_URL: orders.url, CATALOG_URL: catalog.url });
    const transfers = await startTransfers(transfersConfig, createLogger('transfers', transfersConfig.LOG_LEVEL), options.transfersClock ? { clock: options.transfersClock } : {});
    stops.push(() => transfers.stop());
    const gateway = await startGateway(
      parseConfig(gatewayEnv, {
        ...shared,
        GATEWAY_PORT: String(port),
        GATEWAY_INTERNAL_PORT: String(internalPort),
        PUBLIC_URL: url,
        SESSION_SECRET: randomBytes(32).toString('hex'),
        REDIS_PREFIX: redisPrefix,
        WEB_DIST_DIR: webDistDir,
        ORDERS_URL: orders.url,
        CATALOG_URL: catalog.url,
        PARTNERS_URL: partners.url,
        INGESTION_URL: ingestion.url,
        TRANSFERS_URL: transfers.url,
        ...options.gatewayEnv,
      }),
    );
    stops.push(() => gateway.stop());

    const admin: Account = {
      username: 'e2e-admin',
      password: 'admin password 1',
      email: 'e2e-admin@example.com',
      firstName: 'Ada',
      lastName: 'Admin',
    };
    const customer: Account = {
      username: 'e2e-agent',
      password: 'agent password 1',
      email: 'e2e-agent@example.com',
      firstName: 'Carla',
      lastName: 'Customer',
    };
    const pool = createPool(database.url, GATEWAY_SCHEMA);
    try {
      await seedDemoAccounts(pool, { admin, agent: customer });
      await seedDemoSalespeople(pool);
    } finally {
      await pool.end();
    }
    return { url, mailDir, databaseUrl: database.url, admin, customer, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function deleteRedisKeys(prefix: string): Promise<void> {
  const client = createClient({ url: TEST_REDIS_URL });
  await client.connect();
  try {
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) keys.push(...batch);
    if (keys.length) await client.del(keys);
  } finally {
    await client.close();
  }
}

// ---------------------------------------------------------------- logging in

/** The login form, filled and sent as a person would (username or e-mail); where it leads is not awaited. */
export async function submitLogin(page: Page, login: string, password: string): Promise<void> {
  await page.getByLabel('Username', { exact: true }).fill(login);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** Logs in at /login; with `landing`, waits until the login has taken the browser there. */
export async function logIn(page: Page, login: string, password: string, landing?: string): Promise<void> {
  await page.goto('/login');
  await submitLogin(page, login, password);
  if (landing !== undefined) await page.waitForURL((url) => url.pathname === landing);
}

// ---------------------------------------------------------------- mail

const RESET_LINK = /https?:\/\/[^\s"'<>]+\/reset-password\?token=[A-Za-z0-9_%.~-]+/;

/** Waits for a message mentioning `to` that carries a reset link, and returns the link. */
export async function waitForResetLink(mailDir: string, to: string, timeoutMs = 20_000): Promise<string> {
  const linkFor = (message: string) => (message.toLowerCase().includes(to.toLowerCase()) ? RESET_LINK.exec(message)?.[0] : undefined);
  return eventually(`an e-mail with a reset link for ${to}`, async () => (await readMail(mailDir)).map(linkFor).find(Boolean), { timeoutMs });
}

// ---------------------------------------------------------------- the browser

/** Headless Debian Chromium; fails with how to install it when it is missing. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}: the end-to-end tests need it. ` +
        "`make test` installs it (apt-get install -y chromium); or run 'apt-get install -y chromium' yourself.",
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let axeSource: string | undefined;
const AXE_SOURCE = (): string => (axeSource ??= readFileSync(AXE_SCRIPT, 'utf8'));

/**
 * Runs axe-core on the page as it is now and lists the serious and critical violations (rule,
 * help text and the elements), so a test can expect an empty list.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Colours are judged at rest: a button's hover transition or a toast fading in is between two
  // colours for a moment, and axe would flag the mix. Spinners and other endless animations are left running.
  await page
    .waitForFunction(
      () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
      null,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
  // Evaluated, not added as a <script>: the gateway's Content-Security-Policy refuses inline scripts.
  await page.evaluate(AXE_SOURCE());
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** A folder name from a test's full name ('e2e/accounts.e2e.test.ts > logging in > when …'). */
function safeName(fullName: string): string {
  const [file = '', ...names] = fullName.split(' > ');
  return (
    [path.basename(file), ...names]
      .join('--')
      .replace(/[^A-Za-z0-9 _.-]+/g, '')
      .trim()
      .replace(/\s+/g, '-')
      .slice(0, 150) || 'unnamed-test'
  );
}

export interface E2E {
  readonly system: RunningSystem;
  readonly browser: Browser;
  /** A fresh browser context (own cookies and storage) per test. */
  readonly context: BrowserContext;
  readonly page: Page;
  /** Opens a path of the system in the test's page. */
  open(pathname: string): Promise<void>;
  /** A path of the current page, e.g. '/dashboard'. */
  pathname(): string;
}

/**
 * Registers the hooks of an end-to-end test file: the system and the browser for the whole
 * file, a new context and page per test, and on failure a screenshot and the page's console
 * under test-results/<test name>/.
 */
export function useE2E(
  options: {
    viewport?: { width: number; height: number };
    /** The system's settings, read when it starts (after the file's earlier beforeAll hooks). */
    system?: () => SystemOptions;
    /** More browser-context options (e.g. ignoreHTTPSErrors for a test's self-signed origin). */
    context?: BrowserContextOptions;
  } = {},
): E2E {
  let system: RunningSystem | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  let consoleLines: string[] = [];

  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`e2e: ${what} is not ready (did beforeAll fail?)`);
    return value;
  };

  beforeAll(async () => {
    system = await startSystem(options.system?.() ?? {});
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  beforeEach(async () => {
    consoleLines = [];
    context = await need(browser, 'the browser').newContext({
      ...options.context,
      baseURL: need(system, 'the system').url,
      viewport: options.viewport ?? { width: 1280, height: 800 },
    });
    page = await context.newPage();
    page.on('console', (message) => consoleLines.push(`[${message.type()}] ${message.text()}`));
    page.on('pageerror', (error) => consoleLines.push(`[pageerror] ${error.stack ?? error.message}`));
    page.on('requestfailed', (request) =>
      consoleLines.push(`[requestfailed] ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ''}`),
    );
  });

  afterEach(async ({ task }) => {
    try {
      if (task.result?.state === 'fail' && page) {
        const dir = path.join(TEST_RESULTS_DIR, safeName(task.fullName ?? task.name));
        mkdirSync(dir, { recursive: true });
        await page.screenshot({ path: path.join(dir, 'screenshot.png'), fullPage: true }).catch((err: Error) => {
          consoleLines.push(`[harness] screenshot failed: ${err.message}`);
        });
        writeFileSync(path.join(dir, 'console.log'), [`url: ${page.url()}`, ...consoleLines].join('\n') + '\n');
      }
    } finally {
      await context?.close();
      context = undefined;
      page = undefined;
    }
  });

  return {
    get system() {
      return need(system, 'the system');
    },
    get browser() {
      return need(browser, 'the browser');
    },
    get context() {
      return need(context, 'the browser context');
    },
    get page() {
      return need(page, 'the page');
    },
    async open(pathname: string) {
      await need(page, 'the page').goto(pathname);
    },
    pathname() {
      return new URL(need(page, 'the page').url()).pathname;
    },
  };
}
