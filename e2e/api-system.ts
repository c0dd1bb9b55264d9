import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLogger, createPool, parseConfig } from '@warmline/platform';
import { freePort } from '@warmline/platform/testing/index';
import { proxyFor, type ProxiedDependency } from '@warmline/platform/testing/outage';
import { startTestSystem } from '@warmline/platform/testing/system';
import { gatewayEnv } from '@warmline/gateway/config';
import { GATEWAY_SCHEMA, startGateway } from '@warmline/gateway/service';
import { DEMO_SALESPERSON, seedDemoAccounts, seedDemoSalespeople } from '@warmline/gateway/seed';
import { notificationsEnv } from '@warmline/notifications/config';
import { startNotifications } from '@warmline/notifications/service';
import { ordersEnv } from '@warmline/orders/config';
import { startOrders } from '@warmline/orders/service';
import { catalogEnv } from '@warmline/catalog/config';
import { startCatalog } from '@warmline/catalog/service';
import { partnersEnv } from '@warmline/partners/config';
import { startPartners } from '@warmline/partners/service';
import { ingestionEnv } from '@warmline/ingestion/config';
import { startIngestion } from '@warmline/ingestion/service';
import { transfersEnv } from '@warmline/transfers/config';
import { startTransfers } from '@warmline/transfers/service';
import type { Account } from './harness';

/**
 * The whole system in this process, as e2e/harness.ts starts it (gateway, orders with the
 * sandbox payments, catalog, partners, ingestion, transfers, notifications writing .eml files; one database, broker namespace
 * and Redis prefix), but for API tests: no SPA build and no browser, so the route-manifest
 * tests and the fuzzer start in seconds.
 */
export interface ApiSystem {
  /** The gateway's public address. */
  url: string;
  /** The internal services, for checks that go around the gateway. */
  catalogUrl: string;
  partnersUrl: string;
  ingestionUrl: string;
  transfersUrl: string;
  ordersUrl: string;
  /** The run's database (every service's schema). */
  databaseUrl: string;
  /** Where notifications writes each e-mail as a .eml file. */
  mailDir: string;
  /** With `brokerProxy`: every service's way to RabbitMQ, for the test to cut and restore. */
  broker: ProxiedDependency | null;
  admin: Account;
  customer: Account;
  /** A salesperson whose referral survey is open. */
  salespersonSlug: string;
  stop(): Promise<void>;
}

export interface ApiSystemOptions {
  /** More gateway settings (e.g. PURCHASE_ATTEMPTS_PER_MINUTE). */
  gatewayEnv?: Record<string, string>;
  /** More orders settings (e.g. STRIPE_WEBHOOK_SECRET). */
  ordersEnv?: Record<string, string>;
  /** The services' log level (default silent); 'error' shows what a 500 was. */
  logLevel?: string;
  /** Every service reaches RabbitMQ through one TCP proxy the test can cut (an outage). */
  brokerProxy?: boolean;
}

