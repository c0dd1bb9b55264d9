import type { ChannelModel, ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import {
  envelopeSchema,
  messageSchema,
  type Envelope,
  type MessageData,
  type MessageType,
} from '@warmline/contracts';
import type { Pool, PoolClient } from '../db/index';
import type { Logger } from '../log';
import { internalsOf, type Bus } from './connection';
import { assertConsumerQueues, ATTEMPTS_HEADER, ERROR_HEADER, queueNames, republishOptions } from './topology';

export interface HandlerContext {
  envelope: Envelope;
  /** The transaction that also records processed_events: write the handler's effects here. */
  db: PoolClient;
  /** Carries the envelope's correlationId and event id. */
  log: Logger;
}

export type Handler<T extends MessageType> = (data: MessageData<T>, ctx: HandlerContext) => Promise<void>;

export interface Subscription {
  type: MessageType;
  handler: (data: unknown, ctx: HandlerContext) => Promise<void>;
}

/** One line of a service's `subscriptions.ts`: this message type runs this handler. */
export function subscribe<T extends MessageType>(type: T, handler: Handler<T>): Subscription {
  // Safe: the consumer parses `data` with the schema of `type` before calling the handler.
  return { type, handler: handler as unknown as Subscription['handler'] };
}

export interface ConsumerOptions {
  bus: Bus;
  pool: Pool;
  /** e.g. 'notifications.email'; also the consumer name recorded in processed_events. */
  queue: string;
  subscriptions: Subscription[];
  log: Logger;
  /** Unacknowledged messages RabbitMQ may hand us at once (100–300). */
  prefetch?: number;
  /** Deliveries before a failing message goes to the DLQ. */
  maxAttempts?: number;
  /** Wait before retry n is the n-th entry (the last one repeats). */
  retryDelaysMs?: number[];
}

const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000];

type Parsed =
  | { ok: true; envelope: Envelope; subscription: Subscription }
  | { ok: false; reason: string };

/**
 * Consumes one durable queue (ARCHITECTURE §3). For each message, in one transaction: record
 * `processed_events(queue, id)` and run the handler, so a redelivery is a no-op. A failure is
 * retried through `Q.retry` with backoff, then dead-lettered to `Q.dlq`; a message that
 * cannot be parsed goes to the DLQ at once, because retrying it cannot help.
 */
