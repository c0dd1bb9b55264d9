import type { Channel, ConfirmChannel, GetMessage } from 'amqplib';
import { internalsOf, type Bus } from './connection';
import { ATTEMPTS_HEADER, ERROR_HEADER, queueNames, REDACTED_HEADER, republishOptions } from './topology';

export interface DeadLetter {
  id: string;
  type: string;
  attempts: number;
  lastError: string;
  /**
   * The message's data as JSON, for an operator deciding whether to replay it; never the data
   * of an e-mail command (addresses, and possibly a reset link) or of one emptied because it
   * held a secret.
   */
  data: string;
}

export class UnknownQueueError extends Error {
  override name = 'UnknownQueueError';
}

/**
 * Shows up to `limit` messages of `<queue>.dlq` without removing any: they are fetched
 * unacknowledged and handed back all at once at the end (and RabbitMQ requeues them by itself
 * should this process die before that).
 */
export async function listDeadLetters(bus: Bus, queue: string, limit = 50): Promise<DeadLetter[]> {
  const { dlq } = queueNames(queue, bus.name);
  const channel = await internalsOf(bus).openChannel();
  try {
    await checkQueue(channel, dlq, queue);
    const letters: DeadLetter[] = [];
    for (let i = 0; i < limit; i++) {
      const msg = await channel.get(dlq, { noAck: false });
      if (!msg) break;
      letters.push(describe(msg));
    }
    channel.nackAll(true);
    return letters;
  } finally {
    await channel.close().catch(() => undefined);
  }
}

/**
 * Moves every message of `<queue>.dlq` back to `<queue>` with its attempt counter reset. Each is
 * acked from the DLQ only after the broker confirms its copy, so a failure midway duplicates
 * at most one message (absorbed by processed_events) and loses none.
 */
export async function replayDeadLetters(bus: Bus, queue: string): Promise<number> {
  const names = queueNames(queue, bus.name);
  const channel = await internalsOf(bus).openConfirmChannel();
  try {
    const { messageCount } = await checkQueue(channel, names.dlq, queue);
    await checkQueue(channel, names.main, queue);
    // Only what was there at the start: a message that fails again at once (unparseable)
    // comes straight back to the DLQ and must not be replayed in a loop.
    let replayed = 0;
    while (replayed < messageCount) {
      const msg = await channel.get(names.dlq, { noAck: false });
      if (!msg) break;
      await sendConfirmed(channel, names.main, msg, internalsOf(bus).brokerUser);
      channel.ack(msg);
      replayed += 1;
    }
    return replayed;
  } finally {
    await channel.close().catch(() => undefined);
  }
}

/**
 * Replayed as `brokerUser`, which the broker requires of our connection: the consumer trusts
 * the publisher it recorded (warmline-publisher) only when that is its own user, so replay with
 * the consumer service's AMQP_URL (docs/adr/0039).
 */
function sendConfirmed(channel: ConfirmChannel, queue: string, msg: GetMessage, brokerUser: string): Promise<void> {
  const options = { ...republishOptions(msg, { [ATTEMPTS_HEADER]: undefined, [ERROR_HEADER]: undefined }), userId: brokerUser };
  return new Promise((resolve, reject) => {
    channel.sendToQueue(queue, msg.content, options, (err: unknown) =>
      err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(),
    );
  });
}

/** A missing queue closes the channel with a 404; say which consumer queue is unknown instead. */
async function checkQueue(channel: Channel, name: string, queue: string) {
  try {
    return await channel.checkQueue(name);
  } catch (err) {
    const code = (err as { code?: number }).code;
    if (code === 404) throw new UnknownQueueError(`Unknown queue '${queue}': ${name} does not exist`);
    throw err;
  }
}

function describe(msg: GetMessage): DeadLetter {
  const headers = msg.properties.headers ?? {};
  let body: { id?: unknown; type?: unknown; data?: unknown } = {};
  try {
    const parsed: unknown = JSON.parse(msg.content.toString('utf8'));
    if (parsed && typeof parsed === 'object') body = parsed;
  } catch {
    // Unparseable bodies are exactly what ends up here; show what the properties say.
  }
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const type = text(msg.properties.type) ?? text(body.type) ?? '(unknown)';
  const redacted = type.startsWith('email.') || headers[REDACTED_HEADER] === true;
  return {
    id: text(msg.properties.messageId) ?? text(body.id) ?? '(none)',
    type,
    data: redacted ? '[redacted]' : body.data === undefined ? '' : JSON.stringify(body.data),
    attempts: Number(headers[ATTEMPTS_HEADER] ?? 0) || 0,
    lastError: headers[ERROR_HEADER] === undefined ? '' : String(headers[ERROR_HEADER]),
  };
}
