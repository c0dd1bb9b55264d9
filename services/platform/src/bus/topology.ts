import type { Channel, Message, Options } from 'amqplib';
import { COMMANDS_EXCHANGE, EVENTS_EXCHANGE, exchangeFor, type MessageType } from '@warmline/contracts';

/**
 * The broker layout (ARCHITECTURE §3). Every name goes through `name()` so a test run's
 * namespace keeps it apart from every other run on the same broker.
 *
 * Per consumer queue Q:
 *   Q        durable, bound to the routing keys it subscribes to
 *   Q.retry  failed messages wait here for their per-message TTL, then RabbitMQ dead-letters
 *            them back to Q through the default exchange. TTLs expire only at the head of a
 *            queue, so a message waiting 30 s can hold back a 1 s one queued behind it: a
 *            retry may come late, never lost.
 *   Q.dlq    messages that failed every attempt, or could not be parsed; inspected and
 *            replayed with `npm run dlq`
 */

type NameFn = (base: string) => string;

/** Failed deliveries so far; classic queues have no delivery limit, so we count ourselves. */
export const ATTEMPTS_HEADER = 'warmline-attempts';
/** Why the last attempt failed (handler error, or why the message could not be parsed). */
export const ERROR_HEADER = 'warmline-error';

export async function assertExchanges(channel: Channel, name: NameFn): Promise<void> {
  await channel.assertExchange(name(EVENTS_EXCHANGE), 'topic', { durable: true });
  await channel.assertExchange(name(COMMANDS_EXCHANGE), 'direct', { durable: true });
}

export function queueNames(queue: string, name: NameFn) {
  const main = name(queue);
  return { main, retry: `${main}.retry`, dlq: `${main}.dlq` };
}

export async function assertConsumerQueues(
  channel: Channel,
  name: NameFn,
  queue: string,
  types: readonly MessageType[],
): Promise<void> {
  const q = queueNames(queue, name);
  await channel.assertQueue(q.main, { durable: true });
  await channel.assertQueue(q.retry, {
    durable: true,
    deadLetterExchange: '',
    deadLetterRoutingKey: q.main,
  });
  await channel.assertQueue(q.dlq, { durable: true });
  // Commands go through the direct commands exchange, events through the topic one.
  for (const type of types) await channel.bindQueue(q.main, name(exchangeFor(type)), type);
}

/**
 * Publish options that carry a message on unchanged except for our own headers; a header
 * given as undefined is removed.
 */
export function republishOptions(message: Message, headers: Record<string, unknown>): Options.Publish {
  const p = message.properties;
  const kept = { ...(p.headers ?? {}) };
  // RabbitMQ's own dead-letter history would grow with every retry cycle; our headers say enough.
  delete kept['x-death'];
  delete kept['x-first-death-exchange'];
  delete kept['x-first-death-queue'];
  delete kept['x-first-death-reason'];
  delete kept['x-last-death-exchange'];
  delete kept['x-last-death-queue'];
  delete kept['x-last-death-reason'];
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
