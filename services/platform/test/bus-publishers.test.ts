import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import amqp, { type ChannelModel } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_EXCHANGE, mayPublish, topicPermissions } from '@warmline/contracts';
import { createBus, startConsumer, subscribe, type Bus } from '../src/bus/index';
import { migrateBroker } from '../src/bus/migrate-broker';
import { ERROR_HEADER } from '../src/bus/topology';
import { TEST_AMQP_URL, uniqueName, waitFor } from '../src/testing/index';
import { startBusFixture, userDeletedEnvelope, type BusFixture } from './bus-fixture';

/**
 * docs/adr/0039: each broker user may publish only the routing keys the broker manifest lists
 * for it (RabbitMQ topic permissions), and a consumer refuses a message whose user_id is not a
 * listed publisher of its type. Against the real RabbitMQ, with a user made for this file.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
let f: BusFixture;
const user = uniqueName('wl_publisher').toLowerCase();
const password = randomBytes(12).toString('hex');
let asUser: ChannelModel;
const closers: Array<() => Promise<void>> = [];

function rabbitmqctl(...args: string[]): void {
  execFileSync('rabbitmqctl', ['-q', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
}

beforeAll(async () => {
  f = await startBusFixture();
  await migrateBroker({ url: TEST_AMQP_URL, namespace: f.namespace, log: f.log, topology: { queues: [] } });
  // A broker user with the orders service's topic permissions on this file's events exchange.
  rabbitmqctl('add_user', user, password);
  rabbitmqctl('set_permissions', '-p', '/', user, '^$', '.*', '.*');
  for (const p of topicPermissions(f.name).filter((each) => each.user === 'orders')) {
    rabbitmqctl('set_topic_permissions', '-p', '/', user, p.exchange, p.write, p.read);
  }
  const url = new URL(TEST_AMQP_URL);
  url.username = user;
  url.password = password;
  asUser = await amqp.connect(url.toString());
  asUser.on('error', () => undefined);
}, 60_000);

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await asUser?.close().catch(() => undefined);
  try {
    rabbitmqctl('delete_user', user);
  } finally {
    await f?.cleanup();
  }
}, 60_000);

/** Publishes on the events exchange as `channel`'s user; resolves with the broker's answer. */
async function publishAs(connection: ChannelModel, routingKey: string, options: amqp.Options.Publish = {}): Promise<'confirmed' | number> {
  const ch = await connection.createConfirmChannel();
  let code: number | undefined;
  ch.on('error', (err: { code?: number }) => (code = err.code));
  const envelope = userDeletedEnvelope();
  try {
    ch.publish(f.name(EVENTS_EXCHANGE), routingKey, Buffer.from(JSON.stringify(envelope)), { persistent: true, messageId: envelope.id, ...options });
    await ch.waitForConfirms();
    await ch.close();
    return 'confirmed';
  } catch {
    // The channel closes with the refusal's code.
    await waitFor('the channel to say why', () => code !== undefined);
    return code!;
  }
}

describe('broker publish permissions', () => {
  it('the topic permissions in infra/rabbitmq/definitions.json are the broker manifest\'s (npx tsx infra/scripts/broker-permissions.ts --write)', () => {
    const definitions = JSON.parse(readFileSync(path.join(ROOT, 'infra/rabbitmq/definitions.json'), 'utf8')) as { topic_permissions: unknown; users: Array<{ name: string }> };
    expect(definitions.topic_permissions).toEqual(topicPermissions());
    // Every user a permission names exists in the definitions.
    const users = new Set(definitions.users.map((u) => u.name));
    for (const p of topicPermissions()) expect(users.has(p.user), p.user).toBe(true);
  });

  it('the manifest says who may publish what; the importer shares the catalog\'s outbox', () => {
    expect(mayPublish('orders', 'payment.succeeded')).toBe(true);
    expect(mayPublish('orders', 'user.deleted')).toBe(false);
    expect(mayPublish('importer', 'import.run')).toBe(true);
    expect(mayPublish('guest', 'user.deleted')).toBe(false);
  });

  it('a broker user cannot publish another service\'s routing key', async () => {
    // orders publishes payment.succeeded; user.deleted is the gateway's.
    expect(await publishAs(asUser, 'payment.succeeded')).toBe('confirmed');
    expect(await publishAs(asUser, 'user.deleted')).toBe(403);
    // Nor claim to be another user: RabbitMQ checks user_id against the connection's user.
    expect(await publishAs(asUser, 'payment.succeeded', { userId: 'gateway' })).toBe(406);
  });
});

