import { randomUUID } from 'node:crypto';
import {
  exchangeFor,
  messageSchema,
  type Envelope,
  type MessageData,
  type MessageType,
} from '@warmline/contracts';
import type { Queryable } from '../db/index';

export interface OutgoingMessage<T extends MessageType> {
  type: T;
  data: MessageData<T>;
  /** The request id (or the incoming event's correlationId) this message follows from. */
  correlationId: string;
  /** The service that states the fact, e.g. 'gateway'. */
  source: string;
  version?: number;
}

/**
 * Writes an event or command to the outbox of the caller's schema. Call it with the
 * transaction client of the state change it describes: both commit or neither does, and the
 * relay publishes the row after commit (ARCHITECTURE §3).
 */
export async function enqueue<T extends MessageType>(
  db: Queryable,
  message: OutgoingMessage<T>,
): Promise<Envelope<MessageData<T>>> {
  const version = message.version ?? 1;
  const schema = messageSchema(message.type, version);
  if (!schema) throw new Error(`Unknown message type ${message.type} v${version}`);
  // A payload that breaks its contract is a programming error: fail the transaction.
  const data = schema.parse(message.data) as MessageData<T>;
  const envelope: Envelope<MessageData<T>> = {
    id: randomUUID(),
    type: message.type,
    version,
    occurredAt: new Date().toISOString(),
    source: message.source,
    correlationId: message.correlationId,
    data,
  };
  await db.query(
    'INSERT INTO outbox (id, exchange, routing_key, envelope) VALUES ($1, $2, $3, $4)',
    [envelope.id, exchangeFor(message.type), message.type, JSON.stringify(envelope)],
  );
  return envelope;
}
