import type { Envelope } from '@warmline/contracts';
import { createLogger, createPool, parseConfig, type Pool } from '@warmline/platform';
import { agentIdentity, callService, type Answer, type CallOptions } from '@warmline/platform/testing/calls';
import { outboxEnvelopes, startTestSystem } from '@warmline/platform/testing/system';
import { ordersEnv, type OrdersConfig } from '../src/config';
import { ORDERS_SCHEMA, startOrders } from '../src/service';

export type { Answer } from '@warmline/platform/testing/calls';

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

export const customer = agentIdentity;

type LogDestination = NonNullable<Parameters<typeof createLogger>[2]>;

/** `log`: where the service's log lines go at `warn` and above (silent when not given). */
export async function startOrdersFixture(env: Record<string, string> = {}, options: { log?: LogDestination } = {}): Promise<OrdersFixture> {
  const system = await startTestSystem({ databasePrefix: 'wl_orders' });
  try {
    const config = parseConfig(ordersEnv, { ...system.env, ORDERS_PORT: '0', ...env });
    const log = options.log ? createLogger('orders', 'warn', options.log) : createLogger('orders', 'silent');
    const running = await startOrders(config, log);
    system.stops.push('orders', running.stop);
    const pool = createPool(system.db.url, ORDERS_SCHEMA);
    system.stops.push('orders pool', () => pool.end());
    return {
      url: running.url,
      config,
      pool,
      call: (method, path, options) => callService(running.url, method, path, options),
      outbox: (type) => outboxEnvelopes(pool, type),
      cleanup: system.cleanup,
    };
  } catch (err) {
    await system.cleanup();
    throw err;
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
