import type { ChannelModel, ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import {
  carriesSecret,
  envelopeSchema,
  mayPublish,
  publishers,
  type Envelope,
  type MessageData,
  type MessageType,
} from '@warmline/contracts';
import { begin, transactionEnd, type Pool, type PoolClient, type TransactionEnd } from '../db/index';
import { unavailableDependency } from '../faults';
import type { Logger } from '../log';
import { internalsOf, type Bus } from './connection';
import { DeliveryAcks } from './delivery-acks';
import { HandlerGate, poolPermits } from './handler-gate';
import { cachedMessageSchema } from './outbox';
import {
  ATTEMPTS_HEADER,
  assertConsumerQueue,
  ERROR_HEADER,
  PUBLISHER_HEADER,
  queueNames,
  REDACTED_HEADER,
  republishOptions,
} from './topology';

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

/** One queue a service consumes and what runs for each message type on it (a service's `events/consumers.ts`). */
export interface ServiceConsumer {
  queue: string;
  subscriptions: Subscription[];
  /** Handle this queue's messages in batches (docs/adr/0050); only where every handler allows it. */
  batch?: BatchOptions;
}

/**
 * A consumer that commits several deliveries in one transaction (docs/adr/0050): one
 * `processed_events` insert and one COMMIT for the batch, each handler under a savepoint so
 * that one that throws is rolled back alone and retried alone, one `ack(multiple)`.
 * A handler's locks are then held until its whole batch commits: a handler that takes a lock
 * many messages contend for (a global advisory lock) must not be batched.
 */
export interface BatchOptions {
  /**
   * Deliveries per transaction at most, 1–50: each handler that writes takes a subtransaction
   * id, and past 64 in one transaction every snapshot in the database gets slower.
   */
  size: number;
  /**
   * How long an idle lane waits for a batch to fill, 0–1000 ms. 0 (the default) takes what has
   * arrived: batches then fill by themselves while the previous one commits.
   */
  waitMs?: number;
  /** Batches in flight at once, each on its own connection (default 2, or 1 on a pool that serves one handler). */
  lanes?: number;
  /**
   * Messages with the same key always go to the same lane, so this process handles them one
   * after another in delivery order (per-aggregate serialisation, e.g. the order id).
   */
  aggregateOf?: (envelope: Envelope) => string | undefined;
}

/**
 * Starts one consumer per entry of a service's `consumers(...)`, each stopped with the service.
 * No waiting for the broker: each attaches once it connects.
 */
export async function startConsumers(
  consumers: ServiceConsumer[],
  options: Omit<ConsumerOptions, 'queue' | 'subscriptions'>,
  stops: { push(name: string, close: () => Promise<unknown>): void },
): Promise<void> {
  for (const { queue, subscriptions, batch } of consumers) {
    const consumer = await startConsumer({ ...options, queue, subscriptions, ...(batch ? { batch } : {}) });
    stops.push(`consumer ${queue}`, () => consumer.stop());
  }
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
  /** Handler failures (thrown errors) before a message goes to the DLQ. */
  maxAttempts?: number;
  /**
   * Handler runs that never finished (the process died, the channel went) before a message
   * goes to the DLQ: the delivery limit of a message that kills its consumer.
   */
  maxDeliveries?: number;
  /** Wait before retry n is the n-th entry (the last one repeats). */
  retryDelaysMs?: number[];
  /** Commit several deliveries per transaction (docs/adr/0050); one per delivery when not given. */
  batch?: BatchOptions;
}

export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_MAX_DELIVERIES = 5;
export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000];
/** Waits while PostgreSQL is away: short at first, capped so a long outage costs little. */
const DEPENDENCY_WAIT_MS = { first: 250, max: 5_000 };

type Parsed =
  | { ok: true; envelope: Envelope; subscription: Subscription }
  | { ok: false; reason: string };

