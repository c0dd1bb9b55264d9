import amqp, { type Channel, type ChannelModel, type ConfirmChannel } from 'amqplib';
import { UNROUTED_QUEUE } from '@warmline/contracts';
import type { Logger } from '../log';
import { BusMetrics } from './metrics';
import { assertTopology, LayoutNotMigratedError, MANIFEST_TOPOLOGY, type Topology, type TopologyQueue } from './topology';

export interface BusOptions {
  url: string;
  log: Logger;
  /** Shown in RabbitMQ's management UI, so an operator can tell which service holds a connection. */
  connectionName: string;
  /** Prefixes every exchange and queue name; tests pass a unique one, production none. */
  namespace?: string;
  heartbeatSeconds?: number;
  /**
   * The layout asserted at every connect (the migration step declares and migrates it); the
   * broker manifest of contracts by default.
   */
  topology?: Topology;
  /**
   * Whether a consumer may use a queue the layout does not name (declared when it starts).
   * Only tests that make up queues say yes; a service's queues are all in the manifest.
   */
  allowQueuesOutsideTopology?: boolean;
  /** Where the bus's metrics are registered; a registry of its own when not given. */
  metrics?: BusMetrics;
  /**
   * The development and test broker, where every process connects as the one local user
   * (guest): a message from guest, or with no user at all, passes the consumers' publisher
   * check (docs/adr/0039). createServiceBus sets it only when NODE_ENV is development or test;
   * in production every message must come from a broker user the manifest lists for its type.
   */
  developmentBroker?: boolean;
}

export interface Bus {
  /** Resolves once the first connection is made and the whole layout (manifest) is asserted. */
  ready(): Promise<void>;
  /** For /readyz: throws when not connected. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Applies the namespace to an exchange or queue name. */
  name(base: string): string;
  /** The outbox, relay, consumer and DLQ figures for /metrics. */
  readonly metrics: BusMetrics;
}

/** What the relay, consumers and DLQ tools need beyond the public Bus. */
export interface BusInternals {
  log: Logger;
  /** The live connection, or undefined while (re)connecting. */
  connection(): ChannelModel | undefined;
  /** Runs `setup` after every future (re)connect; returns a function that unregisters it. */
  onConnect(setup: (connection: ChannelModel) => Promise<void>): () => void;
  /** A fresh channel on the live connection, waiting for the first connection if needed. */
  openChannel(): Promise<Channel>;
  openConfirmChannel(): Promise<ConfirmChannel>;
  /** The layout entry of a consumer queue; undefined when the layout has none (and allows that). */
  topologyQueue(queue: string): TopologyQueue | undefined;
  /** The broker user this bus connects as: every message it publishes carries it as user_id. */
  brokerUser: string;
  /** See BusOptions.developmentBroker. */
  developmentBroker: boolean;
}

const internalsByBus = new WeakMap<Bus, BusInternals>();

export function internalsOf(bus: Bus): BusInternals {
  const internals = internalsByBus.get(bus);
  if (!internals) throw new Error('This bus was not made by createBus');
  return internals;
}

// Reconnect delays: start fast so a blip costs little, cap so a long outage does not
// hammer the broker, jitter so a fleet of services does not reconnect in lockstep.
const FIRST_DELAY_MS = 200;
const MAX_DELAY_MS = 10_000;
// A broker that accepts TCP but never answers the handshake must not hang us.
const CONNECT_TIMEOUT_MS = 10_000;

