import client from 'prom-client';

type Probe<T> = () => Promise<T>;

/**
 * The bus's figures for a service's /metrics (ARCHITECTURE §5): outbox backlog and the age of
 * its oldest unsent row, what the relay published or failed to, what each consumer queue
 * processed, retried, failed and dead-lettered with its handlers' durations, and the depth of
 * each dead-letter queue. Gauges that need a look at PostgreSQL or RabbitMQ are read when
 * scraped; a dependency that is away then leaves the gauge out instead of failing the scrape.
 */
export class BusMetrics {
  readonly registry: client.Registry;
  private readonly outboxProbes = new Map<string, Probe<{ backlog: number; oldestSeconds: number }>>();
  private readonly depthProbes = new Map<string, Probe<number>>();

  readonly relayPublished: client.Counter<'schema'>;
  readonly relayFailed: client.Counter<'schema'>;
  /** outcome: processed, duplicate, retried, dead_lettered, waited (a dependency was away), refused_publisher (alert: a forged or unlisted publisher). */
  readonly consumerMessages: client.Counter<'queue' | 'outcome'>;
  readonly handlerSeconds: client.Histogram<'queue'>;

  constructor(registry: client.Registry = new client.Registry()) {
    this.registry = registry;
    const registers = [registry];
    const outboxProbes = this.outboxProbes;
    const depthProbes = this.depthProbes;
    const backlog = new client.Gauge({
      name: 'warmline_outbox_backlog',
      help: 'Outbox rows not yet confirmed by the broker',
      labelNames: ['schema'],
      registers,
      async collect() {
        await collectEach(outboxProbes, (schema, v) => {
          backlog.set({ schema }, v.backlog);
          oldest.set({ schema }, v.oldestSeconds);
        });
      },
    });
    const oldest = new client.Gauge({
      name: 'warmline_outbox_oldest_unsent_seconds',
      help: 'Age of the oldest outbox row not yet confirmed by the broker (0 when none)',
      labelNames: ['schema'],
      registers,
    });
    this.relayPublished = new client.Counter({
      name: 'warmline_relay_published_total',
      help: 'Outbox rows the broker confirmed',
      labelNames: ['schema'],
      registers,
    });
    this.relayFailed = new client.Counter({
      name: 'warmline_relay_failed_total',
      help: 'Outbox rows whose publish was not confirmed (retried later)',
      labelNames: ['schema'],
      registers,
    });
    this.consumerMessages = new client.Counter({
      name: 'warmline_consumer_messages_total',
      help: 'Messages a consumer finished, by outcome',
      labelNames: ['queue', 'outcome'],
      registers,
    });
    this.handlerSeconds = new client.Histogram({
      name: 'warmline_consumer_handler_duration_seconds',
      help: 'Handler run time per consumer queue',
      labelNames: ['queue'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    const depth = new client.Gauge({
      name: 'warmline_queue_depth',
      help: 'Messages waiting in a dead-letter queue or the unrouted queue',
      labelNames: ['queue'],
      registers,
      async collect() {
        await collectEach(depthProbes, (queue, n) => depth.set({ queue }, n));
      },
    });
  }

  /** The relay of `schema` reports its backlog through `probe` at each scrape. */
  watchOutbox(schema: string, probe: Probe<{ backlog: number; oldestSeconds: number }>): () => void {
    this.outboxProbes.set(schema, probe);
    return () => this.outboxProbes.delete(schema);
  }

  /** A queue (a DLQ, the unrouted queue) whose depth is read at each scrape. */
  watchQueueDepth(queue: string, probe: Probe<number>): () => void {
    this.depthProbes.set(queue, probe);
    return () => this.depthProbes.delete(queue);
  }
}

async function collectEach<T>(probes: Map<string, Probe<T>>, set: (key: string, value: T) => void): Promise<void> {
  await Promise.all(
    [...probes].map(async ([key, probe]) => {
      try {
        set(key, await withTimeout(probe(), 1000));
      } catch {
        // Away for now: the scrape goes on without this figure.
      }
    }),
  );
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out')), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
