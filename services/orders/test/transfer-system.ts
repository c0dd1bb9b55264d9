import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import amqp from 'amqplib';
import { createClient } from 'redis';
import { COMMANDS_EXCHANGE, EVENTS_EXCHANGE, type Envelope } from '@warmline/contracts';
import { createLogger, createPool, parseConfig, type Pool } from '@warmline/platform';
import {
  createTestDatabase,
  freePort,
  requireService,
  TEST_AMQP_URL,
  TEST_DATABASE_URL,
  TEST_IDENTITY_SECRET,
  TEST_REDIS_URL,
  uniqueName,
} from '@warmline/platform/testing/index';
import { gatewayEnv } from '@warmline/gateway/config';
import { GATEWAY_SCHEMA, startGateway } from '@warmline/gateway/service';
import { createAccount } from '@warmline/gateway/domain/users';
import { notificationsEnv } from '@warmline/notifications/config';
import { NOTIFICATIONS_QUEUES } from '@warmline/notifications/events/subscriptions';
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
  await requireService('PostgreSQL', TEST_DATABASE_URL);
  await requireService('Redis', TEST_REDIS_URL);
  await requireService('RabbitMQ', TEST_AMQP_URL);
  const db = await createTestDatabase('wl_transfers');
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'wl-transfers-'));
  const mailDir = path.join(workDir, 'mail');
  const webDist = path.join(workDir, 'web');
  await Promise.all([mkdir(mailDir), mkdir(webDist)]);
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>WarmLine</title>');
  const namespace = uniqueName('t').toLowerCase();
  const redisPrefix = `${uniqueName('t')}:`;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const operationsEmail = `ops-${randomBytes(3).toString('hex')}@example.com`;
  const admin = { username: `admin_${randomBytes(3).toString('hex')}`, password: 'admin-password-1' };
  const shared = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: db.url,
    AMQP_URL: TEST_AMQP_URL,
    IDENTITY_SECRET: TEST_IDENTITY_SECRET,
    BUS_NAMESPACE: namespace,
  };

  const stops: Array<() => Promise<unknown>> = [];
  const cleanup = async () => {
    for (const stop of stops.splice(0).reverse()) {
      try {
        await stop();
      } catch (err) {
        console.warn('transfer system: error while stopping', err);
      }
    }
  };
  stops.push(() => db.drop());
  stops.push(() => rm(workDir, { recursive: true, force: true }));
  stops.push(() => deleteRedisKeys(redisPrefix));
  stops.push(() => deleteBrokerNames(namespace));
  try {
    const notifications = await startNotifications(
      parseConfig(notificationsEnv, { ...shared, NOTIFICATIONS_PORT: '0', MAIL_DIR: mailDir, OPERATIONS_EMAIL: operationsEmail }),
      createLogger('notifications', 'silent'),
    );
    stops.push(() => notifications.stop());
    const orders = await startOrders(
      parseConfig(ordersEnv, { ...shared, ORDERS_PORT: '0', PAYMENT_PROVIDER: 'sandbox', GATEWAY_URL: url }),
      createLogger('orders', 'silent'),
    );
    stops.push(() => orders.stop());
    const gateway = await startGateway(
      parseConfig(gatewayEnv, {
        ...shared,
        REDIS_URL: TEST_REDIS_URL,
        GATEWAY_PORT: String(port),
        PUBLIC_URL: url,
        SESSION_SECRET: randomBytes(32).toString('hex'),
        REDIS_PREFIX: redisPrefix,
        WEB_DIST_DIR: webDist,
        ADMIN_USERNAME: admin.username,
        ADMIN_PASSWORD: admin.password,
        ORDERS_URL: orders.url,
      }),
      { log: createLogger('gateway', 'silent') },
    );
    stops.push(() => gateway.stop());
    const ordersPool = createPool(db.url, ORDERS_SCHEMA);
    const gatewayPool = createPool(db.url, GATEWAY_SCHEMA);
    stops.push(() => ordersPool.end());
    stops.push(() => gatewayPool.end());

    return {
      url,
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
      async mailTo(to) {
        const files = (await readdir(mailDir)).filter((f) => f.endsWith('.eml')).sort();
        const messages = await Promise.all(files.map(async (f) => decodeQuotedPrintable(await readFile(path.join(mailDir, f), 'utf8'))));
        return messages.filter((m) => new RegExp(`^To: ${to.replaceAll('.', '\\.')}$`, 'm').test(m));
      },
      async ordersOutbox(type) {
        const { rows } = await ordersPool.query<{ envelope: Envelope<Record<string, unknown>> }>(
          'SELECT envelope FROM outbox WHERE routing_key = $1 ORDER BY created_at, id',
          [type],
        );
        return rows.map((r) => r.envelope);
      },
      cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/** Bodies are quoted-printable: undo soft line breaks and =XX escapes to read them. */
function decodeQuotedPrintable(text: string): string {
  return Buffer.from(
    text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

async function deleteRedisKeys(prefix: string): Promise<void> {
  const redis = createClient({ url: TEST_REDIS_URL });
  await redis.connect();
  try {
    for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
      if (keys.length > 0) await redis.del(keys);
    }
  } finally {
    await redis.close();
  }
}

async function deleteBrokerNames(namespace: string): Promise<void> {
  const connection = await amqp.connect(TEST_AMQP_URL);
  try {
    const channel = await connection.createChannel();
    for (const base of NOTIFICATIONS_QUEUES) {
      for (const queue of [base, `${base}.retry`, `${base}.dlq`]) await channel.deleteQueue(`${namespace}.${queue}`);
    }
    for (const exchange of [EVENTS_EXCHANGE, COMMANDS_EXCHANGE]) await channel.deleteExchange(`${namespace}.${exchange}`);
    await channel.close();
  } finally {
    await connection.close();
  }
}
