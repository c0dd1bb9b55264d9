import { partnersEnv } from '@warmline/partners/config';
import { startPartners } from '@warmline/partners/service';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Envelope } from '@warmline/contracts';
import { createLogger, createPool, parseConfig, type Pool } from '@warmline/platform';
import { freePort } from '@warmline/platform/testing/index';
import { mailsTo } from '@warmline/platform/testing/mail';
import { outboxEnvelopes, startTestSystem } from '@warmline/platform/testing/system';
import { gatewayEnv } from '@warmline/gateway/config';
import { GATEWAY_SCHEMA, startGateway } from '@warmline/gateway/service';
import { createAccount } from '@warmline/gateway/domain/users';
import { notificationsEnv } from '@warmline/notifications/config';
import { NOTIFICATIONS_QUEUES } from '@warmline/notifications/events/consumers';
import { startNotifications } from '@warmline/notifications/service';
import { Browser } from '../../gateway/test/gateway-fixture';
import { ordersEnv } from '../src/config';
import { ORDERS_SCHEMA, startOrders } from '../src/service';

/**
 * What a transfer order touches, in-process for one test file: the gateway (accounts, prices,
 * forwarding), the orders service (sandbox payments) and the notifications worker (.eml files),
 * on one database (each its own schema) and one broker namespace, as in production.
 */
export interface TransferSystem {
  url: string;
  /** The orders service's internal address (calls with a signed identity, as the catalog makes them). */
  ordersUrl: string;
  /** The gateway's internal listener (where services ask it about users). */
  gatewayInternalUrl: string;
  ordersPool: Pool;
  gatewayPool: Pool;
  operationsEmail: string;
  admin: { username: string; password: string };
  /** A new agent account with a known password (unique names every call). */
  createAgent(overrides?: { firstName?: string; lastName?: string; phone?: string }): Promise<Agent>;
  /** A browser logged in as the admin. */
  adminBrowser(): Promise<Browser>;
  browser(): Browser;
  /** Decoded .eml messages addressed to `to`. */
  mailTo(to: string): Promise<string[]>;
  /** The envelopes of one message type in the orders service's outbox, oldest first. */
  ordersOutbox(type: string): Promise<Envelope<Record<string, unknown>>[]>;
  cleanup(): Promise<void>;
}

export interface Agent {
  id: string;
  username: string;
  password: string;
  email: string;
  phone: string;
  firstName: string;
  lastName: string;
}

/** Requests the SPA makes carry this header (the gateway's CSRF rule). */
export const XHR = { headers: { 'x-requested-with': 'XMLHttpRequest' } };

export async function startTransferSystem(): Promise<TransferSystem> {
  const system = await startTestSystem({ databasePrefix: 'wl_transfers', queues: NOTIFICATIONS_QUEUES, redis: true });
  const { stops } = system;
  try {
    const workDir = await mkdtemp(path.join(os.tmpdir(), 'wl-transfers-'));
    stops.push('work dir', () => rm(workDir, { recursive: true, force: true }));
    const mailDir = path.join(workDir, 'mail');
    const webDist = path.join(workDir, 'web');
    await Promise.all([mkdir(mailDir), mkdir(webDist)]);
    await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>WarmLine</title>');
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // Orders reads users from the gateway's internal listener, started after it.
    const internalPort = await freePort();
    const operationsEmail = `ops-${randomBytes(3).toString('hex')}@example.com`;
    const admin = { username: `admin_${randomBytes(3).toString('hex')}`, password: 'admin-password-1' };

    const notifications = await startNotifications(
      parseConfig(notificationsEnv, { ...system.env, NOTIFICATIONS_PORT: '0', MAIL_DIR: mailDir, OPERATIONS_EMAIL: operationsEmail }),
      createLogger('notifications', 'silent'),
    );
    stops.push('notifications', notifications.stop);
    const orders = await startOrders(
      parseConfig(ordersEnv, { ...system.env, ORDERS_PORT: '0', PAYMENT_PROVIDER: 'sandbox', GATEWAY_URL: `http://127.0.0.1:${internalPort}` }),
      createLogger('orders', 'silent'),
    );
    stops.push('orders', orders.stop);
    // The customer search also asks the partners service: a real one, so no answer is partial.
    const partners = await startPartners(
      parseConfig(partnersEnv, { ...system.env, PARTNERS_PORT: '0', BLOB_DIR: path.join(workDir, 'blobs') }),
      createLogger('partners', 'silent'),
    );
    stops.push('partners', partners.stop);
    const gateway = await startGateway(
      parseConfig(gatewayEnv, {
        ...system.env,
        GATEWAY_PORT: String(port),
        GATEWAY_INTERNAL_PORT: String(internalPort),
        PUBLIC_URL: url,
        SESSION_SECRET: randomBytes(32).toString('hex'),
        WEB_DIST_DIR: webDist,
        ADMIN_USERNAME: admin.username,
        ADMIN_PASSWORD: admin.password,
        ORDERS_URL: orders.url,
        PARTNERS_URL: partners.url,
        // A test machine busy with other files must not turn orders' part of a search into a partial answer.
        SEARCH_SOURCE_TIMEOUT_MS: '5000',
      }),
      { log: createLogger('gateway', 'silent') },
    );
    stops.push('gateway', gateway.stop);
    const ordersPool = createPool(system.db.url, ORDERS_SCHEMA);
    const gatewayPool = createPool(system.db.url, GATEWAY_SCHEMA);
    stops.push('pools', async () => Promise.all([ordersPool.end(), gatewayPool.end()]));

    return {
      url,
      ordersUrl: orders.url,
      gatewayInternalUrl: `http://127.0.0.1:${internalPort}`,
      ordersPool,
      gatewayPool,
      operationsEmail,
      admin,
      async createAgent(overrides = {}) {
        const tag = randomBytes(4).toString('hex');
        const spec = {
          username: `agent_${tag}`,
          email: `agent_${tag}@example.com`,
          password: `agent-password-${tag}`,
          firstName: overrides.firstName ?? 'Avery',
          lastName: overrides.lastName ?? 'Agent',
          phone: overrides.phone ?? '(512) 555-0101',
        };
        const user = await createAccount(gatewayPool, spec);
        return { id: user.id, ...spec };
      },
      async adminBrowser() {
        const browser = new Browser(url);
        await browser.login(admin.username, admin.password);
        return browser;
      },
      browser: () => new Browser(url),
      mailTo: (to) => mailsTo(mailDir, to),
      ordersOutbox: (type) => outboxEnvelopes(ordersPool, type),
      cleanup: system.cleanup,
    };
  } catch (err) {
    await system.cleanup();
    throw err;
  }
}
