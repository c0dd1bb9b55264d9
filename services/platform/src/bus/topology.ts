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
 * The broker layout (ARCHITECTURE §3), from the manifest in contracts: migrated once per
 * release by the migration step (migrateTopology), asserted by every process at every connect
 * (assertTopology), so an event published before its consumer ever ran waits in the
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
/**
 * The publisher a consumer verified, on the copy it republishes to its retry queue or DLQ
 * (whose user_id is then the consumer's own user); trusted only on a message whose user_id is
 * the consumer's own (docs/adr/0039).
 */
export const PUBLISHER_HEADER = 'warmline-publisher';
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

/** The layout on the broker is not (or not yet) today's: the migration step has not run. */
export class LayoutNotMigratedError extends Error {}

/**
 * What a process does at every connect: asserts the layout with exactly the arguments the
 * migration declares, so a missing exchange, queue or binding is made (declaring the same
 * thing twice at once is harmless) and nothing is ever deleted or moved. One still declared
 * with an older release's arguments, or a migration's holding queue, means the migration step
 * (`make migrate`, the Kubernetes migration Job) has not run yet: LayoutNotMigratedError, and
 * the bus waits and tries again.
 */
export async function assertTopology(connection: ChannelModel, name: NameFn, topology: Topology): Promise<void> {
  await assertFixedExchanges(connection, name);
  const notMigrated = (what: string) =>
    new LayoutNotMigratedError(`${what} is declared with an older release's arguments; run the broker migration (make migrate, or infra/scripts/migrate.ts --broker-only)`);
  if (!(await unlessPreconditionFailed(connection, (ch) => ch.assertExchange(name(EVENTS_EXCHANGE), 'topic', eventsExchangeOptions(name))))) {
    throw notMigrated(`exchange ${name(EVENTS_EXCHANGE)}`);
  }
  for (const queue of topology.queues) await assertConsumerQueue(connection, name, queue);
}

/** Q.retry, Q.dlq and Q with its bindings, asserted only (see assertTopology). */
export async function assertConsumerQueue(connection: ChannelModel, name: NameFn, queue: TopologyQueue): Promise<void> {
  const q = queueNames(queue.queue, name);
  if (!(await unlessPreconditionFailed(connection, (ch) => ch.assertQueue(q.main, mainQueueOptions(q))))) {
    throw new LayoutNotMigratedError(`queue ${q.main} is declared with an older release's arguments; run the broker migration`);
  }
  if (await exists(connection, q.holding)) {
    throw new LayoutNotMigratedError(`queue ${q.main} is being migrated (${q.holding} exists); waiting for the broker migration`);
  }
  await withChannel(connection, async (ch) => {
    await ch.assertQueue(q.retry, retryQueueOptions(q));
    await ch.assertQueue(q.dlq, { durable: true });
    await bindAll(ch, name, q.main, queue.messages);
  });
}

async function assertFixedExchanges(connection: ChannelModel, name: NameFn): Promise<void> {
  await withChannel(connection, async (channel) => {
    await channel.assertExchange(name(UNROUTED_EXCHANGE), 'fanout', { durable: true });
    await channel.assertQueue(name(UNROUTED_QUEUE), { durable: true, arguments: UNROUTED_ARGS });
    await channel.bindQueue(name(UNROUTED_QUEUE), name(UNROUTED_EXCHANGE), '');
    await channel.assertExchange(name(COMMANDS_EXCHANGE), 'direct', { durable: true });
  });
}

function retryQueueOptions(q: ReturnType<typeof queueNames>): Options.AssertQueue {
  return { durable: true, deadLetterExchange: '', deadLetterRoutingKey: q.main };
}

/** The exclusive queue that lets one broker migration run at a time (see migrateTopology). */
const MIGRATION_LOCK_QUEUE = 'warmline.layout-migration-lock';
const LOCK_WAIT_MS = { retry: 250, max: 5 * 60_000 };

