import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { COMMANDS_EXCHANGE, EVENTS_EXCHANGE, type Envelope } from '@warmline/contracts';
import { createLogger, createPool, parseConfig, signIdentity, IDENTITY_HEADER, type Identity, type Pool } from '@warmline/platform';
import {
  createTestDatabase,
  requireService,
  TEST_AMQP_URL,
  TEST_DATABASE_URL,
  TEST_IDENTITY_SECRET,
  uniqueName,
  type TestDatabase,
} from '@warmline/platform/testing/index';
import { ordersEnv, type OrdersConfig } from '../src/config';
import { ORDERS_SCHEMA, startOrders } from '../src/service';

/**
 * The orders service started in-process on a free port for one test file, against the real
 * PostgreSQL (its own database) and RabbitMQ (its own namespace). Requests go straight to
 * it with the identity the gateway would sign.
 */
export interface OrdersFixture {
  url: string;
  config: OrdersConfig;
  /** A pool on the orders schema, to inspect what the service stored. */
  pool: Pool;
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  /** The envelopes of one message type in the outbox, oldest first. */
  outbox(type: string): Promise<Envelope<Record<string, unknown>>[]>;
  cleanup(): Promise<void>;
}

export interface CallOptions {
  body?: unknown;
  /** A raw body sent as is (webhooks). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Who the gateway says is asking; an anonymous visitor by default, null for no identity at all. */
  identity?: Identity | null;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export const ANONYMOUS_VISITOR: Identity = { userId: null, username: null, isAdmin: false };

export function customer(name = 'agent'): Identity {
  return { userId: randomUUID(), username: `${name}_${randomUUID().slice(0, 6)}`, isAdmin: false };
}

export async function startOrdersFixture(env: Record<string, string> = {}): Promise<OrdersFixture> {
  await requireService('PostgreSQL', TEST_DATABASE_URL);
  await requireService('RabbitMQ', TEST_AMQP_URL);
  const db: TestDatabase = await createTestDatabase('wl_orders');
  const namespace = uniqueName('t').toLowerCase();
  const config = parseConfig(ordersEnv, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: db.url,
    AMQP_URL: TEST_AMQP_URL,
    IDENTITY_SECRET: TEST_IDENTITY_SECRET,
    BUS_NAMESPACE: namespace,
    ORDERS_PORT: '0',
    ...env,
  });
  const running = await startOrders(config, createLogger('orders', 'silent'));
  const pool = createPool(db.url, ORDERS_SCHEMA);

  return {
    url: running.url,
    config,
    pool,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      const identity = options.identity === undefined ? ANONYMOUS_VISITOR : options.identity;
      if (identity) headers[IDENTITY_HEADER] = signIdentity(TEST_IDENTITY_SECRET, identity);
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] = 'application/json';
      }
      const response = await fetch(`${running.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
      const text = await response.text();
      return {
        status: response.status,
        headers: response.headers,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      };
    },
    async outbox(type) {
      const { rows } = await pool.query<{ envelope: Envelope<Record<string, unknown>> }>(
        'SELECT envelope FROM outbox WHERE routing_key = $1 ORDER BY created_at, id',
        [type],
      );
      return rows.map((r) => r.envelope);
    },
    async cleanup() {
      await running.stop();
      await pool.end();
      await db.drop();
      await deleteExchanges(namespace);
    },
  };
}

async function deleteExchanges(namespace: string): Promise<void> {
  const connection = await amqp.connect(TEST_AMQP_URL);
  try {
    const channel = await connection.createChannel();
    await channel.deleteExchange(`${namespace}.${EVENTS_EXCHANGE}`);
    await channel.deleteExchange(`${namespace}.${COMMANDS_EXCHANGE}`);
    await channel.close();
  } finally {
    await connection.close();
  }
}

/** A card that expires in two years, with Stripe's always-succeeding test number. */
export function testCard(clientSecret: string, overrides: Record<string, unknown> = {}) {
  return {
    clientSecret,
    cardNumber: '4242 4242 4242 4242',
    expMonth: 12,
    expYear: new Date().getUTCFullYear() + 2,
    cvc: '123',
    ...overrides,
  };
}