/** What one run of a message came to. */
type Outcome =
  | { kind: 'done'; duplicate: boolean }
  | { kind: 'failed'; error: unknown }
  | { kind: 'over-delivery-limit'; starts: number }
  | { kind: 'dependency-away'; error: unknown };

/**
 * Consumes one durable queue of the broker manifest (ARCHITECTURE §3). For each message, in
 * one transaction: record `processed_events(queue, id)` and run the handler, so a redelivery
 * is a no-op.
 *
 * - A handler that throws is retried through `Q.retry` with backoff, then dead-lettered.
 * - PostgreSQL being away (no connection, a connection cut mid-handler, the pool timing out)
 *   is not the handler's failure: the message is held and tried again once the database
 *   answers, and never counts toward dead-lettering.
 * - At most as many handlers run as the pool can serve (poolPermits), so messages waiting for
 *   a connection wait in memory rather than time out of the pool.
 * - A message that comes back unacknowledged (its consumer died mid-handler) runs alone, and
 *   each such run is counted in delivery_attempts first: after `maxDeliveries` it is
 *   dead-lettered, so a message that kills its process cannot do so forever, and messages that
 *   were merely in flight beside it are not blamed.
 * - A message that cannot be parsed goes to the DLQ at once, because retrying it cannot help.
 */
