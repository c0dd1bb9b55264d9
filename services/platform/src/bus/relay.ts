import type { ConfirmChannel, Message } from 'amqplib';
import pg from 'pg';
import { carriesSecret, isCommand, type Envelope, type MessageType } from '@warmline/contracts';
import { begin, type Pool } from '../db/index';
import { unavailableDependency } from '../faults';
import type { Logger } from '../log';
import { internalsOf, type Bus } from './connection';
import { onOutboxWrite } from './outbox';

export interface OutboxRelayOptions {
  pool: Pool;
  databaseUrl: string;
  /** The schema whose outbox this relay drains; NOTIFYs from other schemas are ignored. */
  schema: string;
  bus: Bus;
  log: Logger;
  /** Rows per batch; twice this bounds the publishes awaiting a confirm (two batches in flight). */
  batchSize?: number;
  /** How often to re-send what was not confirmed, in case a NOTIFY was missed or a publish failed. */
  sweepMs?: number;
}

/** A batch's end: how many rows it claimed and how many the broker did not confirm, or why it could not finish. */
type BatchResult = { tried: number; failed: number } | { error: unknown };

interface OutboxRow {
  id: string;
  exchange: string;
  routing_key: string;
  envelope: Envelope;
}

const NOTIFY_CHANNEL = 'warmline_outbox';
const LISTENER_RETRY_MS = 500;
const LISTENER_MAX_RETRY_MS = 10_000;
/**
 * After this process writes an outbox row, how long the relay keeps looking for it (the row
 * commits when its transaction does), first after POLL_FIRST_MS, doubling while it finds
 * nothing. A transaction slower than HOT_MS to commit is left to the sweep.
 */
const HOT_MS = 2_000;
const POLL_FIRST_MS = 3;
const POLL_MAX_MS = 200;
/**
 * Claims woken by commits start at least this long apart (docs/adr/0055): a bound of ~200 claims
 * a second, each with its two round trips, however fast rows commit, for at most this much of
 * latency.
 */
const LINGER_MS = 5;

/**
 * The relay's claim: the next `batchSize` unsent rows, read in the order of outbox_claim_idx
 * (a scan that stops after `batchSize` rows, not a sort of the backlog; docs/adr/0040).
 */
export function claimStatement(batchSize: number): string {
  return `SELECT id, exchange, routing_key, envelope FROM outbox
          WHERE published_at IS NULL
          ORDER BY attempts > 0, created_at, id
          LIMIT ${batchSize}
          FOR UPDATE SKIP LOCKED`;
}

/**
 * Publishes committed outbox rows (ARCHITECTURE §3). A row is stamped `published_at` only
 * after RabbitMQ confirms it, so a broker outage delays events and never loses one; the
 * worst case (a crash between confirm and stamp) sends a row twice, which consumers absorb
 * through processed_events.
 */
