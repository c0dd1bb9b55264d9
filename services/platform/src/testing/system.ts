import amqp from 'amqplib';
import { createClient } from 'redis';
import { brokerManifest, COMMANDS_EXCHANGE, EVENTS_EXCHANGE, UNROUTED_EXCHANGE, UNROUTED_QUEUE, type Envelope } from '@warmline/contracts';
import { migrateBroker } from '../bus/migrate-broker';
import type { Queryable } from '../db/index';
import { ShutdownStack } from '../lifecycle';
import { createLogger } from '../log';
import {
  createTestDatabase,
  requireService,
  TEST_AMQP_URL,
  TEST_DATABASE_URL,
  TEST_KEYS,
  TEST_REDIS_URL,
  uniqueName,
  type TestDatabase,
} from './index';

/**
 * What services started in-process by one test file share, as they would in production: one
 * test database (each service in its own schema), one broker namespace and, when asked, one
 * Redis key prefix. A fixture starts its services with `env` and pushes what it opens on
 * `stops`; `cleanup` closes those last-pushed first, then removes the broker names, the Redis
 * keys and the database.
 */
export interface TestSystem {
  db: TestDatabase;
  namespace: string;
  /** Only with `redis: true`. */
  redisPrefix?: string;
  /**
   * The environment every service of the run takes: NODE_ENV=test, silent logs, the database,
   * MIGRATION_DATABASE_URL, the broker and BUS_NAMESPACE, the test identity secret (and REDIS_URL, REDIS_PREFIX).
   */
  env: Record<string, string>;
  stops: ShutdownStack;
  cleanup(): Promise<void>;
}

export async function startTestSystem(options: {
  /** Names the test database, e.g. 'wl_orders'. */
  databasePrefix: string;
  /** Consumer queues (without namespace) whose Q, Q.retry and Q.dlq cleanup deletes. */
  queues?: readonly string[];
  redis?: boolean;
  /** A database the caller made and drops itself (cleanup leaves it). */
  db?: TestDatabase;
}): Promise<TestSystem> {
  await requireService('PostgreSQL', TEST_DATABASE_URL);
  await requireService('RabbitMQ', TEST_AMQP_URL);
  if (options.redis) await requireService('Redis', TEST_REDIS_URL);
  const stops = new ShutdownStack(createLogger('test-system', 'warn'), 'the test system');
  const db = options.db ?? (await createTestDatabase(options.databasePrefix));
  if (!options.db) stops.push('test database', () => db.drop());
  const namespace = uniqueName('t').toLowerCase();
  stops.push('broker names', () => deleteBusNames(namespace, options.queues));
  await migrateTestNamespace(namespace);
  const redisPrefix = options.redis ? `${uniqueName('t')}:` : undefined;
  if (redisPrefix) stops.push('redis keys', () => deleteRedisKeys(redisPrefix));
  return {
    db,
    namespace,
    ...(redisPrefix ? { redisPrefix } : {}),
    env: {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: db.url,
      // Services migrate their schemas at start, as their owner roles, and work as their app
      // roles (docs/adr/0043): the grants production has, on a database of the test's own.
      MIGRATION_DATABASE_URL: db.url,
      AMQP_URL: TEST_AMQP_URL,
      ...TEST_KEYS,
      BUS_NAMESPACE: namespace,
      ...(redisPrefix ? { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: redisPrefix } : {}),
    },
    stops,
    cleanup: stops.stop,
  };
}

/**
 * The migration step for a test run's broker namespace (docs/adr/0038), run once where the
 * namespace is made, before any service of the run starts, as `make migrate` does in production.
 */
export async function migrateTestNamespace(namespace: string, amqpUrl = TEST_AMQP_URL): Promise<void> {
  await migrateBroker({ url: amqpUrl, namespace, log: createLogger('broker-migration', 'warn') });
}

/**
 * Removes what a run declared in its namespace: every queue of the broker manifest (each
 * service declares all of them) and the given extra consumer queues, each with its .retry,
 * .dlq and migration holding queue, the unrouted queue, and the exchanges.
 */
export async function deleteBusNames(namespace: string, queues: readonly string[] = [], amqpUrl = TEST_AMQP_URL): Promise<void> {
  const connection = await amqp.connect(amqpUrl);
  try {
    const channel = await connection.createChannel();
    const all = new Set([...brokerManifest.queues.map((q) => q.queue), ...queues]);
    for (const queue of all) {
      for (const name of [queue, `${queue}.retry`, `${queue}.dlq`, `${queue}.migrating`]) await channel.deleteQueue(`${namespace}.${name}`);
    }
    await channel.deleteQueue(`${namespace}.${UNROUTED_QUEUE}`);
    for (const exchange of [EVENTS_EXCHANGE, COMMANDS_EXCHANGE, UNROUTED_EXCHANGE]) await channel.deleteExchange(`${namespace}.${exchange}`);
    await channel.close();
  } finally {
    await connection.close();
  }
}

/** Deletes every Redis key that starts with `prefix`. */
export async function deleteRedisKeys(prefix: string): Promise<void> {
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

/** The envelopes of one message type in a service's outbox (`db` on its schema), oldest first. */
export async function outboxEnvelopes(db: Queryable, type: string): Promise<Envelope<Record<string, unknown>>[]> {
  const { rows } = await db.query<{ envelope: Envelope<Record<string, unknown>> }>(
    'SELECT envelope FROM outbox WHERE routing_key = $1 ORDER BY created_at, id',
    [type],
  );
  return rows.map((r) => r.envelope);
}