/**
 * The broker layout migration (docs/adr/0038), run once per release by the migration step,
 * never by a serving process: declares the whole layout, and migrates in place what an older
 * release declared with other arguments (classic consumer queues, an events exchange without
 * its alternate exchange), keeping every message; unbinds retired queues and deletes them once
 * empty.
 *
 * Two runs at once (two migration Jobs, a developer's `make migrate` beside a test) are
 * serialised by an exclusive queue: the broker lets one connection hold it and drops it with
 * that connection, so a run that dies frees the lock. Every delete is `ifEmpty` besides, so
 * even a run that somehow went ahead could not drop a message the other has just moved.
 */
export async function migrateTopology(connection: ChannelModel, name: NameFn, topology: Topology, log: Logger): Promise<void> {
  const lock = await takeMigrationLock(connection, name, log);
  try {
    await assertFixedExchanges(connection, name);
    if (!(await unlessPreconditionFailed(connection, (ch) => ch.assertExchange(name(EVENTS_EXCHANGE), 'topic', eventsExchangeOptions(name))))) {
      // An exchange cannot change its arguments: delete and declare it again. Its bindings go
      // with it and are made again below; a publish in between fails unconfirmed and stays in
      // the outbox for the next try.
      log.warn({ exchange: name(EVENTS_EXCHANGE) }, 'migrating the events exchange to one with an alternate exchange');
      await withChannel(connection, async (ch) => {
        await ch.deleteExchange(name(EVENTS_EXCHANGE));
        await ch.assertExchange(name(EVENTS_EXCHANGE), 'topic', eventsExchangeOptions(name));
      });
    }
    for (const queue of topology.queues) await migrateConsumerQueue(connection, name, queue, log);
    for (const queue of topology.retiredQueues ?? []) await retireQueue(connection, name, queue, log);
  } finally {
    // An exclusive queue outlives its channel: delete it (the connection's end would too).
    await lock.deleteQueue(name(MIGRATION_LOCK_QUEUE)).catch(() => undefined);
    await lock.close().catch(() => undefined);
  }
}

/** Takes the migration lock: an exclusive queue, held until deleted or the connection ends. */
async function takeMigrationLock(connection: ChannelModel, name: NameFn, log: Logger): Promise<Channel> {
  const started = Date.now();
  let logged = false;
  for (;;) {
    const ch = await connection.createChannel();
    ch.on('error', () => undefined);
    try {
      await ch.assertQueue(name(MIGRATION_LOCK_QUEUE), { exclusive: true, durable: false, autoDelete: true });
      return ch;
    } catch (err) {
      await ch.close().catch(() => undefined);
      // 405 RESOURCE_LOCKED: another connection holds the exclusive queue.
      if ((err as { code?: number }).code !== 405) throw err;
      if (Date.now() - started > LOCK_WAIT_MS.max) throw new Error(`another broker migration has held ${name(MIGRATION_LOCK_QUEUE)} for over ${LOCK_WAIT_MS.max / 1000} s`);
      if (!logged) log.info({ lock: name(MIGRATION_LOCK_QUEUE) }, 'another broker migration is running; waiting for it');
      logged = true;
      await new Promise((r) => setTimeout(r, LOCK_WAIT_MS.retry));
    }
  }
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
      if (messageCount === 0) await deleteIfEmpty(connection, each);
      else log.warn({ queue: each, messages: messageCount }, 'a retired queue still holds messages; kept for an operator to look at');
    }
  });
}

