import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { envelopeSchema } from './envelope';
import { consumersOf, publishers } from './broker-manifest';
import { COMMANDS_EXCHANGE, EVENTS_EXCHANGE, commands, events, type MessageType } from './messages';

/**
 * The event catalog for analysts, generated from the zod schemas so it cannot drift:
 * `npm run docs:events` writes docs/events/asyncapi.json and a test fails when the committed
 * file is not what the schemas say. Only events are published to analysts; commands are
 * listed so operators see the whole traffic, marked as not tappable.
 */
export function buildAsyncApiDocument(): Record<string, unknown> {
  const channels: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const add = (table: Record<string, Record<number, z.ZodType>>, exchange: string, kind: string) => {
    for (const [type, versions] of Object.entries(table)) {
      for (const [version, schema] of Object.entries(versions)) {
        const id = `${type}.v${version}`;
        messages[id] = {
          name: type,
          title: `${type} v${version}`,
          summary: kind === 'event' ? 'Event (published on warmline.events)' : 'Command (warmline.commands; not visible to analysts)',
          contentType: 'application/json',
          payload: z.toJSONSchema(envelopeSchema.extend({ data: schema }), { io: 'output' }),
        };
        channels[type] = {
          address: type,
          description: `Routing key '${type}' on exchange '${exchange}'`,
          messages: { [id]: { $ref: `#/components/messages/${id}` } },
          bindings: { amqp: { is: 'routingKey', exchange: { name: exchange, type: kind === 'event' ? 'topic' : 'direct', durable: true } } },
        };
        // Who sends and who receives, from the broker manifest (each service declares it at start).
        for (const publisher of publishers[type as MessageType] ?? []) {
          operations[`${publisher}.send.${type}`] = {
            action: 'send',
            channel: { $ref: `#/channels/${type}` },
            summary: `${publisher} writes ${type} to its outbox; the relay publishes it`,
          };
        }
        for (const queue of consumersOf(type as MessageType)) {
          operations[`${queue.queue}.receive.${type}`] = {
            action: 'receive',
            channel: { $ref: `#/channels/${type}` },
            summary: `${queue.consumer} consumes it from queue ${queue.queue}: ${queue.purpose}`,
            bindings: { amqp: { queue: { name: queue.queue, durable: true } } },
          };
        }
      }
    }
  };
  add(events, EVENTS_EXCHANGE, 'event');
  add(commands, COMMANDS_EXCHANGE, 'command');
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'WarmLine events and commands',
      version: '1.0.0',
      description:
        'Every message travels in the envelope { id, type, version, occurredAt, source, correlationId, data }. ' +
        'Analysts bind their own queues to the topic exchange warmline.events (routing key = type).',
    },
    defaultContentType: 'application/json',
    channels,
    operations,
    components: { messages },
  };
}

export const ASYNCAPI_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/events/asyncapi.json');

export function renderAsyncApi(): string {
  return `${JSON.stringify(buildAsyncApiDocument(), null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1]) && process.argv.includes('--write')) {
  mkdirSync(path.dirname(ASYNCAPI_PATH), { recursive: true });
  writeFileSync(ASYNCAPI_PATH, renderAsyncApi());
  process.stdout.write(`wrote ${ASYNCAPI_PATH}\n`);
}
