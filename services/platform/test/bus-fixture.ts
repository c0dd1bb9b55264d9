import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import amqp, { type Channel, type ChannelModel } from 'amqplib';
import { EVENTS_EXCHANGE, type Envelope, type MessageData } from '@warmline/contracts';
import { createPool, runMigrations, type Pool } from '../src/db/index';
import { createLogger, type Logger } from '../src/log';
import { createTestDatabase, requireService, TEST_AMQP_URL, uniqueName, type TestDatabase } from '../src/testing/index';
import { deleteBusNames } from '../src/testing/system';

/**
 * What every bus test file needs: its own migrated database, its own broker namespace, a
 * plain amqplib connection for arranging and observing, and a logger whose lines the test
 * can read. `cleanup` removes every queue and exchange the file made, and the database.
 */
export interface BusFixture {
  db: TestDatabase;
  pool: Pool;
  schema: string;
  namespace: string;
  name: (base: string) => string;
  log: Logger;
  logLines: Array<Record<string, unknown>>;
  /** A direct connection to RabbitMQ (not through any proxy) for the test's own use. */
  amqp: ChannelModel;
  channel: Channel;
  /** Consumer queues (without namespace) whose Q, Q.retry and Q.dlq cleanup deletes. */
  consumerQueues: Set<string>;
  cleanup(): Promise<void>;
}

export async function startBusFixture(): Promise<BusFixture> {
  await requireService('RabbitMQ', TEST_AMQP_URL);
  const db = await createTestDatabase('wl_bus');
  const schema = 'bus_test';
  // The platform migrations (outbox, processed_events) only: no service migrations.
  const emptyDir = await mkdtemp(path.join(os.tmpdir(), 'wl-bus-migrations-'));
  await runMigrations({ databaseUrl: db.url, schema, dir: emptyDir });
  const pool = createPool(db.url, schema);
  const namespace = uniqueName('t').toLowerCase();
  const name = (base: string) => `${namespace}.${base}`;

  const logLines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const log = createLogger('bus-test', 'debug', sink);

  const connection = await amqp.connect(TEST_AMQP_URL);
  const channel = await connection.createChannel();
  const consumerQueues = new Set<string>();

  return {
    db,
    pool,
    schema,
    namespace,
    name,
    log,
    logLines,
    amqp: connection,
    channel,
    consumerQueues,
    async cleanup() {
      await deleteBusNames(namespace, [...consumerQueues]);
      await connection.close();
      // pool.end() resolves before its clients finish closing; the forced DROP DATABASE may
      // then terminate them, which is expected here and must not surface as an error.
      pool.on('error', () => undefined);
      await pool.end();
      await db.drop();
      await rm(emptyDir, { recursive: true, force: true });
    },
  };
}

/** A valid `user.deleted` envelope, the event the bus tests carry. */
export function userDeletedEnvelope(overrides: Partial<Envelope<MessageData<'user.deleted'>>> = {}): Envelope<MessageData<'user.deleted'>> {
  return {
    id: randomUUID(),
    type: 'user.deleted',
    version: 1,
    occurredAt: new Date().toISOString(),
    source: 'bus-test',
    correlationId: randomUUID(),
    data: { userId: randomUUID(), deletedBy: randomUUID() },
    ...overrides,
  };
}

/**
 * An analyst-style tap on the test's own direct connection: how many times each message id of
 * `routingKey` reached the events exchange (a relay that publishes a row twice shows as 2).
 */
export async function countDeliveries(f: BusFixture, routingKey: string): Promise<Map<string, number>> {
  const received = new Map<string, number>();
  const { queue } = await f.channel.assertQueue('', { exclusive: true, autoDelete: true });
  await f.channel.bindQueue(queue, f.name(EVENTS_EXCHANGE), routingKey);
  await f.channel.consume(queue, (msg) => {
    if (!msg) return;
    const id = String(msg.properties.messageId);
    received.set(id, (received.get(id) ?? 0) + 1);
    f.channel.ack(msg);
  });
  return received;
}

/** Publishes raw bytes the way a producer would, straight onto the events exchange. */
export function publishRaw(f: BusFixture, routingKey: string, body: Buffer | object, messageId?: string): void {
  const content = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  f.channel.publish(f.name(EVENTS_EXCHANGE), routingKey, content, {
    persistent: true,
    contentType: 'application/json',
    messageId,
  });
}