export function createBus(options: BusOptions): Bus {
  const { log, connectionName } = options;
  const namespace = options.namespace;
  const name = (base: string) => (namespace ? `${namespace}.${base}` : base);
  const url = withHeartbeat(options.url, options.heartbeatSeconds ?? 15);
  const where = describe(options.url);
  const topology = options.topology ?? MANIFEST_TOPOLOGY;
  const metrics = options.metrics ?? new BusMetrics();
  // What no queue was bound to: visible in /metrics, so a missing binding does not go unseen.
  metrics.watchQueueDepth(name(UNROUTED_QUEUE), async () => {
    if (!current) throw new Error('not connected');
    const ch = await current.createChannel();
    ch.on('error', () => undefined);
    try {
      return (await ch.checkQueue(name(UNROUTED_QUEUE))).messageCount;
    } finally {
      await ch.close().catch(() => undefined);
    }
  });

  let current: ChannelModel | undefined;
  let closed = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let closing: Promise<void> | undefined;
  const setups = new Set<(connection: ChannelModel) => Promise<void>>();

  let markReady!: () => void;
  let failReady!: (err: Error) => void;
  const firstConnection = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  firstConnection.catch(() => undefined); // nobody may be waiting when close() rejects it

  async function connect(): Promise<void> {
    timer = undefined;
    if (closed) return;
    let connection: ChannelModel | undefined;
    try {
      connection = await amqp.connect(url, {
        clientProperties: { connection_name: connectionName },
        timeout: CONNECT_TIMEOUT_MS,
        // amqplib leaves Nagle's algorithm on: a publish or an ack written while an earlier
        // one is unacknowledged waited for TCP's delayed ACK (~40 ms on loopback), which was
        // most of an event's commit-to-handler time (docs/adr/0025).
        noDelay: true,
      });
      if (closed) {
        await connection.close().catch(() => undefined);
        return;
      }
      writeFramesTogether(connection);
      connection.on('error', (err: Error) => log.warn({ err }, 'RabbitMQ connection error'));
      connection.on('blocked', (reason: string) => log.warn({ reason }, 'RabbitMQ blocked this connection'));
      connection.on('unblocked', () => log.info('RabbitMQ unblocked this connection'));
      connection.on('close', () => onLost(connection!));
      await assertTopology(connection, name, topology);
    } catch (err) {
      if (err instanceof LayoutNotMigratedError) {
        // Not a fault of ours: the release's migration step has not run yet. Wait for it.
        log.warn({ reason: err.message, broker: where, attempt: failures + 1 }, 'the broker layout is not migrated yet; waiting for the migration step');
      } else {
        log.warn({ err, broker: where, attempt: failures + 1 }, 'cannot connect to RabbitMQ');
      }
      await connection?.close().catch(() => undefined);
      scheduleReconnect();
      return;
    }
    failures = 0;
    current = connection;
    log.info({ broker: where, connectionName }, 'connected to RabbitMQ');
    markReady();
    // Consumers and the relay re-create their channels on the new connection.
    for (const setup of setups) {
      setup(connection).catch((err: unknown) => log.error({ err }, 'bus setup after connect failed'));
    }
  }

  function onLost(connection: ChannelModel): void {
    if (current !== connection) return;
    current = undefined;
    if (closed) return;
    log.warn({ broker: where }, 'lost connection to RabbitMQ; reconnecting');
    scheduleReconnect();
  }

  function scheduleReconnect(): void {
    if (closed || timer) return;
    const backoff = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** failures);
    failures += 1;
    timer = setTimeout(() => void connect(), backoff * (0.8 + Math.random() * 0.4));
  }

  async function openChannel<C extends Channel>(create: (c: ChannelModel) => Promise<C>): Promise<C> {
    await firstConnection;
    if (!current) throw new Error(`RabbitMQ is not connected (${where})`);
    return quiet(await create(current));
  }

  /**
   * A channel error (a 404 on checkQueue, say) reaches its caller through the failed call; an
   * 'error' event with no listener would instead be thrown into amqplib and take the whole
   * connection down with it.
   */
  function quiet<C extends Channel>(channel: C): C {
    channel.on('error', (err: Error) => log.debug({ err }, 'RabbitMQ closed a channel'));
    return channel;
  }

  const bus: Bus = {
    ready: () => firstConnection,
    async ping() {
      if (!current) throw new Error(`RabbitMQ is not connected (${where})`);
    },
    close() {
      closing ??= (async () => {
        closed = true;
        if (timer) clearTimeout(timer);
        failReady(new Error('The bus was closed before it connected'));
        const connection = current;
        current = undefined;
        if (connection) {
          await connection.close().catch(() => undefined);
          log.info({ broker: where }, 'closed RabbitMQ connection');
        }
      })();
      return closing;
    },
    name,
    metrics,
  };

  internalsByBus.set(bus, {
    log,
    connection: () => current,
    onConnect(setup) {
      setups.add(setup);
      return () => setups.delete(setup);
    },
    openChannel: () => openChannel((c) => c.createChannel()),
    openConfirmChannel: () => openChannel((c) => c.createConfirmChannel()),
    topologyQueue(queue) {
      const entry = topology.queues.find((q) => q.queue === queue);
      if (entry || options.allowQueuesOutsideTopology) return entry;
      throw new Error(`Queue ${queue} is not in the broker manifest (services/contracts/src/bus/broker-manifest.ts)`);
    },
    // amqplib logs in as guest when the URL names no user.
    brokerUser: decodeURIComponent(new URL(options.url).username) || 'guest',
    developmentBroker: options.developmentBroker ?? false,
  });

  void connect();
  return bus;
}

/** Heartbeats detect a dead peer behind a silent network; amqplib takes them from the URL. */
function withHeartbeat(url: string, seconds: number): string {
  const parsed = new URL(url);
  if (!parsed.searchParams.has('heartbeat')) parsed.searchParams.set('heartbeat', String(seconds));
  return parsed.toString();
}

/** host:port/vhost without credentials, for logs and error messages. */
function describe(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || 5672}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}

/** The parts of amqplib's connection (2.x, not typed) that write frames to the socket. */
interface FrameWriter {
  connection?: { muxer?: { _readIncoming?: () => void; out?: { cork?: () => void; uncork?: () => void } } };
}

/**
 * amqplib's multiplexer writes each message (and each ack) to the socket with a write of its
 * own, in one loop per turn of the event loop: a relay batch of 100 events was 100 syscalls.
 * Corked around that loop, what one turn produced leaves in one writev (issue 27: the relay's
 * writes were most of the webhook's syscalls at moderate rates). Backpressure is unchanged —
 * a corked socket still says when its buffer is full. Left alone if amqplib's insides differ.
 */
export function writeFramesTogether(model: ChannelModel): boolean {
  const muxer = (model as unknown as FrameWriter).connection?.muxer;
  const out = muxer?.out;
  if (!muxer || typeof muxer._readIncoming !== 'function' || typeof out?.cork !== 'function' || typeof out.uncork !== 'function') return false;
  const readIncoming = muxer._readIncoming.bind(muxer);
  muxer._readIncoming = () => {
    out.cork!();
    try {
      readIncoming();
    } finally {
      out.uncork!();
    }
  };
  return true;
}