/** Q.retry, Q.dlq and Q with its bindings; Q migrated when it exists with other arguments. */
async function migrateConsumerQueue(connection: ChannelModel, name: NameFn, queue: TopologyQueue, log: Logger): Promise<void> {
  const q = queueNames(queue.queue, name);
  await withChannel(connection, async (ch) => {
    await ch.assertQueue(q.retry, retryQueueOptions(q));
    await ch.assertQueue(q.dlq, { durable: true });
  });
  const declared = await unlessPreconditionFailed(connection, (ch) => ch.assertQueue(q.main, mainQueueOptions(q)));
  if (!declared) await migrateQueue(connection, name, queue, log);
  await withChannel(connection, async (ch) => {
    await bindAll(ch, name, q.main, queue.messages);
    // A migration that died half-way left its holding queue: finish it.
    if (await exists(connection, q.holding)) await drainInto(connection, ch, name, queue, q.holding, q.main);
  });
}

/**
 * Re-declares Q with today's arguments without losing a message: a holding queue is bound
 * like Q and takes Q's messages, Q is declared anew and bound, the holding queue is unbound
 * and its messages moved back. Some message may be copied to both while both are bound;
 * processed_events makes the second copy a no-op. Q is deleted only once empty: a message
 * that arrived meanwhile is moved first.
 */
async function migrateQueue(connection: ChannelModel, name: NameFn, queue: TopologyQueue, log: Logger): Promise<void> {
  const q = queueNames(queue.queue, name);
  log.warn({ queue: q.main }, 'migrating a consumer queue declared with other arguments (moving its messages)');
  let moved = 0;
  await withChannel(connection, async (ch) => {
    await ch.assertQueue(q.holding, { durable: true });
    await bindAll(ch, name, q.holding, queue.messages);
    // Unbound first, so nothing new arrives while it empties.
    await unbindAll(ch, name, q.main, queue.messages);
  });
  for (;;) {
    moved += await withChannel(connection, (ch) => moveAll(ch, q.main, q.holding));
    if (await deleteIfEmpty(connection, q.main)) break;
  }
  // A fresh channel: RabbitMQ 3.10's channel remembers the deleted classic queue by name and
  // crashes when it then delivers to the quorum queue of the same name.
  await withChannel(connection, async (ch) => {
    await ch.assertQueue(q.main, mainQueueOptions(q));
    await bindAll(ch, name, q.main, queue.messages);
    await drainInto(connection, ch, name, queue, q.holding, q.main);
  });
  log.info({ queue: q.main, moved }, 'consumer queue migrated');
}

/** Unbinds the holding queue, moves what it holds into Q and deletes it once empty. */
async function drainInto(connection: ChannelModel, ch: ConfirmChannel, name: NameFn, queue: TopologyQueue, holding: string, main: string): Promise<void> {
  await unbindAll(ch, name, holding, queue.messages);
  for (;;) {
    await moveAll(ch, holding, main);
    if (await deleteIfEmpty(connection, holding)) return;
  }
}

/** Deletes `queue` only if it holds nothing (true when gone); a message that arrived keeps it. */
function deleteIfEmpty(connection: ChannelModel, queue: string): Promise<boolean> {
  // 406 PRECONDITION_FAILED here: not empty.
  return unlessPreconditionFailed(connection, (ch) => ch.deleteQueue(queue, { ifEmpty: true }));
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
    // In batches: one confirm round trip per batch rather than per message.
    const batch: Message[] = [];
    while (batch.length < MOVE_BATCH) {
      const msg = await ch.get(from, { noAck: false });
      if (!msg) break;
      ch.sendToQueue(to, msg.content, republishOptions(msg, {}));
      batch.push(msg);
    }
    if (batch.length === 0) return moved;
    await ch.waitForConfirms();
    for (const msg of batch) ch.ack(msg);
    moved += batch.length;
  }
}
const MOVE_BATCH = 100;

/**
 * True when the broker does `work`; false when it refuses with 406 PRECONDITION_FAILED (a
 * declaration whose arguments differ from what exists, a delete `ifEmpty` of a queue that is not).
 */
async function unlessPreconditionFailed(connection: ChannelModel, work: (ch: Channel) => Promise<unknown>): Promise<boolean> {
  const ch = await connection.createChannel();
  ch.on('error', () => undefined);
  try {
    await work(ch);
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
