import type { Channel, ChannelModel, ConfirmChannel, Message, Options } from 'amqplib';
import {
  brokerManifest,
  COMMANDS_EXCHANGE,
  EVENTS_EXCHANGE,
  exchangeFor,
  UNROUTED_EXCHANGE,
  UNROUTED_QUEUE,
  type MessageType,
} from '@warmline/contracts';
import type { Logger } from '../log';

/**
 * The broker layout (ARCHITECTURE §3), declared whole by every service at every connect from
 * the manifest in contracts, so an event published before its consumer ever ran waits in the
 * consumer's queue. Every name goes through `name()` so a test run's namespace keeps it apart.
 *
 *   warmline.events     topic; its alternate exchange takes what no queue is bound to
 *   warmline.commands   direct; the relay publishes commands `mandatory`, so one nobody can
 *                       receive comes back and stays in the outbox
 *   warmline.unrouted   fanout → queue warmline.unrouted (bounded, see UNROUTED_ARGS)
 *
 * Per consumer queue Q:
 *   Q        quorum queue, bound to the types it consumes; `x-delivery-limit` is the broker's
 *            backstop (the consumer dead-letters a message that keeps dying well before)
 *   Q.retry  failed messages wait here for their per-message TTL, then go back to Q. TTLs
 *            expire only at the head of a queue, so a retry may come late, never lost.
 *   Q.dlq    messages that failed every attempt, could not be parsed, or kept killing their
 *            consumer; inspected and replayed with `npm run dlq`
 */

type NameFn = (base: string) => string;

/** A consumer queue of the layout: its name without namespace and the types bound to it. */
export interface TopologyQueue {
  queue: string;
  messages: readonly string[];
}

export interface Topology {
  queues: readonly TopologyQueue[];
  /** Queues no longer consumed: unbound at start, deleted once empty. */
  retiredQueues?: readonly TopologyQueue[];
}

export const MANIFEST_TOPOLOGY: Topology = brokerManifest;

/** Failed handler runs so far (a retry republishes the message, so the broker cannot count them). */
export const ATTEMPTS_HEADER = 'warmline-attempts';
/** Why the last attempt failed (handler error, or why the message could not be parsed). */
export const ERROR_HEADER = 'warmline-error';
/** Set on a dead letter whose data was removed because it held a secret. */
export const REDACTED_HEADER = 'warmline-redacted';

/**
 * Deliveries after which the broker itself dead-letters a message. Far above the consumer's
 * own limit (which counts only handler runs that never finished), because the broker also
 * counts every message that merely sat unacknowledged in a consumer that died.
 */
export const BROKER_DELIVERY_LIMIT = 50;

/** What nobody consumes is kept a week, at most 100,000 messages, oldest dropped first. */
const UNROUTED_ARGS = { 'x-message-ttl': 7 * 24 * 3600 * 1000, 'x-max-length': 100_000 };

export function queueNames(queue: string, name: NameFn) {
  const main = name(queue);
  return { main, retry: `${main}.retry`, dlq: `${main}.dlq`, holding: `${main}.migrating` };
}

function mainQueueOptions(q: ReturnType<typeof queueNames>): Options.AssertQueue {
  return {
    durable: true,
    arguments: {
      'x-queue-type': 'quorum',
      'x-delivery-limit': BROKER_DELIVERY_LIMIT,
      'x-dead-letter-exchange': '',
      'x-dead-letter-routing-key': q.dlq,
    },
  };
}

function eventsExchangeOptions(name: NameFn): Options.AssertExchange {
  return { durable: true, alternateExchange: name(UNROUTED_EXCHANGE) };
}

/**
 * Declares the whole layout on `connection`. An exchange or queue that an older release
 * declared with other arguments (classic consumer queues, an events exchange without its
 * alternate exchange) is migrated in place, keeping every message it holds.
 */
