import { randomBytes } from 'node:crypto';
import amqp, { type Channel, type ChannelModel, type ConsumeMessage } from 'amqplib';
import {
  brokerManifest,
  envelopeSchema,
  EVENTS_EXCHANGE,
  events,
  UNROUTED_QUEUE,
  type EventType,
} from '@warmline/contracts';
import type { Logger } from '../log';

/**
 * The analysts' tap (issue 16): binds a queue of the analyst's own to warmline.events and turns
 * every event into one JSON line. It reads only that queue and never publishes: a plain channel
 * (no confirm channel), no call to publish or sendToQueue. Commands go to warmline.commands,
 * which it never binds, and the broker's `analyst` user may read nothing else
 * (infra/rabbitmq/definitions.json).
 *
 * Its queues are named `analyst.…`, the only names the analyst user may declare: the throwaway
 * one `analyst.tap.<random>` (exclusive, deleted when the tap stops), or `--durable analyst.NAME`,
 * which stays and keeps collecting between runs.
 */

/** The prefix of every queue the tap declares; the only queues the analyst user may configure. */
export const ANALYST_QUEUE_PREFIX = 'analyst.';

export const TAP_USAGE = `usage: npm run tap -- [--durable analyst.NAME] [PATTERN ...]
  PATTERN   a routing-key pattern on ${EVENTS_EXCHANGE}: words separated by '.', '*' for one word,
            '#' for any number, e.g. 'payment.*' 'leads.#' (none: every event)
  --durable analyst.NAME
            a named queue that stays when the tap stops and keeps collecting events for the next run
Prints one JSON line per event on stdout: { type, version, routingKey, id, occurredAt, source, correlationId, payload }.
Connects with RABBITMQ_ANALYST_URL, else AMQP_URL (the development credentials by default).`;

export interface TapArguments {
  patterns: string[];
  durableQueue?: string;
}

/** A word of a topic pattern: '*', '#', or letters, digits, '_' and '-'. */
const PATTERN = /^(?:\*|#|[A-Za-z0-9_-]+)(?:\.(?:\*|#|[A-Za-z0-9_-]+))*$/;
const DURABLE_NAME = /^analyst\.[a-z0-9][a-z0-9._-]{0,120}$/;

/** The command line, or why it is wrong (the CLI prints that and the usage, and exits 2). */
export function parseTapArguments(argv: readonly string[]): TapArguments | { help: true } | { error: string } {
  const patterns: string[] = [];
  let durableQueue: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return { help: true };
    if (arg === '--durable' || arg.startsWith('--durable=')) {
      const name = arg === '--durable' ? argv[++i] : arg.slice('--durable='.length);
      if (!name) return { error: '--durable needs a queue name, e.g. --durable analyst.revenue' };
      if (durableQueue !== undefined) return { error: '--durable may be given once' };
      const refused = refusedDurableQueue(name);
      if (refused) return { error: refused };
      durableQueue = name;
      continue;
    }
    if (arg.startsWith('-')) return { error: `unknown option ${arg}` };
    if (!PATTERN.test(arg)) return { error: `'${arg}' is not a routing-key pattern (words of letters, digits, _ or -, or * or #, separated by '.')` };
    if (!patterns.includes(arg)) patterns.push(arg);
  }
  return { patterns: patterns.length > 0 ? patterns : ['#'], durableQueue };
}

/**
 * Why a durable queue name is refused, or undefined when the analyst may use it. A service's
 * queue, its retries or dead letters, or the unrouted queue would let the tap take messages
 * from their consumer (or, bound again, change what they receive): only `analyst.` names.
 */
export function refusedDurableQueue(name: string): string | undefined {
  const serviceQueues = [...brokerManifest.queues, ...brokerManifest.retiredQueues].map((q) => q.queue);
  const owner = serviceQueues.find((q) => name === q || name.startsWith(`${q}.`));
  if (owner) {
    const which = name === owner ? 'a service' : name.endsWith('.dlq') ? 'the dead letters of a service' : 'the retries of a service';
    return `--durable ${name} is refused: it is ${which}'s queue (${owner}); the tap reads only queues of its own named ${ANALYST_QUEUE_PREFIX}NAME`;
  }
  if (name === UNROUTED_QUEUE) return `--durable ${name} is refused: it holds the events no queue was bound to; the tap reads only queues of its own named ${ANALYST_QUEUE_PREFIX}NAME`;
  if (!DURABLE_NAME.test(name)) {
    return `--durable ${name} is refused: a durable queue of the tap is named ${ANALYST_QUEUE_PREFIX}NAME (lower-case letters, digits, '.', '_' or '-'), e.g. analyst.revenue`;
  }
  return undefined;
}

