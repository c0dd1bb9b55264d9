import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { consumerQueues, publishers, UNROUTED_QUEUE } from '../bus/broker-manifest';
import { envelopeSchema, type Envelope } from '../bus/envelope';
import { commandExamples, eventExamples } from '../bus/message-examples';
import { COMMANDS_EXCHANGE, EVENTS_EXCHANGE, commands, events, type MessageType } from '../bus/messages';

/**
 * The event catalog for analysts and integrators (AsyncAPI 3.1), generated from the zod schemas,
 * the examples and the broker manifest so it cannot drift: one channel per message type (its
 * routing key on warmline.events or warmline.commands), one per consumer queue; a `send`
 * operation per publisher, a `receive` operation per queue. `npm run docs:events` writes
 * docs/events/asyncapi.json (a test fails when the committed file is stale), and the gateway
 * serves the same document at ASYNCAPI_URL_PATH.
 */

/** Where the gateway serves the document. */
export const ASYNCAPI_URL_PATH = '/api/asyncapi.json';

/** The committed copy (`npm run docs:events`). */
export const ASYNCAPI_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/events/asyncapi.json');

/** AMQP bindings of AsyncAPI's bindings repository, version 0.3.0. */
const AMQP_BINDING_VERSION = '0.3.0';

const messageId = (type: string, version: string | number) => `${type}.v${version}`;
const queueChannelId = (queue: string) => `queue.${queue}`;

/** Example envelopes share these fields; only type, version and data differ. */
function exampleEnvelope(type: MessageType, version: number, data: unknown, source: string): Envelope {
  return {
    id: '3b1f6c2e-9a4d-4e7b-8c5f-0d2a1e3b4c5d',
    type,
    version,
    occurredAt: '2025-03-14T15:09:26.000Z',
    source,
    correlationId: 'req-8f14e45f',
    data,
  };
}

export function buildAsyncApiDocument(): Record<string, unknown> {
  const channels: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const examples: Record<string, unknown> = { ...eventExamples, ...commandExamples };

  const addMessages = (table: Record<string, Record<number, z.ZodType>>, kind: 'event' | 'command') => {
    const exchange = kind === 'event' ? EVENTS_EXCHANGE : COMMANDS_EXCHANGE;
    for (const [type, versions] of Object.entries(table)) {
      const latest = Math.max(...Object.keys(versions).map(Number));
      const channelMessages: Record<string, unknown> = {};
      for (const [version, schema] of Object.entries(versions)) {
        const id = messageId(type, version);
        const producers = publishers[type as MessageType] ?? [];
        messages[id] = {
          name: type,
          title: `${type} v${version}`,
          summary:
            kind === 'event'
              ? `Event on ${EVENTS_EXCHANGE}, published by ${producers.join(', ')}`
              : `Command on ${COMMANDS_EXCHANGE}, sent by ${producers.join(', ')} (never on the events exchange: analysts cannot tap it)`,
          contentType: 'application/json',
          // The AMQP properties the outbox relay sets: type = routing key, messageId = envelope id.
          bindings: { amqp: { messageType: type, bindingVersion: AMQP_BINDING_VERSION } },
          payload: z.toJSONSchema(envelopeSchema.extend({ type: z.literal(type), version: z.literal(Number(version)), data: schema }), {
            io: 'output',
            target: 'draft-7',
          }),
          ...(Number(version) === latest && type in examples
            ? {
                examples: [
                  { name: `${type}-example`, payload: exampleEnvelope(type as MessageType, latest, examples[type], producers[0] ?? 'unknown') },
                ],
              }
            : {}),
        };
        channelMessages[id] = { $ref: `#/components/messages/${id}` };
      }
      channels[type] = {
        address: type,
        title: type,
        description: `Routing key '${type}' on the ${kind === 'event' ? 'topic' : 'direct'} exchange '${exchange}'.`,
        messages: channelMessages,
        bindings: {
          amqp: {
            is: 'routingKey',
            exchange: { name: exchange, type: kind === 'event' ? 'topic' : 'direct', durable: true, autoDelete: false, vhost: '/' },
            bindingVersion: AMQP_BINDING_VERSION,
          },
        },
      };
      // Who writes it: each producer writes it to its outbox, and its relay publishes it.
      for (const publisher of publishers[type as MessageType] ?? []) {
        operations[`${publisher}.send.${type}`] = {
          action: 'send',
          title: `${publisher} sends ${type}`,
          summary: `${publisher} writes ${type} to its outbox in the transaction of the change; the outbox relay publishes it once committed.`,
          channel: { $ref: `#/channels/${type}` },
        };
      }
    }
  };
  addMessages(events, 'event');
  addMessages(commands, 'command');

  // Who receives it: the manifest's consumer queues, each bound to its message types.
  for (const q of consumerQueues) {
    const channelId = queueChannelId(q.queue);
    const queueMessages = Object.fromEntries(
      q.messages.flatMap((type) =>
        Object.keys({ ...events, ...commands }[type]).map((version) => [messageId(type, version), { $ref: `#/components/messages/${messageId(type, version)}` }]),
      ),
    );
    channels[channelId] = {
      address: q.queue,
      title: `${q.consumer}'s queue ${q.queue}`,
      description: `${q.purpose} Bound to: ${q.messages.join(', ')}. Failed messages wait in ${q.queue}.retry and end in ${q.queue}.dlq.`,
      messages: queueMessages,
      bindings: {
        amqp: {
          is: 'queue',
          queue: { name: q.queue, durable: true, exclusive: false, autoDelete: false, vhost: '/' },
          bindingVersion: AMQP_BINDING_VERSION,
        },
      },
    };
    operations[`${q.queue}.receive`] = {
      action: 'receive',
      title: `${q.consumer} receives from ${q.queue}`,
      summary: `${q.consumer} consumes queue ${q.queue}.`,
      channel: { $ref: `#/channels/${channelId}` },
      messages: Object.keys(queueMessages).map((id) => ({ $ref: `#/channels/${channelId}/messages/${id}` })),
    };
  }

  return {
    asyncapi: '3.1.0',
    info: {
      title: 'WarmLine events and commands',
      version: '1.0.0',
      description:
        'Every message travels as JSON in the envelope { id, type, version, occurredAt, source, correlationId, data }; ' +
        'the AMQP properties repeat type, messageId (= id), correlationId and appId (= source). ' +
        `Events are published on the topic exchange ${EVENTS_EXCHANGE} (routing key = type) and carry ids and business facts only; ` +
        `analysts bind queues of their own to it (\`npm run tap -- 'payment.*'\`). ` +
        `Commands go to the direct exchange ${COMMANDS_EXCHANGE}, exactly one queue each, and may carry personal data or secrets: ` +
        `they are never visible to analysts. An event no queue is bound to lands in ${UNROUTED_QUEUE}.`,
    },
    defaultContentType: 'application/json',
    channels,
    operations,
    components: { messages },
  };
}

export function renderAsyncApi(): string {
  return `${JSON.stringify(buildAsyncApiDocument(), null, 2)}\n`;
}