describe('the consumer\'s publisher check', () => {
  async function consumerOn(queue: string, developmentBroker: boolean, failFirst = false): Promise<{ bus: Bus; handled: string[] }> {
    f.consumerQueues.add(queue);
    const bus = createBus({ developmentBroker, url: TEST_AMQP_URL, log: f.log, connectionName: 'bus-publishers-test', namespace: f.namespace, allowQueuesOutsideTopology: true });
    closers.push(() => bus.close());
    await bus.ready();
    const handled: string[] = [];
    let failed = !failFirst;
    const consumer = await startConsumer({
      bus,
      pool: f.pool,
      queue,
      subscriptions: [
        subscribe('user.deleted', async (_d, ctx) => {
          if (!failed) {
            failed = true;
            throw new Error('fails once');
          }
          handled.push(ctx.envelope.id);
        }),
      ],
      log: f.log,
      retryDelaysMs: [20],
    });
    closers.push(() => consumer.stop());
    return { bus, handled };
  }

  async function deadLetter(queue: string): Promise<amqp.GetMessage> {
    const ch = await f.amqp.createChannel();
    try {
      let msg: amqp.GetMessage | false = false;
      await waitFor('the message in the DLQ', async () => (msg = await ch.get(f.name(`${queue}.dlq`), { noAck: true })) !== false);
      return msg as unknown as amqp.GetMessage;
    } finally {
      await ch.close();
    }
  }

  it('a consumer dead-letters a message from a forged publisher, runs no handler and counts it', async () => {
    const queue = 'publishers-forged';
    const { bus, handled } = await consumerOn(queue, true);
    // Straight to the queue through the default exchange, which topic permissions do not cover:
    // only the consumer's check stands between this message and the handler.
    const ch = await asUser.createConfirmChannel();
    const forged = userDeletedEnvelope();
    ch.sendToQueue(f.name(queue), Buffer.from(JSON.stringify(forged)), { persistent: true, messageId: forged.id, userId: user });
    await ch.waitForConfirms();
    await ch.close();

    const letter = await deadLetter(queue);
    expect(letter.properties.messageId).toBe(forged.id);
    expect(String(letter.properties.headers?.[ERROR_HEADER])).toBe(`refused: user.deleted from broker user '${user}', which the broker manifest does not list as its publisher (gateway)`);
    expect(handled).toEqual([]);
    const counted = await bus.metrics.registry.getSingleMetricAsString('warmline_consumer_messages_total');
    expect(counted).toMatch(new RegExp(`\\{(?=[^}]*queue="${queue}")(?=[^}]*outcome="refused_publisher")[^}]*\\} 1\\n`));
    expect(f.logLines.some((l) => l.alert === 'forged_publisher' && l.brokerUser === user)).toBe(true);
  });

  it('in production the local guest, or a message with no user_id, is no publisher either', async () => {
    const queue = 'publishers-production';
    const { handled } = await consumerOn(queue, false);
    const ch = await f.amqp.createConfirmChannel();
    const unattributed = userDeletedEnvelope();
    ch.sendToQueue(f.name(queue), Buffer.from(JSON.stringify(unattributed)), { persistent: true, messageId: unattributed.id });
    await ch.waitForConfirms();
    await ch.close();
    const letter = await deadLetter(queue);
    expect(String(letter.properties.headers?.[ERROR_HEADER])).toMatch(/^refused: user.deleted from broker user \(none\)/);
    expect(handled).toEqual([]);
  });

  it('in production a copy the consumer republished itself (its own user, the publisher it verified) passes, through a retry too; the same header from another user does not', async () => {
    // This bus connects as guest, so guest is "its own user" here, as orders is the orders consumer's.
    const queue = 'publishers-own-copy';
    const { handled } = await consumerOn(queue, false, true);
    const own = userDeletedEnvelope();
    const ch = await f.amqp.createConfirmChannel();
    ch.sendToQueue(f.name(queue), Buffer.from(JSON.stringify(own)), { persistent: true, messageId: own.id, userId: 'guest', headers: { 'warmline-publisher': 'gateway' } });
    await ch.waitForConfirms();
    await ch.close();
    await waitFor('the copy to be handled after its retry', () => handled.includes(own.id));

    const forged = userDeletedEnvelope();
    const as = await asUser.createConfirmChannel();
    as.sendToQueue(f.name(queue), Buffer.from(JSON.stringify(forged)), { persistent: true, messageId: forged.id, userId: user, headers: { 'warmline-publisher': 'gateway' } });
    await as.waitForConfirms();
    await as.close();
    const letter = await deadLetter(queue);
    expect(letter.properties.messageId).toBe(forged.id);
    expect(letter.properties.headers?.['warmline-publisher']).toBeUndefined();
    expect(handled).toEqual([own.id]);
  });
});
