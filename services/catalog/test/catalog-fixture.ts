import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { EVENTS_EXCHANGE, type CommandData, type Envelope, type EventData } from '@warmline/contracts';
import { createLogger, createPool, parseConfig, type Identity, type Pool } from '@warmline/platform';
import { TEST_AMQP_URL, waitFor } from '@warmline/platform/testing/index';
import { agentIdentity, callService, type Answer, type CallOptions } from '@warmline/platform/testing/calls';
import { outboxEnvelopes, startTestSystem } from '@warmline/platform/testing/system';
import { readyz } from '@warmline/platform/testing/outage';
import { ordersEnv } from '@warmline/orders/config';
import { ORDERS_SCHEMA, startOrders, type RunningOrders } from '@warmline/orders/service';
import { catalogEnv, type CatalogConfig } from '../src/config';
import { CATALOG_SCHEMA, startCatalog, type RunningCatalog } from '../src/service';
import { CALLBACKS_QUEUE, LEAD_PAYMENTS_QUEUE } from '../src/events/consumers';
import { insertLeads, type NewAgedLead } from '../src/db/leads';
import { DAY_MS } from '../src/market/domain/lead-age';

/**
 * The catalog and the orders service, both in-process on free ports, for one test file:
 * one test database (each service in its own schema), one broker namespace, so a purchase
 * goes the real way — reserve in the catalog, pay at orders with a sandbox card,
 * payment.succeeded over RabbitMQ back to the catalog. The catalog's clock can be moved on.
 */
export interface CatalogFixture {
  catalog: RunningCatalog;
  orders: RunningOrders;
  config: CatalogConfig;
  /** The environment of the run (database, broker namespace, …), for another process of it. */
  env: Record<string, string>;
  /** Pools on the catalog's and the orders' schema, to arrange and inspect. */
  pool: Pool;
  ordersPool: Pool;
  namespace: string;
  /** The catalog's "now". */
  now(): Date;
  /** Moves the catalog's clock on. */
  advance(ms: number): void;
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  /** Calls the orders service (the sandbox card form's confirmation). */
  callOrders(method: string, path: string, options?: CallOptions): Promise<Answer>;
  addLeads(leads: Array<Partial<NewAgedLead> & { ageDays: number; ageHours?: number }>): Promise<NewAgedLead[]>;
  /** Reserves, pays with the sandbox test card, and waits until the catalog has sold the leads. */
  buy(buyer: Identity, leadIds: string[]): Promise<{ orderId: string }>;
  /** Envelopes in the catalog's outbox of one type, oldest first. */
  outbox(type: string): Promise<Envelope<Record<string, unknown>>[]>;
  /** Publishes an envelope on the run's events exchange, as a service's relay would. */
  publishEvent(envelope: Envelope<unknown>): Promise<void>;
  cleanup(): Promise<void>;
}

export const agent = agentIdentity;

export function testCard(clientSecret: string, cardNumber = '4242 4242 4242 4242') {
  return { clientSecret, cardNumber, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };
}

const FIRST = ['James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth'];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez'];
let serial = 0;

/** A distinct 10-digit phone in the area code given (7 more digits from a counter). */
export function phoneIn(areaCode: string): string {
  serial += 1;
  return `${areaCode}${String(2000000 + ((serial * 7919) % 7999999)).padStart(7, '0')}`;
}

