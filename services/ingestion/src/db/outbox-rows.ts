import type { MessageType } from '@warmline/contracts';
import { enqueueAll, type OutgoingMessage } from '@warmline/platform/bus/index';
import type { Queryable } from '@warmline/platform/db/index';
import type { OutboxRows } from './vendor-calls';

/** The one statement enqueueAll sends (services/platform/src/bus/outbox.ts): its four column arrays. */
const OUTBOX_INSERT = /^\s*INSERT INTO outbox \(id, exchange, routing_key, envelope\)/;

/**
 * The outbox rows `enqueueAll` would write for `messages` — envelopes made and checked against
 * their contracts by the bus itself, and this process's relay told of them as for any write —
 * taken from the one INSERT it sends, so the call's own statement can write them
 * (receiveVendorCall, docs/adr/0051). Null when the bus wrote them some other way than the one
 * INSERT of four arrays this expects: the caller then lets enqueueAll write them in its
 * transaction (a bus that changes degrades the vendor call to more round trips, never breaks it;
 * the webhook's tests say which path ran).
 */
export async function outboxRowsOf(messages: ReadonlyArray<OutgoingMessage<MessageType>>): Promise<OutboxRows | null> {
  const sent: Array<{ text: string; values: unknown[] }> = [];
  const recorder: Pick<Queryable, 'query'> = {
    query: ((text: string, values?: unknown[]) => {
      sent.push({ text, values: values ?? [] });
      return Promise.resolve({ rows: [], rowCount: 0, command: 'INSERT', oid: 0, fields: [] });
    }) as Queryable['query'],
  };
  await enqueueAll(recorder, messages);
  const [insert] = sent;
  if (sent.length !== 1 || !insert || !OUTBOX_INSERT.test(insert.text) || insert.values.length !== 4 || !insert.values.every(Array.isArray)) return null;
  const [ids, exchanges, routingKeys, envelopes] = insert.values as [string[], string[], string[], string[]];
  return { ids, exchanges, routingKeys, envelopes, inProcessWake: insert.text.includes("set_config('warmline.outbox_wake', 'in-process', true)") };
}
