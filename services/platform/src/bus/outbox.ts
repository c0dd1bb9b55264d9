import { randomUUID } from 'node:crypto';
import {
  exchangeFor,
  messageSchema,
  type Envelope,
  type MessageData,
  type MessageType,
} from '@warmline/contracts';
import pg from 'pg';
import { afterCommit, type Queryable } from '../db/index';
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
  if (wake) tellRelayOnCommit(db);
  return envelopes;
}

/** The outbox's four columns, one array each, for a statement that inserts them with unnest. */
export interface OutboxRows {
  ids: string[];
  exchanges: string[];
  routingKeys: string[];
  envelopes: string[];
  /**
   * This process's relay hears of the rows from the caller (`committed`): the statement that
   * writes them sets `warmline.outbox_wake` to 'in-process' in its transaction, so the outbox
   * trigger skips its NOTIFY (docs/adr/0021), as enqueueAll's INSERT does.
   */
  inProcessWake: boolean;
  /**
   * The statement that wrote the rows has committed: this process's relay publishes them now.
   * Not called (the rows were not written, or the caller forgot), the relay's sweep finds them.
   */
  committed(): void;
}

/**
 * The rows `enqueueAll` would write for `messages` (envelopes made and checked against their
 * contracts), for a service whose own statement writes them with its state change — a SQL
 * function doing the whole of a call in one round trip (the vendor's webhook, docs/adr/0051).
 */
export function outboxRowsOf(messages: ReadonlyArray<OutgoingMessage<MessageType>>): OutboxRows {
  const inProcessWake = outboxWriteListeners.size > 0;
  const committed = () => {
    if (inProcessWake) tellRelay(true);
  };
  return { ...columnsOf(messages.map(toEnvelope)), inProcessWake, committed };
}

function columnsOf(envelopes: readonly Envelope[]): Omit<OutboxRows, 'inProcessWake' | 'committed'> {
  return {
    ids: envelopes.map((e) => e.id),
    exchanges: envelopes.map((e) => exchangeFor(e.type as MessageType)),
    routingKeys: envelopes.map((e) => e.type),
    envelopes: envelopes.map((e) => JSON.stringify(e)),
  };
}

/**
 * This process's relay publishes the rows once they commit (docs/adr/0055): told at once when
 * `db` is the pool (the INSERT committed on its own), at the COMMIT of a transaction run by
 * withTransaction, inTransaction or a consumer, and otherwise (a client on which the caller
 * sent BEGIN itself) told now that uncommitted rows exist, so it polls for them.
 */
function tellRelayOnCommit(db: Queryable): void {
  if (afterCommit(db, () => tellRelay(true))) return;
  tellRelay(db instanceof pg.Pool);
}

function tellRelay(committed: boolean): void {
  for (const listener of outboxWriteListeners) listener(committed);
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

/** Told `committed` true when the rows have committed, false when they may commit later or never. */
export type OutboxWriteListener = (committed: boolean) => void;

const outboxWriteListeners = new Set<OutboxWriteListener>();

/**
 * Calls `listener` whenever this process writes outbox rows: once they have committed when
 * that is known here, else as they are written (they may commit in a moment, later, or never).
 * The outbox relay of this process listens, which makes that process's writes skip their
 * NOTIFY. Returns the function that stops listening.
 */
export function onOutboxWrite(listener: OutboxWriteListener): () => void {
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