/** `ordersEnv`: more of the orders service's configuration (e.g. GATEWAY_URL, where it asks for a buyer's address). */
export async function startCatalogFixture(env: Record<string, string> = {}, options: { ordersEnv?: Record<string, string> } = {}): Promise<CatalogFixture> {
  const system = await startTestSystem({ databasePrefix: 'wl_catalog', queues: [LEAD_PAYMENTS_QUEUE, CALLBACKS_QUEUE] });
  const { namespace, stops } = system;
  try {
    const orders = await startOrders(parseConfig(ordersEnv, { ...system.env, ORDERS_PORT: '0', ...options.ordersEnv }), createLogger('orders', 'silent'));
    stops.push('orders', orders.stop);
    const config = parseConfig(catalogEnv, { ...system.env, CATALOG_PORT: '0', ORDERS_URL: orders.url, ...env });
    let offsetMs = 0;
    const now = () => new Date(Date.now() + offsetMs);
    const catalog = await startCatalog(config, createLogger('catalog', process.env.CATALOG_TEST_LOG ?? 'silent'), { clock: now, sweeper: false });
    stops.push('catalog', catalog.stop);
    // The catalog starts without waiting for the broker; its queues exist once it reports no
    // degraded dependency, and a test publishes events only then.
    await waitFor('the catalog to reach RabbitMQ', async () => {
      const answer = await readyz(catalog.url);
      return answer.status === 200 && answer.body.degraded?.length === 0;
    });
    const pool = createPool(system.db.url, CATALOG_SCHEMA);
    const ordersPool = createPool(system.db.url, ORDERS_SCHEMA);
    stops.push('pools', async () => Promise.all([pool.end(), ordersPool.end()]));
    const connection = await amqp.connect(TEST_AMQP_URL);
    stops.push('broker connection', () => connection.close());
    const channel = await connection.createConfirmChannel();

    const fixture: CatalogFixture = {
      catalog,
      orders,
      config,
      env: { ...system.env, ...env },
      pool,
      ordersPool,
      namespace,
      now,
      advance(ms) {
        offsetMs += ms;
      },
      call: (method, path, options) => callService(catalog.url, method, path, options),
      callOrders: (method, path, options) => callService(orders.url, method, path, options),
      async addLeads(specs) {
        const at = now().getTime();
        const leads = specs.map((spec, i): NewAgedLead => {
          const { ageDays, ageHours, ...given } = spec;
          return {
            id: randomUUID(),
            name: `${FIRST[i % FIRST.length]} ${LAST[(i * 3) % LAST.length]}`,
            phone: phoneIn('512'),
            email: `lead${i}.${randomUUID().slice(0, 8)}@example.com`,
            state: 'TX',
            // An hour into the day of age by default, so the age in whole days is ageDays.
            formFillTime: new Date(at - ageDays * DAY_MS - (ageHours ?? 1) * 3_600_000),
            source: 'facebook-lead-form',
            consent: { tcpa: true, text: 'I agree to be contacted by licensed agents.', ip: '203.0.113.7' },
            ...given,
          };
        });
        await insertLeads(pool, leads);
        return leads;
      },
      async buy(buyer, leadIds) {
        const reserved = await fixture.call('POST', '/api/bulk-purchase-leads', { body: { leadIds }, identity: buyer });
        if (reserved.status !== 201) throw new Error(`purchase answered ${reserved.status}: ${reserved.text}`);
        const orderId = String(reserved.body.orderId);
        const paid = await fixture.callOrders('POST', '/api/payments/sandbox/confirm', {
          body: testCard(String(reserved.body.clientSecret)),
          identity: buyer,
        });
        if (paid.status !== 200) throw new Error(`payment answered ${paid.status}: ${paid.text}`);
        await waitFor(`order ${orderId} sold`, async () => {
          const { rows } = await pool.query("SELECT 1 FROM lead_reservations WHERE order_id = $1 AND status = 'paid'", [orderId]);
          return rows.length === 1;
        }, { timeoutMs: 20_000 });
        return { orderId };
      },
      outbox: (type) => outboxEnvelopes(pool, type),
      async publishEvent(envelope) {
        await new Promise<void>((resolve, reject) => {
          channel.publish(
            `${namespace}.${EVENTS_EXCHANGE}`,
            envelope.type,
            Buffer.from(JSON.stringify(envelope)),
            { persistent: true, contentType: 'application/json', messageId: envelope.id },
            (err: unknown) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve()),
          );
        });
      },
      cleanup: system.cleanup,
    };
    return fixture;
  } catch (err) {
    await system.cleanup();
    throw err;
  }
}

/** A message as its producer's relay would publish it (a fresh id and correlation id). */
export function testEnvelope<T>(type: string, data: T, source = 'orders'): Envelope<T> {
  return { id: randomUUID(), type, version: 1, occurredAt: new Date().toISOString(), source, correlationId: randomUUID(), data };
}

/** orders' payment.succeeded for a RingCloud Call-Backs order of `count` call-backs at $15.00 each. */
export function callBacksPaid(buyerUserId: string | null, count: number): Envelope<EventData<'payment.succeeded'>> {
  return testEnvelope('payment.succeeded', {
    orderId: randomUUID(),
    kind: 'package',
    tier: 'ringcloud',
    count,
    unitPriceCents: 1500,
    amountCents: 1500 * count,
    currency: 'usd',
    description: `RingCloud Call-Backs: ${count} call-backs`,
    buyerUserId,
    leadType: 'Call-Backs',
    provider: 'sandbox',
    paymentIntentId: `pi_${randomUUID()}`,
    paidAt: new Date().toISOString(),
  });
}

/** The ingestion service's callback_opportunity.create for a vendor's call: a Texas-area prospect, no state, no time. */
export function vendorCall(
  overrides: Partial<CommandData<'callback_opportunity.create'>> = {},
): CommandData<'callback_opportunity.create'> {
  return {
    callbackId: randomUUID(),
    vendorKeyId: randomUUID(),
    vendorName: 'Acme Voice',
    firstName: 'Maria',
    lastName: 'Lopez',
    phone: phoneIn('512'),
    state: null,
    transcript: 'Agent: Hello. Prospect: Please call me back tomorrow after 3 pm.',
    callbackTime: null,
    callOutcome: 'callback_requested',
    agentId: 'va-17',
    leadQuality: 'hot',
    interestLevel: 'high',
    receivedAt: new Date().toISOString(),
    ...overrides,
  };
}