export async function startConsumer(options: ConsumerOptions): Promise<{ stop(): Promise<void> }> {
  const { bus, pool, queue, subscriptions } = options;
  const prefetch = options.prefetch ?? 100;
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const maxDeliveries = options.maxDeliveries ?? DEFAULT_MAX_DELIVERIES;
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  if (!Number.isInteger(prefetch) || prefetch < 100 || prefetch > 300) {
    throw new RangeError(`prefetch must be an integer from 100 to 300, got ${prefetch}`);
  }
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError('maxAttempts must be at least 1');
  if (!Number.isInteger(maxDeliveries) || maxDeliveries < 1) throw new RangeError('maxDeliveries must be at least 1');
  if (retryDelays.length === 0) throw new RangeError('retryDelaysMs must not be empty');

  const byType = new Map<string, Subscription>();
  for (const s of subscriptions) {
    if (byType.has(s.type)) throw new Error(`${queue} subscribes to ${s.type} twice`);
    byType.set(s.type, s);
  }
  const internals = internalsOf(bus);
  const declared = internals.topologyQueue(queue);
  if (declared) {
    const manifestTypes = [...declared.messages].sort().join(', ');
    const handledTypes = [...byType.keys()].sort().join(', ');
    if (manifestTypes !== handledTypes) {
      throw new Error(`${queue} handles [${handledTypes}] but the broker manifest binds it to [${manifestTypes}]`);
    }
  }
  const names = queueNames(queue, bus.name);
  const log = options.log.child({ component: 'consumer', queue });
  const metrics = bus.metrics;
  const permits = poolPermits(pool);
  const gate = new HandlerGate();
  const batch = options.batch;
  const batching = batch !== undefined;
  const batchSize = batch?.size ?? 1;
  const batchWaitMs = batch?.waitMs ?? 0;
  // Two, or fewer on a pool too small to serve two batches at once.
  const defaultLanes = Math.min(2, permits.size);
  if (batch) {
    if (!Number.isInteger(batch.size) || batch.size < 1 || batch.size > 50) throw new RangeError(`batch.size must be an integer from 1 to 50, got ${batch.size}`);
    if (!Number.isFinite(batchWaitMs) || batchWaitMs < 0 || batchWaitMs > 1_000) throw new RangeError(`batch.waitMs must be from 0 to 1000, got ${batchWaitMs}`);
    const laneCount = batch.lanes ?? defaultLanes;
    if (!Number.isInteger(laneCount) || laneCount < 1 || laneCount > permits.size) throw new RangeError(`batch.lanes must be an integer from 1 to ${permits.size} (the pool's handler permits), got ${laneCount}`);
  }
  /** A batched consumer's acknowledgements, per channel (delivery tags are the channel's). */
  const acksOf = new WeakMap<ConfirmChannel, DeliveryAcks>();

  let stopped = false;
  let channel: ConfirmChannel | undefined;
  let consumerTag: string | undefined;
  let attaching: Promise<void> | undefined;
  const inFlight = new Set<Promise<void>>();
  const wakeSleepers = new Set<() => void>();

  /** Starts consuming on `connection` (the bus has declared the manifest's queues), unless already doing so. */
  function attach(connection: ChannelModel): Promise<void> {
    if (stopped || channel || attaching) return attaching ?? Promise.resolve();
    attaching = (async () => {
      if (!declared) await assertConsumerQueue(connection, bus.name, { queue, messages: [...byType.keys()] });
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
        await ch.prefetch(prefetch);
      } catch (err) {
        await ch.close().catch(() => undefined);
        throw err;
      }
      channel = ch;
      const acks = batching ? new DeliveryAcks(ch) : undefined;
      if (acks) acksOf.set(ch, acks);
      const reply = await ch.consume(names.main, (msg) => {
        if (!msg) return; // cancelled by the broker (queue deleted); close handler re-attaches
        acks?.received(msg);
        const work = handle(ch, msg)
          .catch((err: unknown) => log.error({ err }, 'message handling failed unexpectedly; it will be redelivered'))
          .finally(() => inFlight.delete(work));
        inFlight.add(work);
      });
      consumerTag = reply.consumerTag;
      log.info({ prefetch, handlersAtOnce: permits.size, ...(batch ? { batchSize, batchLanes: lanes.length } : {}) }, 'consuming');
    })().finally(() => {
      attaching = undefined;
    });
    return attaching;
  }

  async function attachCurrent(): Promise<void> {
    const connection = internals.connection();
    if (connection) await attach(connection).catch((err: unknown) => log.error({ err }, 'cannot start consuming'));
  }

  /** A message that passed its checks and may run. */
  interface Ready {
    parsed: Extract<Parsed, { ok: true }>;
    failedBefore: number;
    verified: Record<string, unknown>;
    handlerLog: Logger;
  }

  /**
   * The checks before any handler runs: a message that fails them is dead-lettered here
   * (the promise), one that passes comes back to run. Synchronous up to that point, so the
   * deliveries of one read from the socket reach a batch lane in the same tick.
   */
  function check(ch: ConfirmChannel, msg: ConsumeMessage): Ready | Promise<void> {
    const failedBefore = Number(msg.properties.headers?.[ATTEMPTS_HEADER] ?? 0) || 0;
    const parsed = parse(msg);
    if (!parsed.ok) {
      log.warn({ reason: parsed.reason, messageId: msg.properties.messageId }, 'unparseable message dead-lettered');
      metrics.consumerMessages.inc({ queue, outcome: 'dead_lettered' });
      return forward(ch, msg, names.dlq, { [ATTEMPTS_HEADER]: failedBefore + 1, [ERROR_HEADER]: parsed.reason });
    }
    const { envelope } = parsed;
    const handlerLog = log.child({ correlationId: envelope.correlationId, eventId: envelope.id, type: envelope.type });
    const publisher = verifiedPublisher(msg, envelope.type as MessageType);
    if (!publisher.ok) {
      // Never run: a service that may not publish this type (or an intruder) sent it.
      handlerLog.error({ alert: 'forged_publisher', brokerUser: publisher.user ?? null, messageId: msg.properties.messageId }, 'message from a publisher the broker manifest does not list for its type; dead-lettered');
      metrics.consumerMessages.inc({ queue, outcome: 'refused_publisher' });
      metrics.consumerMessages.inc({ queue, outcome: 'dead_lettered' });
      return forward(ch, msg, names.dlq, { [ATTEMPTS_HEADER]: failedBefore, [ERROR_HEADER]: publisher.reason, [PUBLISHER_HEADER]: undefined }, {}, envelope);
    }
    return { parsed, failedBefore, verified: { [PUBLISHER_HEADER]: publisher.user }, handlerLog };
  }

  async function handle(ch: ConfirmChannel, msg: ConsumeMessage): Promise<void> {
    const ready = check(ch, msg);
    if (ready instanceof Promise) return ready;
    // A message back from a consumer that died (or lost its channel) runs alone, so that if
    // it is what kills the process, nothing else is caught in the crash again. In a batched
    // consumer it also runs on its own, outside any batch.
    const redelivered = msg.fields.redelivered;
    const outcome = redelivered
      ? await gate.alone(() => runUntilAnswered(ready.parsed, true))
      : batching
        ? await inLane(ready)
        : await gate.together(() => runUntilAnswered(ready.parsed, false));
    return settle(ch, msg, ready, outcome);
  }

  async function settle(ch: ConfirmChannel, msg: ConsumeMessage, ready: Ready, outcome: Outcome | undefined): Promise<void> {
    if (outcome === undefined) return; // stopping: left unacknowledged, so it is redelivered
    const { parsed: { envelope }, failedBefore, verified, handlerLog } = ready;

    if (outcome.kind === 'done') {
      metrics.consumerMessages.inc({ queue, outcome: outcome.duplicate ? 'duplicate' : 'processed' });
      // At info: rare (a relay's resend, a redelivery after a crash) and what shows that a
      // message came twice but was handled once (make chaos counts these lines).
      if (outcome.duplicate) handlerLog.info('duplicate delivery ignored');
      return ack(ch, msg);
    }
    if (outcome.kind === 'over-delivery-limit') {
      const reason = `delivery limit: delivered ${outcome.starts + 1} times without finishing (its handler may be killing the process)`;
      handlerLog.error({ starts: outcome.starts }, 'message over its delivery limit; dead-lettered');
      metrics.consumerMessages.inc({ queue, outcome: 'dead_lettered' });
      return forward(ch, msg, names.dlq, { ...verified, [ATTEMPTS_HEADER]: failedBefore, [ERROR_HEADER]: reason }, {}, envelope);
    }
    if (outcome.kind === 'dependency-away') return; // only when stopping mid-wait; redelivered later

    const error = outcome.error;
    const attempts = failedBefore + 1;
    const reason = error instanceof Error ? error.message : String(error);
    metrics.consumerMessages.inc({ queue, outcome: 'failed' });
    if (attempts >= maxAttempts) {
      handlerLog.error({ err: error, attempts }, 'handler failed for the last time; message dead-lettered');
      metrics.consumerMessages.inc({ queue, outcome: 'dead_lettered' });
      return forward(ch, msg, names.dlq, { ...verified, [ATTEMPTS_HEADER]: attempts, [ERROR_HEADER]: reason }, {}, envelope);
    }
    const delay = retryDelays[Math.min(attempts, retryDelays.length) - 1]!;
    handlerLog.warn({ err: error, attempts, retryInMs: delay }, 'handler failed; will retry');
    metrics.consumerMessages.inc({ queue, outcome: 'retried' });
    return forward(ch, msg, names.retry, { ...verified, [ATTEMPTS_HEADER]: attempts, [ERROR_HEADER]: reason }, { expiration: String(delay) });
  }

  /* ------------------------------------------------------------ batches (docs/adr/0050) ---- */

  interface Waiting {
    ready: Ready;
    done: (outcome: Outcome | undefined) => void;
  }
  interface Lane {
    waiting: Waiting[];
    running: boolean;
    timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  }
  const lanes: Lane[] = batching ? Array.from({ length: batch!.lanes ?? defaultLanes }, () => ({ waiting: [], running: false, timer: undefined })) : [];

  /** Queues a fresh message in its lane; resolves with its outcome once its batch has run. */
  function inLane(ready: Ready): Promise<Outcome | undefined> {
    return new Promise((done) => {
      const lane = laneFor(ready.parsed.envelope);
      lane.waiting.push({ ready, done });
      kick(lane, false);
    });
  }

  function laneFor(envelope: Envelope): Lane {
    const key = batch!.aggregateOf?.(envelope);
    if (key !== undefined) return lanes[hash(key) % lanes.length]!;
    // No key: the lane still filling its next batch, else an idle one, else the least behind.
    const filling = lanes.find((l) => !l.running && l.waiting.length > 0 && l.waiting.length < batchSize);
    if (filling) return filling;
    const idle = lanes.find((l) => !l.running && l.waiting.length === 0);
    if (idle) return idle;
    return lanes.reduce((best, lane) => (lane.waiting.length < best.waiting.length ? lane : best));
  }

  /**
   * Starts the lane's next batch when it is idle: at once when a batch is full or its messages
   * have already waited (they came while the previous batch ran), else after waitMs (0: once
   * the deliveries of the current read from the socket are all in).
   */
  function kick(lane: Lane, now: boolean): void {
    if (lane.running || lane.waiting.length === 0) return;
    if (now || lane.waiting.length >= batchSize) {
      clearLaneTimer(lane);
      runLane(lane);
      return;
    }
    if (lane.timer) return;
    const start = () => {
      lane.timer = undefined;
      kick(lane, true);
    };
    // setImmediate: after the deliveries of this read from the socket, without a timer's 1 ms.
    lane.timer = batchWaitMs > 0 ? setTimeout(start, batchWaitMs) : setImmediate(start);
  }

  function clearLaneTimer(lane: Lane): void {
    if (lane.timer === undefined) return;
    if (batchWaitMs > 0) clearTimeout(lane.timer as NodeJS.Timeout);
    else clearImmediate(lane.timer as NodeJS.Immediate);
    lane.timer = undefined;
  }

  function runLane(lane: Lane): void {
    const taken = lane.waiting.splice(0, batchSize);
    lane.running = true;
    void gate
      .together(() => runBatchUntilAnswered(taken.map((w) => w.ready)))
      .then(
        (outcomes) => taken.forEach((w, i) => w.done(outcomes?.[i])),
        (err: unknown) => {
          log.error({ err }, 'batch failed unexpectedly; its messages will be redelivered');
          taken.forEach((w) => w.done(undefined));
        },
      )
      .finally(() => {
        lane.running = false;
        if (stopped) return releaseWaiting();
        kick(lane, true);
      });
  }

  /** Stopping: messages not started stay unacknowledged and go back to the queue. */
  function releaseWaiting(): void {
    for (const lane of lanes) {
      clearLaneTimer(lane);
      for (const w of lane.waiting.splice(0)) w.done(undefined);
    }
  }

  /** runUntilAnswered for a batch: while PostgreSQL is away the batch waits whole. */
  async function runBatchUntilAnswered(batch: Ready[]): Promise<Array<Outcome | undefined> | undefined> {
    let wait = DEPENDENCY_WAIT_MS.first;
    for (;;) {
      if (stopped) return undefined;
      const result = await permits.use(async () => (stopped ? undefined : runBatchOnce(batch)));
      if (result === undefined) return undefined;
      if (Array.isArray(result)) return result;
      if (result.kind === 'refused') {
        // The batch as a whole did not commit for a reason of its own (a deadlock between two
        // batches, a deferred constraint at COMMIT): each message runs alone, as unbatched.
        log.warn({ err: result.error, messages: batch.length }, 'batch did not commit; running its messages one by one');
        const outcomes: Array<Outcome | undefined> = [];
        for (const ready of batch) outcomes.push(await runUntilAnswered(ready.parsed, false));
        return outcomes;
      }
      metrics.consumerMessages.inc({ queue, outcome: 'waited' }, batch.length);
      log.warn({ err: result.error, retryInMs: wait }, 'PostgreSQL is away; holding the batch until it answers');
      await sleep(wait);
      wait = Math.min(wait * 2, DEPENDENCY_WAIT_MS.max);
    }
  }

  /**
   * One transaction for the batch: BEGIN, the processed_events rows of every message (the
   * ones already there are duplicates) and the first savepoint in one round trip; then each
   * fresh message's handler under its savepoint, a failed one rolled back to it with its
   * processed_events row; then one COMMIT.
   */
  async function runBatchOnce(batch: Ready[]): Promise<Outcome[] | { kind: 'dependency-away' | 'refused'; error: unknown }> {
    let client: PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      return { kind: 'dependency-away', error };
    }
    let broken = false;
    // Handlers' outbox rows are published once the batch commits (docs/adr/0055).
    const end = transactionEnd(client);
    try {
      // Literals escaped by the driver: the queue's name is the service's own, each id passed
      // the envelope's uuid check. Sorted, so two batches lock their rows in the same order.
      const ids = batch.map((r) => r.parsed.envelope.id.toLowerCase());
      const fresh = await begin(client, {
        atBegin: `INSERT INTO processed_events (consumer, event_id)
                    SELECT ${client.escapeLiteral(queue)}, id FROM unnest(ARRAY[${ids.map((id) => client.escapeLiteral(id)).join(', ')}]::uuid[]) AS id ORDER BY id
                  ON CONFLICT DO NOTHING RETURNING event_id`,
      });
      const toRun = new Set((fresh?.rows ?? []).map((r: { event_id: string }) => r.event_id));
      const outcomes: Outcome[] = [];
      let savepointHeld = false;
      for (const [i, { parsed, handlerLog }] of batch.entries()) {
        // A message twice in one batch (the relay resent it) runs once: the id leaves the set.
        if (!toRun.delete(ids[i]!)) {
          outcomes.push({ kind: 'done', duplicate: true });
          continue;
        }
        // The savepoint is taken when the handler first queries, in the same round trip as the
        // release of the previous one: a handler that writes nothing costs no round trip.
        let savepointTaken = false;
        const db = onFirstQuery(client, () => {
          savepointTaken = true;
          const statement = savepointHeld ? 'RELEASE SAVEPOINT handler; SAVEPOINT handler' : 'SAVEPOINT handler';
          savepointHeld = true;
          return statement;
        });
        end.lend(db);
        const started = process.hrtime.bigint();
        try {
          await parsed.subscription.handler(parsed.envelope.data, { envelope: parsed.envelope, db, log: handlerLog });
          outcomes.push({ kind: 'done', duplicate: false });
          handlerLog.debug('handled');
        } catch (error) {
          if (unavailableDependency(error) === 'postgres') throw error;
          // Its effects (if it wrote any) and its processed_events row go; its neighbours' stay.
          if (savepointTaken) await client.query('ROLLBACK TO SAVEPOINT handler');
          await client.query('DELETE FROM processed_events WHERE consumer = $1 AND event_id = $2', [queue, ids[i]]);
          outcomes.push({ kind: 'failed', error });
        } finally {
          metrics.handlerSeconds.observe({ queue }, Number(process.hrtime.bigint() - started) / 1e9);
        }
      }
      await client.query('COMMIT');
      end.committed();
      return outcomes;
    } catch (error) {
      end.ended();
      await client.query('ROLLBACK').catch(() => undefined);
      if (unavailableDependency(error) === 'postgres') {
        broken = true;
        return { kind: 'dependency-away', error };
      }
      return { kind: 'refused', error };
    } finally {
      client.release(broken);
    }
  }

  /**
   * Who published the message, when the manifest lists them for its type (docs/adr/0039). The
   * broker guarantees user_id is the publishing connection's user; a copy this consumer
   * republished itself (retry, DLQ replay) carries its own user and the publisher it verified.
   */
  function verifiedPublisher(msg: ConsumeMessage, type: MessageType): { ok: true; user: string } | { ok: false; user: string | undefined; reason: string } {
    const userId = typeof msg.properties.userId === 'string' && msg.properties.userId !== '' ? msg.properties.userId : undefined;
    const carried = msg.properties.headers?.[PUBLISHER_HEADER];
    const user = userId !== undefined && userId === internals.brokerUser && typeof carried === 'string' ? carried : userId;
    if (user !== undefined && mayPublish(user, type)) return { ok: true, user };
    // The local broker's one user stands for every process (never in production).
    if (internals.developmentBroker && (user === undefined || user === 'guest')) return { ok: true, user: user ?? 'guest' };
    return {
      ok: false,
      user,
      reason: `refused: ${type} from broker user ${user === undefined ? '(none)' : `'${user}'`}, which the broker manifest does not list as its publisher (${publishers[type].join(', ')})`,
    };
  }

  /**
   * Runs the message until it has an answer that does not depend on PostgreSQL being there:
   * while the database is away it waits and tries again. Undefined when stopped meanwhile.
   */
  async function runUntilAnswered(parsed: Extract<Parsed, { ok: true }>, redelivered: boolean): Promise<Outcome | undefined> {
    let wait = DEPENDENCY_WAIT_MS.first;
    for (;;) {
      if (stopped) return undefined;
      // Stopping while waiting for a permit: left unacknowledged, so the drain waits only for
      // handlers already running, not for the whole prefetch.
      const outcome = await permits.use(async () => (stopped ? undefined : runOnce(parsed, redelivered)));
      if (outcome === undefined || outcome.kind !== 'dependency-away') return outcome;
      metrics.consumerMessages.inc({ queue, outcome: 'waited' });
      log.warn({ err: outcome.error, retryInMs: wait }, 'PostgreSQL is away; holding the message until it answers');
      await sleep(wait);
      wait = Math.min(wait * 2, DEPENDENCY_WAIT_MS.max);
    }
  }

  async function runOnce({ envelope, subscription }: Extract<Parsed, { ok: true }>, redelivered: boolean): Promise<Outcome> {
    let client: PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      // Every way of not getting a connection (refused, timed out) is the database's absence.
      return { kind: 'dependency-away', error };
    }
    const handlerLog = log.child({ correlationId: envelope.correlationId, eventId: envelope.id, type: envelope.type });
    const started = process.hrtime.bigint();
    let inTransaction = false;
    let end: TransactionEnd | undefined;
    try {
      if (redelivered) {
        const done = await client.query('SELECT 1 FROM processed_events WHERE consumer = $1 AND event_id = $2', [queue, envelope.id]);
        if (done.rowCount) return { kind: 'done', duplicate: true };
        // Committed on its own before the handler runs, so a run that kills the process still counts.
        const { rows } = await client.query<{ starts: number }>(
          `INSERT INTO delivery_attempts (consumer, event_id) VALUES ($1, $2)
           ON CONFLICT (consumer, event_id) DO UPDATE SET starts = delivery_attempts.starts + 1, last_started_at = now()
           RETURNING starts`,
          [queue, envelope.id],
        );
        const starts = rows[0]!.starts;
        if (starts > maxDeliveries) return { kind: 'over-delivery-limit', starts };
      }
      inTransaction = true;
      end = transactionEnd(client);
      // In BEGIN's round trip (docs/adr/0025): both values are literals, escaped by the driver
      // (the queue's name is the service's own, the id passed the envelope's uuid check).
      const fresh = await begin(client, {
        atBegin: `INSERT INTO processed_events (consumer, event_id) VALUES (${client.escapeLiteral(queue)}, ${client.escapeLiteral(envelope.id)}::uuid) ON CONFLICT DO NOTHING`,
      });
      if (fresh?.rowCount === 0) {
        await client.query('COMMIT');
        end.ended();
        return { kind: 'done', duplicate: true };
      }
      await subscription.handler(envelope.data, { envelope, db: client, log: handlerLog });
      if (redelivered) await client.query('DELETE FROM delivery_attempts WHERE consumer = $1 AND event_id = $2', [queue, envelope.id]);
      await client.query('COMMIT');
      end.committed();
      metrics.handlerSeconds.observe({ queue }, Number(process.hrtime.bigint() - started) / 1e9);
      handlerLog.debug('handled');
      return { kind: 'done', duplicate: false };
    } catch (error) {
      end?.ended();
      if (inTransaction) await client.query('ROLLBACK').catch(() => undefined);
      metrics.handlerSeconds.observe({ queue }, Number(process.hrtime.bigint() - started) / 1e9);
      if (unavailableDependency(error) === 'postgres') return { kind: 'dependency-away', error };
      return { kind: 'failed', error };
    } finally {
      client.release();
    }
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
    const schema = cachedMessageSchema(type, version);
    if (!schema) return { ok: false, reason: `unknown message type ${type} v${version}` };
    const data = schema.safeParse(envelope.data.data);
    if (!data.success) return { ok: false, reason: `bad ${type} v${version} data: ${firstIssue(data.error)}` };
    return { ok: true, envelope: { ...envelope.data, data: data.data }, subscription };
  }

  /**
   * Moves the message to the retry queue or DLQ: the original is acked only after the broker
   * confirms the copy, so a crash in between redelivers it rather than losing it. A message
   * that holds a secret goes to the DLQ without its data (it is never replayed: a reset link
   * that could not be sent is asked for again).
   */
  async function forward(
    ch: ConfirmChannel,
    msg: ConsumeMessage,
    to: string,
    headers: Record<string, unknown>,
    extra: Options.Publish = {},
    envelope?: Envelope,
  ): Promise<void> {
    let content = msg.content;
    if (to === names.dlq && envelope && carriesSecret(envelope.type as MessageType, envelope.data)) {
      content = Buffer.from(JSON.stringify({ ...envelope, data: { redacted: 'held a secret; removed when dead-lettered' } }));
      headers = { ...headers, [REDACTED_HEADER]: true };
    }
    try {
      await new Promise<void>((resolve, reject) => {
        // Our own user: the broker refuses any other user_id on our connection.
        ch.sendToQueue(to, content, { ...republishOptions(msg, headers), userId: internals.brokerUser, ...extra }, (err: unknown) =>
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
    if (batching) {
      acksOf.get(ch)?.settle(msg);
      return;
    }
    try {
      ch.ack(msg);
    } catch {
      // Channel closed meanwhile: the message is redelivered and processed_events absorbs it.
    }
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wakeSleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      wakeSleepers.add(done);
    });
  }

  const unwatchDlq = metrics.watchQueueDepth(names.dlq, async () => {
    const ch = await internals.openChannel();
    try {
      return (await ch.checkQueue(names.dlq)).messageCount;
    } finally {
      await ch.close().catch(() => undefined);
    }
  });
  const unregister = internals.onConnect(attach);
  if (internals.connection()) await attach(internals.connection()!);

  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      unregister();
      unwatchDlq();
      for (const wake of [...wakeSleepers]) wake();
      releaseWaiting();
      await attaching?.catch(() => undefined);
      const ch = channel;
      if (ch && consumerTag) await ch.cancel(consumerTag).catch(() => undefined);
      // Graceful shutdown: handlers already running finish and ack before the channel closes.
      if (inFlight.size > 0) log.info({ handlers: inFlight.size }, 'waiting for running handlers to finish');
      await Promise.allSettled([...inFlight]);
      channel = undefined;
      await ch?.close().catch(() => undefined);
      log.info('stopped consuming');
    },
  };
}

/**
 * The client a batched handler gets: its first `query` is preceded by `first()`'s statement
 * (its savepoint), queued on the connection before the handler's own; everything else is the
 * client's own.
 */
function onFirstQuery(client: PoolClient, first: () => string): PoolClient {
  let pending = true;
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'query' && pending) {
        return (...args: unknown[]) => {
          if (pending) {
            pending = false;
            // Not awaited: the driver runs queries in the order they are given, and a failed
            // savepoint fails the handler's query behind it, which is what the handler sees.
            target.query(first()).catch(() => undefined);
          }
          return (target.query as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** FNV-1a: a stable lane for an aggregate's key. */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function firstIssue(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  return issue.path.length ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message;
}