export async function startConsumer(options: ConsumerOptions): Promise<{ stop(): Promise<void> }> {
  const { bus, pool, queue, subscriptions } = options;
  const prefetch = options.prefetch ?? 100;
  const maxAttempts = options.maxAttempts ?? 5;
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  if (!Number.isInteger(prefetch) || prefetch < 100 || prefetch > 300) {
    throw new RangeError(`prefetch must be an integer from 100 to 300, got ${prefetch}`);
  }
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError('maxAttempts must be at least 1');
  if (retryDelays.length === 0) throw new RangeError('retryDelaysMs must not be empty');

  const byType = new Map<string, Subscription>();
  for (const s of subscriptions) {
    if (byType.has(s.type)) throw new Error(`${queue} subscribes to ${s.type} twice`);
    byType.set(s.type, s);
  }
  const names = queueNames(queue, bus.name);
  const log = options.log.child({ component: 'consumer', queue });
  const internals = internalsOf(bus);

  let stopped = false;
  let channel: ConfirmChannel | undefined;
  let consumerTag: string | undefined;
  let attaching: Promise<void> | undefined;
  const inFlight = new Set<Promise<void>>();

  /** Declares the queues and starts consuming on `connection`, unless already doing so. */
  function attach(connection: ChannelModel): Promise<void> {
    if (stopped || channel || attaching) return attaching ?? Promise.resolve();
    attaching = (async () => {
      const ch = await connection.createConfirmChannel();
      ch.on('error', (err: Error) => log.warn({ err }, 'consumer channel error'));
      ch.on('close', () => {
        if (channel !== ch) return;
        channel = undefined;
        consumerTag = undefined;
        // A channel closed by the broker on a live connection (not a lost connection, which
        // onConnect covers) would otherwise leave this queue without a consumer.
        if (!stopped && internals.connection() === connection) {
          setTimeout(() => void attachCurrent(), 1000);
        }
      });
      try {
        await assertConsumerQueues(ch, bus.name, queue, subscriptions.map((s) => s.type));
        await ch.prefetch(prefetch);
      } catch (err) {
        await ch.close().catch(() => undefined);
        throw err;
      }
      channel = ch;
      const reply = await ch.consume(names.main, (msg) => {
        if (!msg) return; // cancelled by the broker (queue deleted); close handler re-attaches
        const work = handle(ch, msg).finally(() => inFlight.delete(work));
        inFlight.add(work);
      });
      consumerTag = reply.consumerTag;
      log.info({ prefetch }, 'consuming');
    })().finally(() => {
      attaching = undefined;
    });
    return attaching;
  }

  async function attachCurrent(): Promise<void> {
    const connection = internals.connection();
    if (connection) await attach(connection).catch((err: unknown) => log.error({ err }, 'cannot start consuming'));
  }

  async function handle(ch: ConfirmChannel, msg: ConsumeMessage): Promise<void> {
    const failedBefore = Number(msg.properties.headers?.[ATTEMPTS_HEADER] ?? 0) || 0;
    const parsed = parse(msg);
    if (!parsed.ok) {
      log.warn({ reason: parsed.reason, messageId: msg.properties.messageId }, 'unparseable message dead-lettered');
      return forward(ch, msg, names.dlq, { [ATTEMPTS_HEADER]: failedBefore + 1, [ERROR_HEADER]: parsed.reason });
    }
    const { envelope, subscription } = parsed;
    const handlerLog = log.child({ correlationId: envelope.correlationId, eventId: envelope.id, type: envelope.type });
    let error: unknown;
    const client = await pool.connect().catch((err: unknown) => {
      error = err;
      return undefined;
    });
    if (client) {
      try {
        await client.query('BEGIN');
        const fresh = await client.query(
          'INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
          [queue, envelope.id],
        );
        if (fresh.rowCount === 0) {
          await client.query('COMMIT');
          handlerLog.debug('duplicate delivery ignored');
        } else {
          await subscription.handler(envelope.data, { envelope, db: client, log: handlerLog });
          await client.query('COMMIT');
          handlerLog.debug('handled');
        }
      } catch (err) {
        error = err;
        await client.query('ROLLBACK').catch(() => undefined);
      } finally {
        client.release();
      }
    }
    if (error === undefined) return ack(ch, msg);

    const attempts = failedBefore + 1;
    const reason = error instanceof Error ? error.message : String(error);
    if (attempts >= maxAttempts) {
      handlerLog.error({ err: error, attempts }, 'handler failed for the last time; message dead-lettered');
      return forward(ch, msg, names.dlq, { [ATTEMPTS_HEADER]: attempts, [ERROR_HEADER]: reason });
    }
    const delay = retryDelays[Math.min(attempts, retryDelays.length) - 1]!;
    handlerLog.warn({ err: error, attempts, retryInMs: delay }, 'handler failed; will retry');
    return forward(ch, msg, names.retry, { [ATTEMPTS_HEADER]: attempts, [ERROR_HEADER]: reason }, { expiration: String(delay) });
  }

  function parse(msg: ConsumeMessage): Parsed {
    let json: unknown;
    try {
      json = JSON.parse(msg.content.toString('utf8'));
    } catch {
      return { ok: false, reason: 'body is not JSON' };
    }
    const envelope = envelopeSchema.safeParse(json);
    if (!envelope.success) return { ok: false, reason: `bad envelope: ${firstIssue(envelope.error)}` };
    const { type, version } = envelope.data;
    const subscription = byType.get(type);
    if (!subscription) return { ok: false, reason: `${queue} has no handler for ${type}` };
    const schema = messageSchema(type, version);
    if (!schema) return { ok: false, reason: `unknown message type ${type} v${version}` };
    const data = schema.safeParse(envelope.data.data);
    if (!data.success) return { ok: false, reason: `bad ${type} v${version} data: ${firstIssue(data.error)}` };
    return { ok: true, envelope: { ...envelope.data, data: data.data }, subscription };
  }

  /**
   * Moves the message to the retry queue or DLQ: the original is acked only after the broker
   * confirms the copy, so a crash in between redelivers it rather than losing it.
   */
  async function forward(
    ch: ConfirmChannel,
    msg: ConsumeMessage,
    to: string,
    headers: Record<string, unknown>,
    extra: Options.Publish = {},
  ): Promise<void> {
    try {
      await new Promise<void>((resolve, reject) => {
        ch.sendToQueue(to, msg.content, { ...republishOptions(msg, headers), ...extra }, (err: unknown) =>
          err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(),
        );
      });
    } catch (err) {
      // The channel is gone; RabbitMQ redelivers the unacked original after reconnect.
      log.warn({ err, to }, 'could not forward a message; it will be redelivered');
      return;
    }
    ack(ch, msg);
  }

  function ack(ch: ConfirmChannel, msg: ConsumeMessage): void {
    try {
      ch.ack(msg);
    } catch {
      // Channel closed meanwhile: the message is redelivered and processed_events absorbs it.
    }
  }

  const unregister = internals.onConnect(attach);
  if (internals.connection()) await attach(internals.connection()!);

  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      unregister();
      await attaching?.catch(() => undefined);
      const ch = channel;
      if (ch && consumerTag) await ch.cancel(consumerTag).catch(() => undefined);
      // Graceful shutdown: handlers already running finish and ack before the channel closes.
      await Promise.allSettled([...inFlight]);
      channel = undefined;
      await ch?.close().catch(() => undefined);
      log.info('stopped consuming');
    },
  };
}

function firstIssue(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  return issue.path.length ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message;
}