export async function declareTopology(connection: ChannelModel, name: NameFn, topology: Topology, log: Logger): Promise<void> {
  const channel = await connection.createConfirmChannel();
  channel.on('error', () => undefined); // failures reach us through the rejected call
  try {
    await channel.assertExchange(name(UNROUTED_EXCHANGE), 'fanout', { durable: true });
    await channel.assertQueue(name(UNROUTED_QUEUE), { durable: true, arguments: UNROUTED_ARGS });
    await channel.bindQueue(name(UNROUTED_QUEUE), name(UNROUTED_EXCHANGE), '');
    await channel.assertExchange(name(COMMANDS_EXCHANGE), 'direct', { durable: true });
  } finally {
    await channel.close().catch(() => undefined);
  }
  if (!(await declares(connection, (ch) => ch.assertExchange(name(EVENTS_EXCHANGE), 'topic', eventsExchangeOptions(name))))) {
    // An exchange cannot change its arguments: delete and declare it again. Its bindings go
    // with it and are made again below; a publish in between fails unconfirmed and stays in
    // the outbox for the next try.
    log.warn({ exchange: name(EVENTS_EXCHANGE) }, 'migrating the events exchange to one with an alternate exchange');
    await withChannel(connection, async (ch) => {
      await ch.deleteExchange(name(EVENTS_EXCHANGE));
      await ch.assertExchange(name(EVENTS_EXCHANGE), 'topic', eventsExchangeOptions(name));
    });
  }
  for (const queue of topology.queues) await declareConsumerQueue(connection, name, queue, log);
  for (const queue of topology.retiredQueues ?? []) await retireQueue(connection, name, queue, log);
}

/** Stops a retired queue from filling and deletes it (with its retry queue and DLQ) once empty. */
async function retireQueue(connection: ChannelModel, name: NameFn, queue: TopologyQueue, log: Logger): Promise<void> {
  const q = queueNames(queue.queue, name);
  if (!(await exists(connection, q.main))) return;
  await withChannel(connection, async (ch) => {
    await unbindAll(ch, name, q.main, queue.messages);
    for (const each of [q.main, q.retry, q.dlq]) {
      if (!(await exists(connection, each))) continue;
      const { messageCount } = await ch.checkQueue(each);
      if (messageCount === 0) await ch.deleteQueue(each, { ifEmpty: true }).catch(() => undefined);
      else log.warn({ queue: each, messages: messageCount }, 'a retired queue still holds messages; kept for an operator to look at');
    }
  });
}

/** Q.retry, Q.dlq and Q with its bindings; Q migrated when it exists with other arguments. */
export async function declareConsumerQueue(connection: ChannelModel, name: NameFn, queue: TopologyQueue, log: Logger): Promise<void> {
  const q = queueNames(queue.queue, name);
  await withChannel(connection, async (ch) => {
    await ch.assertQueue(q.retry, { durable: true, deadLetterExchange: '', deadLetterRoutingKey: q.main });
    await ch.assertQueue(q.dlq, { durable: true });
  });
  const declared = await declares(connection, (ch) => ch.assertQueue(q.main, mainQueueOptions(q)));
  if (!declared) await migrateQueue(connection, name, queue, log);
  await withChannel(connection, async (ch) => {
    await bindAll(ch, name, q.main, queue.messages);
    // A migration that died half-way left its holding queue: finish it.
    if (await exists(connection, q.holding)) await moveAll(ch, q.holding, q.main);
    if (await exists(connection, q.holding)) await ch.deleteQueue(q.holding, { ifEmpty: true }).catch(() => undefined);
  });
}

/**
 * Re-declares Q with today's arguments without losing a message: a holding queue is bound
 * like Q and takes Q's messages, Q is declared anew and bound, the holding queue is unbound
 * and its messages moved back. Some message may be copied to both while both are bound;
 * processed_events makes the second copy a no-op.
 */