export async function startApiSystem(options: ApiSystemOptions = {}): Promise<ApiSystem> {
  const system = await startTestSystem({ databasePrefix: 'wl_api', redis: true });
  const { stops } = system;
  const env: Record<string, string> = { ...system.env, LOG_LEVEL: options.logLevel ?? 'silent' };
  let broker: ProxiedDependency | null = null;
  try {
    if (options.brokerProxy) {
      broker = await proxyFor(env.AMQP_URL ?? '');
      env.AMQP_URL = broker.url;
      const proxied = broker;
      stops.push('broker proxy', () => proxied.proxy.close());
    }
    const workDir = await mkdtemp(path.join(os.tmpdir(), 'warmline-api-'));
    stops.push('work dir', () => rm(workDir, { recursive: true, force: true }));
    const mailDir = path.join(workDir, 'mail');
    const webDist = path.join(workDir, 'web-dist');
    await Promise.all([mkdir(mailDir), mkdir(webDist)]);
    await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>WarmLine</title><div id="root"></div>');

    const port = await freePort();
    const internalPort = await freePort();
    const notificationsConfig = parseConfig(notificationsEnv, { ...env, NOTIFICATIONS_PORT: '0', MAIL_DIR: mailDir });
    const notifications = await startNotifications(notificationsConfig, createLogger('notifications', notificationsConfig.LOG_LEVEL));
    stops.push('notifications', () => notifications.stop());
    const ordersConfig = parseConfig(ordersEnv, {
      ...env,
      ORDERS_PORT: '0',
      PAYMENT_PROVIDER: 'sandbox',
      GATEWAY_URL: `http://127.0.0.1:${internalPort}`,
      ...options.ordersEnv,
    });
    const orders = await startOrders(ordersConfig, createLogger('orders', ordersConfig.LOG_LEVEL));
    stops.push('orders', () => orders.stop());
    // The catalog asks the gateway's internal listener for an agent's contact (call-backs, opt-out notices).
    const catalogConfig = parseConfig(catalogEnv, { ...env, CATALOG_PORT: '0', ORDERS_URL: orders.url, GATEWAY_INTERNAL_URL: `http://127.0.0.1:${internalPort}` });
    const catalog = await startCatalog(catalogConfig, createLogger('catalog', catalogConfig.LOG_LEVEL));
    stops.push('catalog', () => catalog.stop());
    const partnersConfig = parseConfig(partnersEnv, { ...env, PARTNERS_PORT: '0', BLOB_DIR: path.join(workDir, 'blobs') });
    const partners = await startPartners(partnersConfig, createLogger('partners', partnersConfig.LOG_LEVEL));
    stops.push('partners', () => partners.stop());
    const ingestionConfig = parseConfig(ingestionEnv, { ...env, INGESTION_PORT: '0' });
    const ingestion = await startIngestion(ingestionConfig, createLogger('ingestion', ingestionConfig.LOG_LEVEL));
    stops.push('ingestion', () => ingestion.stop());
    // Transfers asks the gateway's internal listener for an agent's name and survey, orders for their latest transfer order.
    const transfersConfig = parseConfig(transfersEnv, { ...env, TRANSFERS_PORT: '0', GATEWAY_INTERNAL_URL: `http://127.0.0.1:${internalPort}`, ORDERS_URL: orders.url, CATALOG_URL: catalog.url });
    const transfers = await startTransfers(transfersConfig, createLogger('transfers', transfersConfig.LOG_LEVEL));
    stops.push('transfers', () => transfers.stop());
    const url = `http://127.0.0.1:${port}`;
    const gateway = await startGateway(
      parseConfig(gatewayEnv, {
        ...env,
        GATEWAY_PORT: String(port),
        GATEWAY_INTERNAL_PORT: String(internalPort),
        PUBLIC_URL: url,
        SESSION_SECRET: randomBytes(32).toString('hex'),
        WEB_DIST_DIR: webDist,
        ORDERS_URL: orders.url,
        CATALOG_URL: catalog.url,
        PARTNERS_URL: partners.url,
        INGESTION_URL: ingestion.url,
        TRANSFERS_URL: transfers.url,
        ...options.gatewayEnv,
      }),
    );
    stops.push('gateway', () => gateway.stop());

    const admin: Account = { username: 'api-admin', password: 'admin password 1', email: 'api-admin@example.com', firstName: 'Ada', lastName: 'Admin' };
    const customer: Account = { username: 'api-agent', password: 'agent password 1', email: 'api-agent@example.com', firstName: 'Carla', lastName: 'Customer' };
    const pool = createPool(system.db.url, GATEWAY_SCHEMA);
    try {
      await seedDemoAccounts(pool, { admin, agent: customer });
      await seedDemoSalespeople(pool);
    } finally {
      await pool.end();
    }
    return {
      url,
      catalogUrl: catalog.url,
      ordersUrl: orders.url,
      partnersUrl: partners.url,
      ingestionUrl: ingestion.url,
      transfersUrl: transfers.url,
      databaseUrl: system.db.url,
      mailDir,
      broker,
      admin,
      customer,
      salespersonSlug: DEMO_SALESPERSON.slug,
      stop: system.cleanup,
    };
  } catch (err) {
    await system.cleanup();
    throw err;
  }
}