/** Whether a topic pattern matches a routing key ('*' one word, '#' zero or more). */
export function topicMatches(pattern: string, routingKey: string): boolean {
  const match = (p: string[], k: string[]): boolean => {
    if (p.length === 0) return k.length === 0;
    const [head, ...rest] = p;
    if (head === '#') return match(rest, k) || (k.length > 0 && match(p, k.slice(1)));
    return k.length > 0 && (head === '*' || head === k[0]) && match(rest, k.slice(1));
  };
  return match(pattern.split('.'), routingKey.split('.'));
}

/** The event types a pattern matches today (a pattern that matches none is probably a typo, or a command). */
export function eventTypesMatching(pattern: string): EventType[] {
  return (Object.keys(events) as EventType[]).filter((type) => topicMatches(pattern, type));
}

/** One delivery as the line the tap prints. */
export interface TapLine {
  type: string;
  version?: number;
  routingKey: string;
  id?: string;
  occurredAt?: string;
  source?: string;
  correlationId?: string;
  /** The envelope's data; the body as text when it is not an envelope. */
  payload: unknown;
}

function tapLine(message: Pick<ConsumeMessage, 'content' | 'fields' | 'properties'>): TapLine {
  const routingKey = message.fields.routingKey;
  const text = message.content.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const envelope = envelopeSchema.safeParse(parsed);
  if (!envelope.success) {
    // Not one of ours (or broken): shown as it came, never dropped silently.
    const type = typeof message.properties.type === 'string' ? message.properties.type : routingKey;
    return { type, routingKey, payload: parsed ?? text };
  }
  const { type, version, id, occurredAt, source, correlationId, data } = envelope.data;
  return { type, version, routingKey, id, occurredAt, source, correlationId, payload: data };
}

export interface TapOptions {
  url: string;
  patterns: readonly string[];
  durableQueue?: string;
  /** Prefixes the exchange name; tests pass theirs, production none. */
  namespace?: string;
  log: Logger;
  /** Where each line goes; calls `done` once it is written (the message is acknowledged then). */
  write(line: string, done: () => void): void;
  /** The connection is gone (the broker closed it, or it failed): the tap is over. */
  onClosed(err?: Error): void;
}

export interface Tap {
  queue: string;
  stop(): Promise<void>;
}

/** At most this many events printed and not yet acknowledged (a slow pipe holds the rest in the queue). */
const PREFETCH = 200;
/** A throwaway queue whose reader stalls drops its oldest events past this, rather than fill the broker. */
const THROWAWAY_MAX_LENGTH = 100_000;

export async function startTap(options: TapOptions): Promise<Tap> {
  const { log, patterns } = options;
  const exchange = options.namespace ? `${options.namespace}.${EVENTS_EXCHANGE}` : EVENTS_EXCHANGE;
  const connection: ChannelModel = await amqp.connect(options.url, {
    clientProperties: { connection_name: 'warmline tap' },
    timeout: 10_000,
  });
  let stopping = false;
  connection.on('error', (err: Error) => log.warn({ err }, 'RabbitMQ connection error'));
  connection.on('close', (err?: Error) => {
    if (!stopping) options.onClosed(err);
  });
  try {
    // Only checked, never declared: the services own the exchange, and the analyst may not declare it.
    const probe = await connection.createChannel();
    probe.on('error', () => undefined); // a missing exchange closes it; said below
    try {
      await probe.checkExchange(exchange);
      await probe.close();
    } catch {
      throw new Error(`the exchange ${exchange} does not exist: the services declare it when they first start (make start)`);
    }
    const channel: Channel = await connection.createChannel();
    channel.on('error', (err: Error) => log.warn({ err }, 'RabbitMQ channel error'));

    const queue = options.durableQueue ?? `${ANALYST_QUEUE_PREFIX}tap.${randomBytes(6).toString('hex')}`;
    if (options.durableQueue) {
      await channel.assertQueue(queue, { durable: true, exclusive: false, autoDelete: false });
    } else {
      await channel.assertQueue(queue, {
        durable: false,
        exclusive: true,
        autoDelete: true,
        arguments: { 'x-max-length': THROWAWAY_MAX_LENGTH, 'x-overflow': 'drop-head' },
      });
    }
    for (const pattern of patterns) await channel.bindQueue(queue, exchange, pattern);
    await channel.prefetch(PREFETCH);
    const { consumerTag } = await channel.consume(queue, (message) => {
      if (!message) return;
      options.write(`${JSON.stringify(tapLine(message))}\n`, () => {
        if (!stopping) channel.ack(message);
      });
    });
    log.info({ queue, exchange, patterns, durable: Boolean(options.durableQueue) }, 'tap listening');

    return {
      queue,
      async stop() {
        if (stopping) return;
        stopping = true;
        // Unacknowledged events of a durable queue go back to it for the next run.
        await channel.cancel(consumerTag).catch(() => undefined);
        await connection.close().catch(() => undefined);
      },
    };
  } catch (err) {
    stopping = true;
    await connection.close().catch(() => undefined);
    throw err;
  }
}