export function startOutboxRelay(options: OutboxRelayOptions): { stop(): Promise<void> } {
  const { pool, schema, bus } = options;
  const log = options.log.child({ component: 'outbox-relay', schema });
  const batchSize = options.batchSize ?? 100;
  // Written into the claiming statement as a literal.
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`);
  const internals = internalsOf(bus);
  const brokerUser = internals.brokerUser;

  let stopped = false;
  let draining: Promise<void> | undefined;
  let wakeAgain = false;
  let channel: ConfirmChannel | undefined;
  let listener: pg.Client | undefined;
  let listenerTimer: NodeJS.Timeout | undefined;
  let listenerFailures = 0;
  let hotUntil = 0;
  let pollDelay = POLL_FIRST_MS;
  let pollTimer: NodeJS.Timeout | undefined;
  let pollDue = 0;
  let wakeQueued = false;
  let lastClaimAt = -Infinity;
  // basic.return arrives before the confirm of the same message, so the confirm callback
  // can tell that its message was returned.
  const returned = new Set<string>();

  /** Starts a drain, or asks the running one to look again when it finishes. */
  function wake(): void {
    if (stopped) return;
    if (draining) {
      wakeAgain = true;
      return;
    }
    draining = drain()
      .catch((err: unknown) =>
        unavailableDependency(err) === 'postgres'
          ? log.warn({ err }, 'outbox relay waits for PostgreSQL')
          : log.error({ err }, 'outbox relay batch failed'),
      )
      .finally(() => {
        draining = undefined;
        schedulePoll();
      });
  }

  /**
   * Rows written in this process have committed (docs/adr/0055): drained now, with no poll, or
   * LINGER_MS after the last claim began if that is later. The commits that land meanwhile (or
   * while a drain runs) go in one claim, so at a steady rate the relay claims at most every
   * LINGER_MS and its round trips per row fall as the rate grows; an event after a quiet spell
   * goes at once.
   */
  function committedRows(): void {
    if (wakeQueued || stopped) return;
    wakeQueued = true;
    const go = () => {
      wakeQueued = false;
      wake();
    };
    const wait = lastClaimAt + LINGER_MS - performance.now();
    if (wait > 0) setTimeout(go, wait);
    else setImmediate(go);
  }

  function lingerAfterClaim(): Promise<void> {
    const wait = lastClaimAt + LINGER_MS - performance.now();
    return wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)) : Promise.resolve();
  }

  /** A row was written in this process: look for it until it commits (it NOTIFYs nobody). */
  function nudged(): void {
    hotUntil = Date.now() + HOT_MS;
    pollDelay = POLL_FIRST_MS;
    // A poll already waiting out a longer backoff comes forward.
    if (pollTimer && pollDue > Date.now() + POLL_FIRST_MS) {
      clearTimeout(pollTimer);
      pollTimer = undefined;
    }
    schedulePoll();
  }

  function schedulePoll(): void {
    if (stopped || pollTimer || draining || Date.now() >= hotUntil) return;
    pollDue = Date.now() + pollDelay;
    pollTimer = setTimeout(() => void poll(), pollDelay);
  }

  /** One cheap look (no transaction, no locks); a drain only when there is something to send. */
  async function poll(): Promise<void> {
    pollTimer = undefined;
    if (stopped || draining) return;
    let waiting = false;
    try {
      const { rowCount } = await pool.query('SELECT 1 FROM outbox WHERE published_at IS NULL AND attempts = 0 LIMIT 1');
      waiting = (rowCount ?? 0) > 0;
    } catch (err) {
      log.debug({ err }, 'outbox poll failed; the sweep carries on');
    }
    if (waiting) {
      pollDelay = POLL_FIRST_MS;
      wake();
    } else {
      pollDelay = Math.min(pollDelay * 2, POLL_MAX_MS);
      schedulePoll();
    }
  }

  /**
   * Pipelined (docs/adr/0050): while there is a backlog (the last claim was full), the next
   * batch is claimed and published while the broker's confirms of the previous one are
   * pending. Its claim skips the rows the previous batch still holds locked (SKIP LOCKED), and
   * both go out on one channel, so the broker receives them in claim order; at most two
   * batches are unconfirmed at once.
   */
  async function drain(): Promise<void> {
    do {
      wakeAgain = false;
      let previous: Promise<BatchResult> | undefined;
      let current: Promise<BatchResult> | undefined;
      try {
        for (;;) {
          if (stopped) break;
          const ch = await confirmChannel();
          if (!ch) break;
          const batch = publishBatch(ch);
          current = batch.finished;
          const claimed = await batch.published;
          if (previous) {
            const before = previous;
            previous = undefined;
            // Nothing confirmed means the broker is away (or only stuck rows are left): leave
            // the rest to the sweep instead of spinning.
            const { tried, failed } = outcome(await before);
            if (failed === tried) break;
          }
          previous = current;
          current = undefined;
          // A short batch means no backlog: the drain ends, and the in-process poll (or a
          // NOTIFY) starts the next one. Claiming again at once would mostly find nothing, for
          // a transaction's round trips per drain.
          if (claimed < batchSize) break;
        }
      } finally {
        // Every batch this drain started ends before it does (stop() waits for the drain).
        const left = [previous, current].filter((p): p is Promise<BatchResult> => p !== undefined);
        for (const result of await Promise.all(left)) outcome(result);
      }
      // Woken meanwhile (rows committed while this drain ran): the next claim waits out the
      // linger too, so a steady stream is claimed ~every LINGER_MS, not back to back a row or two
      // at a time (docs/adr/0055).
      if (wakeAgain && !stopped) await lingerAfterClaim();
    } while (wakeAgain && !stopped);
  }

  function outcome(result: BatchResult): { tried: number; failed: number } {
    if ('error' in result) throw result.error;
    return result;
  }

  /**
   * Claims a batch and publishes it: `published` resolves with the rows claimed as soon as
   * they are handed to the channel, `finished` once they are confirmed and stamped (and the
   * claim's locks released). `finished` never rejects, so it may wait unobserved.
   */
  function publishBatch(ch: ConfirmChannel): { published: Promise<number>; finished: Promise<BatchResult> } {
    let markPublished: (tried: number) => void = () => undefined;
    const published = new Promise<number>((resolve) => (markPublished = resolve));
    const finished = (async () => {
      lastClaimAt = performance.now();
      const client = await pool.connect();
      let lost = false;
      try {
        // The row locks last until the stamps commit, so a second relay on the same schema (or
        // this relay's next batch) skips these rows instead of publishing them again. Rows that
        // failed before go after fresh ones, so a command nobody can receive yet does not hold
        // back everything else. Sent with BEGIN, in one round trip (docs/adr/0025).
        const claimed = await begin(client, { atBegin: claimStatement(batchSize) });
        const rows = (claimed?.rows ?? []) as OutboxRow[];
        const sent = rows.map((row) => publish(ch, row));
        markPublished(rows.length);
        const results = await Promise.all(sent);
        const confirmedRows = rows.filter((_, i) => results[i] === undefined);
        const confirmed = confirmedRows.map((r) => r.id);
        const failures = rows.flatMap((row, i) => (results[i] === undefined ? [] : [{ id: row.id, error: results[i]! }]));
        // The stamps and COMMIT in one round trip (a simple query: literals escaped by the
        // driver; the ids are the rows' own uuids).
        const ids = (list: string[]) => `${client.escapeLiteral(`{${list.join(',')}}`)}::uuid[]`;
        const statements: string[] = [];
        if (confirmed.length > 0) {
          statements.push(`UPDATE outbox SET published_at = now() WHERE id = ANY(${ids(confirmed)})`);
          // A secret (a reset link) is readable only until the broker has it: its row keeps the
          // envelope's ids for tracing, not its data.
          const secret = confirmedRows.filter((r) => carriesSecret(r.routing_key as MessageType, r.envelope.data)).map((r) => r.id);
          if (secret.length > 0) {
            statements.push(
              `UPDATE outbox SET envelope = jsonb_set(envelope, '{data}', '{"redacted": "held a secret; removed once the broker confirmed it"}') WHERE id = ANY(${ids(secret)})`,
            );
          }
        }
        for (const f of failures) {
          statements.push(`UPDATE outbox SET attempts = attempts + 1, last_error = ${client.escapeLiteral(f.error)} WHERE id = ${client.escapeLiteral(f.id)}`);
        }
        statements.push('COMMIT');
        await client.query(statements.join('; '));
        return { tried: rows.length, confirmed, failures };
      } catch (err) {
        lost = unavailableDependency(err) === 'postgres';
        // A connection that is gone is not rolled back (it cannot be) and not put back in the pool.
        if (!lost) await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release(lost);
      }
    })().then(
      ({ tried, confirmed, failures }) => {
        if (confirmed.length > 0) bus.metrics.relayPublished.inc({ schema }, confirmed.length);
        if (failures.length > 0) bus.metrics.relayFailed.inc({ schema }, failures.length);
        if (confirmed.length > 0) log.debug({ count: confirmed.length }, 'published outbox rows');
        if (failures.length > 0) {
          log.warn({ count: failures.length, error: failures[0]?.error }, 'outbox rows not confirmed; will retry');
        }
        return { tried, failed: failures.length };
      },
      (error: unknown) => ({ error }),
    );
    // A claim that failed published nothing.
    void finished.then(() => markPublished(0));
    return { published, finished };
  }

  /** Resolves undefined once the broker confirms the message, or with why it did not. */
  function publish(ch: ConfirmChannel, row: OutboxRow): Promise<string | undefined> {
    const envelope = row.envelope;
    return new Promise((resolve) => {
      try {
        ch.publish(
          bus.name(row.exchange),
          row.routing_key,
          Buffer.from(JSON.stringify(envelope)),
          {
            persistent: true,
            messageId: envelope.id,
            contentType: 'application/json',
            type: envelope.type,
            correlationId: envelope.correlationId,
            appId: envelope.source,
            // RabbitMQ refuses a user_id other than the connection's own, so consumers can
            // tell which service published (docs/adr/0039).
            userId: brokerUser,
            timestamp: Math.floor(Date.parse(envelope.occurredAt) / 1000),
            // A command nobody is bound to receive comes back instead of vanishing, and stays
            // in the outbox until its queue exists. An event no queue is bound to goes through
            // the events exchange's alternate exchange into the unrouted queue (topology.ts).
            mandatory: isCommand(row.routing_key),
          },
          (err: unknown) => {
            if (err) return resolve(err instanceof Error ? err.message : String(err));
            if (returned.delete(envelope.id)) return resolve(`unroutable: no queue is bound for ${row.routing_key}`);
            resolve(undefined);
          },
        );
      } catch (err) {
        resolve(err instanceof Error ? err.message : String(err));
      }
    });
  }

  async function confirmChannel(): Promise<ConfirmChannel | undefined> {
    if (channel) return channel;
    const connection = internals.connection();
    if (!connection) return undefined;
    try {
      const ch = await connection.createConfirmChannel();
      ch.on('error', (err: Error) => log.warn({ err }, 'outbox relay channel error'));
      ch.on('return', (message: Message) => {
        if (message.properties.messageId) returned.add(String(message.properties.messageId));
      });
      ch.on('close', () => {
        if (channel === ch) channel = undefined;
      });
      channel = ch;
      return ch;
    } catch (err) {
      log.warn({ err }, 'cannot open a channel for the outbox relay');
      return undefined;
    }
  }

  /** A dedicated client, because LISTEN belongs to a session and pooled clients come and go. */
  async function listen(): Promise<void> {
    listenerTimer = undefined;
    if (stopped) return;
    // A database that accepts TCP and never answers must not hang us, and a connection dropped
    // without a word must be noticed: the sweep delivers meanwhile, only later.
    const client = new pg.Client({
      connectionString: options.databaseUrl,
      application_name: `outbox-listener ${schema}`,
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
    });
    const retry = (err?: unknown) => {
      if (listener !== client) return;
      listener = undefined;
      client.end().catch(() => undefined);
      if (stopped) return;
      // Capped backoff, and one log line per outage rather than one per try.
      if (listenerFailures === 0) log.warn({ err }, 'outbox listener lost its database connection; reconnecting');
      listenerTimer = setTimeout(() => void listen(), Math.min(LISTENER_RETRY_MS * 2 ** listenerFailures, LISTENER_MAX_RETRY_MS));
      listenerFailures += 1;
    };
    listener = client;
    client.on('error', retry);
    client.on('end', () => retry());
    client.on('notification', (n) => {
      if (n.channel === NOTIFY_CHANNEL && n.payload === schema) wake();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
      if (listenerFailures > 0) log.info('outbox listener connected again');
      listenerFailures = 0;
      // Rows may have committed while we were not listening.
      wake();
    } catch (err) {
      retry(err);
    }
  }

  const unwatch = bus.metrics.watchOutbox(schema, async () => {
    const { rows } = await pool.query<{ backlog: number; oldest_seconds: number | null }>(
      `SELECT count(*) AS backlog, extract(epoch FROM now() - min(created_at))::float8 AS oldest_seconds
         FROM outbox WHERE published_at IS NULL`,
    );
    return { backlog: rows[0]?.backlog ?? 0, oldestSeconds: rows[0]?.oldest_seconds ?? 0 };
  });
  const unregister = internals.onConnect(async () => wake());
  const unhook = onOutboxWrite((committed) => (committed ? committedRows() : nudged()));
  const sweep = setInterval(wake, options.sweepMs ?? 2000);
  void listen();
  wake();

  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(sweep);
      unhook();
      if (pollTimer) clearTimeout(pollTimer);
      unwatch();
      if (listenerTimer) clearTimeout(listenerTimer);
      unregister();
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
      // The batch in flight finishes, so its confirmed rows get their stamps.
      await draining;
      await channel?.close().catch(() => undefined);
      channel = undefined;
    },
  };
}