async function migrateQueue(connection: ChannelModel, name: NameFn, queue: TopologyQueue, log: Logger): Promise<void> {
  const q = queueNames(queue.queue, name);
  log.warn({ queue: q.main }, 'migrating a consumer queue declared with other arguments (moving its messages)');
  const moved = await withChannel(connection, async (ch) => {
    await ch.assertQueue(q.holding, { durable: true });
    await bindAll(ch, name, q.holding, queue.messages);
    const count = await moveAll(ch, q.main, q.holding);
    await ch.deleteQueue(q.main);
    return count;
  });
  // A fresh channel: RabbitMQ 3.10's channel remembers the deleted classic queue by name and
  // crashes when it then delivers to the quorum queue of the same name.
  await withChannel(connection, async (ch) => {
    await ch.assertQueue(q.main, mainQueueOptions(q));
    await bindAll(ch, name, q.main, queue.messages);
    await unbindAll(ch, name, q.holding, queue.messages);
    await moveAll(ch, q.holding, q.main);
    await ch.deleteQueue(q.holding, { ifEmpty: true });
    log.info({ queue: q.main, moved }, 'consumer queue migrated');
  });
}

async function bindAll(ch: Channel, name: NameFn, queue: string, messages: readonly string[]): Promise<void> {
  // Commands go through the direct commands exchange, events through the topic one.
  for (const type of messages) await ch.bindQueue(queue, name(exchangeFor(type as MessageType)), type);
}

async function unbindAll(ch: Channel, name: NameFn, queue: string, messages: readonly string[]): Promise<void> {
  for (const type of messages) await ch.unbindQueue(queue, name(exchangeFor(type as MessageType)), type);
}

/** Moves every message of `from` to `to`, each acked only after the broker confirms its copy. */
async function moveAll(ch: ConfirmChannel, from: string, to: string): Promise<number> {
  let moved = 0;
  for (;;) {
    const msg = await ch.get(from, { noAck: false });
    if (!msg) break;
    ch.sendToQueue(to, msg.content, republishOptions(msg, {}));
    await ch.waitForConfirms();
    ch.ack(msg);
    moved += 1;
  }
  return moved;
}

/** True when the declaration succeeds; false when the broker refuses it as a mismatch (406). */
async function declares(connection: ChannelModel, declare: (ch: Channel) => Promise<unknown>): Promise<boolean> {
  const ch = await connection.createChannel();
  ch.on('error', () => undefined);
  try {
    await declare(ch);
    return true;
  } catch (err) {
    if ((err as { code?: number }).code === 406) return false;
    throw err;
  } finally {
    await ch.close().catch(() => undefined);
  }
}

async function exists(connection: ChannelModel, queue: string): Promise<boolean> {
  const ch = await connection.createChannel();
  ch.on('error', () => undefined);
  try {
    await ch.checkQueue(queue);
    return true;
  } catch (err) {
    if ((err as { code?: number }).code === 404) return false;
    throw err;
  } finally {
    await ch.close().catch(() => undefined);
  }
}

async function withChannel<T>(connection: ChannelModel, work: (ch: ConfirmChannel) => Promise<T>): Promise<T> {
  const ch = await connection.createConfirmChannel();
  ch.on('error', () => undefined);
  try {
    return await work(ch);
  } finally {
    await ch.close().catch(() => undefined);
  }
}

/**
 * Publish options that carry a message on unchanged except for our own headers; a header
 * given as undefined is removed.
 */
export function republishOptions(message: Message, headers: Record<string, unknown>): Options.Publish {
  const p = message.properties;
  const kept = { ...(p.headers ?? {}) };
  // RabbitMQ's own dead-letter and delivery-count headers would grow with every cycle; ours say enough.
  for (const key of Object.keys(kept)) {
    if (key === 'x-death' || key.startsWith('x-first-death-') || key.startsWith('x-last-death-') || key === 'x-delivery-count') {
      delete kept[key];
    }
  }
  const merged: Record<string, unknown> = { ...kept, ...headers };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  return {
    persistent: true,
    contentType: p.contentType,
    messageId: p.messageId,
    correlationId: p.correlationId,
    type: p.type,
    timestamp: p.timestamp,
    appId: p.appId,
    headers: merged,
  };
}
