import { randomUUID } from 'node:crypto';
import {
  exchangeFor,
  messageSchema,
  type Envelope,
  type MessageData,
  type MessageType,
} from '@warmline/contracts';
import type { Queryable } from '../db/index';
import type { z } from 'zod';

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
  const [envelope] = await enqueueAll(db, [message]);
  return envelope as Envelope<MessageData<T>>;
}

/**
 * `enqueue` for several messages of one transaction, in one INSERT: one round trip to
 * PostgreSQL and one firing of the outbox trigger instead of one each (docs/adr/0025). The
 * rows share the transaction's created_at, as rows of separate INSERTs in one transaction do.
 */
export async function enqueueAll(db: Queryable, messages: ReadonlyArray<OutgoingMessage<MessageType>>): Promise<Envelope[]> {
  if (messages.length === 0) return [];
  const envelopes = messages.map(toEnvelope);
  // One message (most transactions) goes as plain parameters: an array of one JSON text costs
  // the driver an escaping pass and PostgreSQL an array parse, more CPU than the row's other work.
  const single = envelopes.length === 1 ? envelopes[0]! : undefined;
  const columns: unknown[] = single ? [single.id, exchangeFor(single.type as MessageType), single.type, JSON.stringify(single)] : Object.values(columnsOf(envelopes));
  const wake = outboxWriteListeners.size > 0;
  // A named statement: PostgreSQL parses and plans it once per connection instead of on every
  // write, a third of the insert's CPU in the bench (docs/adr/0050). Four fixed texts.
  await db.query({ name: `warmline-outbox-${single ? 'one' : 'many'}${wake ? '-wake' : ''}`, text: insertStatement(single !== undefined, wake), values: columns });
  tellRelay();
  return envelopes;
}

/** The outbox's four columns, one array each, for a statement that inserts them with unnest. */
export interface OutboxRows {
  ids: string[];
  exchanges: string[];
  routingKeys: string[];
  envelopes: string[];
  /**
   * This process's relay has been told of the rows: the statement that writes them sets
   * `warmline.outbox_wake` to 'in-process' in its transaction, so the outbox trigger skips its
   * NOTIFY (docs/adr/0021), as enqueueAll's INSERT does.
   */
  inProcessWake: boolean;
}

/**
 * The rows `enqueueAll` would write for `messages` (envelopes made and checked against their
 * contracts), for a service whose own statement writes them with its state change — a SQL
 * function doing the whole of a call in one round trip (the vendor's webhook, docs/adr/0051).
 * This process's relay is told now, as enqueueAll tells it; a row that never commits costs it
 * one poll.
 */
export function outboxRowsOf(messages: ReadonlyArray<OutgoingMessage<MessageType>>): OutboxRows {
  const rows = { ...columnsOf(messages.map(toEnvelope)), inProcessWake: outboxWriteListeners.size > 0 };
  tellRelay();
  return rows;
}

function columnsOf(envelopes: readonly Envelope[]): Omit<OutboxRows, 'inProcessWake'> {
  return {
    ids: envelopes.map((e) => e.id),
    exchanges: envelopes.map((e) => exchangeFor(e.type as MessageType)),
    routingKeys: envelopes.map((e) => e.type),
    envelopes: envelopes.map((e) => JSON.stringify(e)),
  };
}

function tellRelay(): void {
  for (const listener of outboxWriteListeners) listener();
}

/**
 * The outbox INSERT. With `wake`, a relay runs in this process: the transaction does not NOTIFY
 * (a NOTIFY makes commits queue one behind another, docs/adr/0021), the relay is told by
 * `enqueueAll` instead and polls until the row has committed; the setting is made in the same
 * statement, so no extra round trip.
 */
function insertStatement(single: boolean, wake: boolean): string {
  const rows = single ? '(VALUES ($1::uuid, $2::text, $3::text, $4::jsonb))' : 'unnest($1::uuid[], $2::text[], $3::text[], $4::jsonb[])';
  return wake
    ? `INSERT INTO outbox (id, exchange, routing_key, envelope)
       SELECT r.* FROM (SELECT set_config('warmline.outbox_wake', 'in-process', true)) AS wake, ${rows} AS r`
    : `INSERT INTO outbox (id, exchange, routing_key, envelope) SELECT * FROM ${rows} AS r`;
}

function toEnvelope(message: OutgoingMessage<MessageType>): Envelope {
  const version = message.version ?? 1;
  const schema = cachedMessageSchema(message.type, version);
  if (!schema) throw new Error(`Unknown message type ${message.type} v${version}`);
  // A payload that breaks its contract is a programming error: fail the transaction.
  const data = schema.parse(message.data) as MessageData<MessageType>;
  return {
    id: randomUUID(),
    type: message.type,
    version,
    occurredAt: new Date().toISOString(),
    source: message.source,
    correlationId: message.correlationId,
    data,
  };
}

const outboxWriteListeners = new Set<() => void>();

/**
 * Calls `listener` whenever this process writes an outbox row (not yet committed: it may
 * commit in a moment, later, or never). The outbox relay of this process listens, which
 * makes that process's writes skip their NOTIFY. Returns the function that stops listening.
 */
export function onOutboxWrite(listener: () => void): () => void {
  outboxWriteListeners.add(listener);
  return () => outboxWriteListeners.delete(listener);
}

const schemas = new Map<string, z.ZodType | undefined>();

/** messageSchema of contracts builds its lookup table on every call: this asks it once per type and version. */
export function cachedMessageSchema(type: string, version: number): z.ZodType | undefined {
  const key = `${type}@${version}`;
  if (!schemas.has(key)) schemas.set(key, messageSchema(type, version));
  return schemas.get(key);
}
