import amqp, { type Channel, type ChannelModel } from 'amqplib';
import { CALLBACK_WEBHOOK_PATH, EVENTS_EXCHANGE, type CallbackWebhookInput, type Envelope } from '@warmline/contracts';
import { createLogger, createPool, parseConfig, type Identity, type Pool } from '@warmline/platform';
import { TEST_AMQP_URL, waitFor } from '@warmline/platform/testing/index';
import { callService, type Answer, type CallOptions } from '@warmline/platform/testing/calls';
import { proxyFor, readyz, type ProxiedDependency } from '@warmline/platform/testing/outage';
import { outboxEnvelopes, startTestSystem, type TestSystem } from '@warmline/platform/testing/system';
import { ingestionEnv, type IngestionConfig } from '../src/config';
import { INGESTION_SCHEMA, startIngestion, type IngestionOptions, type RunningIngestion } from '../src/service';

/** The queue the catalog consumes the ingestion service's commands from (broker manifest). */
const CALLBACKS_QUEUE = 'catalog.callbacks';
const EVENTS_TAP = 'test.ingestion-events';

/**
 * The ingestion service in-process on a free port for one test file: its own test database and
 * broker namespace, RabbitMQ reached through a proxy a test may cut. What reaches the broker is
 * read from the catalog's own queue (nobody consumes it here) and from a tap on the events
 * exchange, so a test sees the messages the catalog would get.
 */
export interface IngestionFixture {
  system: TestSystem;
  ingestion: RunningIngestion;
  config: IngestionConfig;
  /** A pool on the ingestion schema, to arrange and inspect. */
  pool: Pool;
  broker: ProxiedDependency;
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  /** A vendor's POST to the webhook with this key (X-API-Key unless headers say otherwise). */
  post(key: string | null, body: unknown, headers?: Record<string, string>): Promise<Answer>;
  /** Creates a vendor key as an admin; its id and key. */
  createKey(name?: string): Promise<{ id: string; key: string }>;
  /** Every command that reached catalog.callbacks so far (read off the queue), oldest first. */
  commands(): Envelope<Record<string, unknown>>[];
  /** Every callback.* event that reached the tap so far. */
  events(): Envelope<Record<string, unknown>>[];
  /** Envelopes in the outbox of one type, oldest first. */
  outbox(type: string): Promise<Envelope<Record<string, unknown>>[]>;
  cleanup(): Promise<void>;
}

export const fixtureAdmin: Identity = { userId: crypto.randomUUID(), username: 'admin_vendor_keys', isAdmin: true };

export async function startIngestionFixture(options: IngestionOptions = {}): Promise<IngestionFixture> {
  const system = await startTestSystem({ databasePrefix: 'wl_ingestion', queues: [EVENTS_TAP] });
  const { stops } = system;
  try {
    const broker = await proxyFor(TEST_AMQP_URL);
    stops.push('broker proxy', () => broker.proxy.close());
    const config = parseConfig(ingestionEnv, { ...system.env, AMQP_URL: broker.url, INGESTION_PORT: '0' });
    const ingestion = await startIngestion(config, createLogger('ingestion', process.env.INGESTION_TEST_LOG ?? 'silent'), options);
    stops.push('ingestion', ingestion.stop);
    const pool = createPool(system.db.url, INGESTION_SCHEMA);
    stops.push('pool', () => pool.end());

    // The service declares the manifest's topology once its bus is up.
    await waitFor('the ingestion service connected to the broker', async () => (await readyz(ingestion.url)).body.checks?.rabbitmq === 'ok', { timeoutMs: 20_000 });
    const connection: ChannelModel = await amqp.connect(TEST_AMQP_URL);
    stops.push('tap connection', () => connection.close());
    const channel: Channel = await connection.createChannel();
    const commands: Envelope<Record<string, unknown>>[] = [];
    const events: Envelope<Record<string, unknown>>[] = [];
    const read = (into: Envelope<Record<string, unknown>>[]) => (msg: amqp.ConsumeMessage | null) => {
      if (msg) into.push(JSON.parse(msg.content.toString('utf8')) as Envelope<Record<string, unknown>>);
    };
    await channel.consume(`${system.namespace}.${CALLBACKS_QUEUE}`, read(commands), { noAck: true });
    const tap = `${system.namespace}.${EVENTS_TAP}`;
    await channel.assertQueue(tap, { durable: false });
    await channel.bindQueue(tap, `${system.namespace}.${EVENTS_EXCHANGE}`, 'callback.*');
    await channel.consume(tap, read(events), { noAck: true });

    const call = (method: string, p: string, o?: CallOptions) => callService(ingestion.url, method, p, o);
    return {
      system,
      ingestion,
      config,
      pool,
      broker,
      call,
      post(key, body, headers = {}) {
        return call('POST', CALLBACK_WEBHOOK_PATH, {
          rawBody: typeof body === 'string' ? body : JSON.stringify(body),
          headers: { 'content-type': 'application/json', ...(key === null ? {} : { 'x-api-key': key }), ...headers },
        });
      },
      async createKey(name = 'BrightCall') {
        const created = await call('POST', '/api/admin/vendor-keys', { body: { name }, identity: fixtureAdmin });
        if (created.status !== 201) throw new Error(`creating a vendor key answered ${created.status}: ${created.text}`);
        return { id: String(created.body.id), key: String(created.body.key) };
      },
      commands: () => [...commands],
      events: () => [...events],
      outbox: (type) => outboxEnvelopes(pool, type),
      cleanup: system.cleanup,
    };
  } catch (err) {
    await system.cleanup();
    throw err;
  }
}

let phoneSeq = 0;
/** A distinct valid phone each call, so tests do not repeat each other's calls. */
export function uniquePhone(): string {
  phoneSeq += 1;
  return `512${String(Date.now() % 10000).padStart(4, '0')}${String(phoneSeq % 1000).padStart(3, '0')}`;
}

/** A complete call as a vendor posts it. */
export function vendorCall(overrides: Partial<Record<keyof CallbackWebhookInput, string | null>> = {}): Record<string, string | null> {
  return {
    first_name: 'Maria',
    last_name: 'Lopez',
    phone_number: `+1 ${uniquePhone()}`,
    transcript: `Prospect: Please call me back tomorrow after 3 pm. (${crypto.randomUUID()})`,
    call_outcome: 'callback_requested',
    state: 'TX',
    callback_time: null,
    ...overrides,
  };
}
