/**
 * `make bench` (part 4): the event pipeline (issue 16). Not a test: it measures, prints, and writes
 * its section of docs/benchmarks.md (between the bench:event-pipeline markers).
 *
 * - Baseline, in the same run: a bare amqplib confirm-channel publish loop of the same envelopes
 *   to the same exchange and routing key, into a queue bound to it (what RabbitMQ alone takes).
 * - The pipeline: each event written with the platform's `enqueue` in a transaction of its own
 *   (as a service writes it with its state change; WRITERS at a time), published by the platform's
 *   outbox relay (LISTEN/NOTIFY, confirms), delivered to the platform's consumer (which records
 *   processed_events in the handler's transaction). Its rate is events ÷ (first commit → last
 *   handler run), as a ratio of the bare loop's. Target ≥ 50 %.
 * - Commit-to-handler latency (commit resolved → handler called, one process, one clock), p50 and
 *   p95: at a steady PACED_RATE (target p95 ≤ 50 ms), and during the saturated run above.
 * Its own database (dropped after) and broker namespace (deleted after).
 *
 * - Diagnostic: a bare INSERT + COMMIT of the same payloads by the same writers (the database's
 *   own ceiling for one commit per event on this machine).
 * - Diagnostic: the same events written BATCH to a transaction, so commits are not the limit and
 *   the relay and the consumer are.
 *
 *   BENCH_EVENTS=10000 BENCH_WRITERS=8 BENCH_BATCH=50 BENCH_PACED_RATE=200 BENCH_PACED_EVENTS=2000
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import amqp from 'amqplib';
import { type Envelope, type EventData } from '@warmline/contracts';
import { eventExamples } from '@warmline/contracts/bus/message-examples';
import { createBus, enqueue, enqueueAll, startConsumer, startOutboxRelay, subscribe } from '@warmline/platform/bus/index';
import { createPool, runMigrations, withTransaction } from '@warmline/platform/db/index';
import { createLogger } from '@warmline/platform/log';
import { createTestDatabase, uniqueName } from '@warmline/platform/testing/index';
import { deleteBusNames } from '@warmline/platform/testing/system';
import { percentileOfSorted, say, Targets, writeSection } from './kit/index.js';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 8);
const PACED_RATE = Number(process.env.BENCH_PACED_RATE ?? 200);
const PACED_EVENTS = Number(process.env.BENCH_PACED_EVENTS ?? 2_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 50);
const TYPE = 'payment.succeeded';
const QUEUE = 'bench.event-pipeline';

const percentile = (sorted: number[], p: number) => percentileOfSorted(sorted, p / 100);

/** Event i: the example payment with its own order id (every event a distinct fact). */
function payment(): EventData<typeof TYPE> {
  return { ...eventExamples[TYPE], orderId: randomUUID() };
}

const db = await createTestDatabase('wl_bench_events');
const emptyDir = await mkdtemp(path.join(os.tmpdir(), 'wl-bench-migrations-'));
const schema = 'bench';
await runMigrations({ databaseUrl: db.url, schema, dir: emptyDir });
const pool = createPool(db.url, schema, WRITERS + 4);
// The consumer is another service's: its own pool, as a consuming service has (it shares the
// database server and this process's CPU, but not the writers' connections).
const consumerPool = createPool(db.url, schema, 10);
const log = createLogger('bench', 'warn', process.stderr);
const namespace = uniqueName('bench_events').toLowerCase();

const bus = createBus({
  developmentBroker: true,
  url: AMQP_URL,
  log,
  connectionName: 'bench event-pipeline',
  namespace,
  topology: { queues: [{ queue: QUEUE, messages: [TYPE] }] },
});
await bus.ready();

/* ------------------------------------------------------------- baseline: bare amqplib ---------- */

async function bareConfirmLoop(envelopes: Buffer[]): Promise<number> {
  const connection = await amqp.connect(AMQP_URL);
  try {
    const ch = await connection.createConfirmChannel();
    // A topic exchange of its own with the same routing key: the consumer's queue must not get these.
    const bare = `${namespace}.bench.bare`;
    await ch.assertExchange(bare, 'topic', { durable: true });
    const { queue } = await ch.assertQueue('', { exclusive: true, autoDelete: true, durable: true });
    await ch.bindQueue(queue, bare, TYPE);
    const started = performance.now();
    for (const body of envelopes) {
      const flowing = ch.publish(bare, TYPE, body, { persistent: true, contentType: 'application/json', type: TYPE });
      if (!flowing) await new Promise((resolve) => ch.once('drain', resolve));
    }
    await ch.waitForConfirms();
    const seconds = (performance.now() - started) / 1000;
    const { messageCount } = await ch.checkQueue(queue);
    if (messageCount !== envelopes.length) throw new Error(`bare loop: ${messageCount} of ${envelopes.length} in the queue`);
    await ch.deleteQueue(queue);
    await ch.deleteExchange(bare);
    return seconds;
  } finally {
    await connection.close();
  }
}

/** The database's own ceiling for the pipeline's write side: a bare INSERT + COMMIT per event, same writers. */
async function bareCommitLoop(count: number): Promise<number> {
  await pool.query('CREATE TABLE IF NOT EXISTS bare_commits (id uuid PRIMARY KEY, body jsonb NOT NULL)');
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < count) {
        next++;
        await withTransaction(pool, (tx) => tx.query('INSERT INTO bare_commits (id, body) VALUES ($1, $2)', [randomUUID(), JSON.stringify(payment())]));
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

/* ------------------------------------------------------------ the platform's pipeline ---------- */

const committedAt = new Map<string, number>();
const handledAt = new Map<string, number>();
let expecting = 0;
let allHandled: () => void = () => undefined;

const consumer = await startConsumer({
  bus,
  pool: consumerPool,
  queue: QUEUE,
  log,
  subscriptions: [
    subscribe(TYPE, async (_data, ctx) => {
      handledAt.set(ctx.envelope.id, performance.now());
      if (handledAt.size >= expecting) allHandled();
    }),
  ],
});
const relay = startOutboxRelay({ pool, databaseUrl: db.url, schema, bus, log });

async function writeOne(): Promise<void> {
  const envelope = await withTransaction(pool, (tx) => enqueue(tx, { type: TYPE, data: payment(), correlationId: randomUUID(), source: 'bench' }));
  committedAt.set(envelope.id, performance.now());
}

/** `count` events in one transaction: what the outbox relay and the consumer take when commits are not the limit. */
async function writeBatch(count: number): Promise<void> {
  // One INSERT for the lot (enqueueAll), as a service writing many events at once does.
  const ids = await withTransaction(pool, async (tx) =>
    (await enqueueAll(tx, Array.from({ length: count }, () => ({ type: TYPE, data: payment(), correlationId: randomUUID(), source: 'bench' })))).map((e) => e.id),
  );
  const now = performance.now();
  for (const id of ids) committedAt.set(id, now);
}

function latencies(ids: Iterable<string>): number[] {
  return [...ids].map((id) => handledAt.get(id)! - committedAt.get(id)!).sort((a, b) => a - b);
}

async function run(count: number, write: () => Promise<void>): Promise<{ seconds: number; writeSeconds: number; ids: string[] }> {
  const before = new Set(committedAt.keys());
  expecting = handledAt.size + count;
  const done = new Promise<void>((resolve) => (allHandled = resolve));
  const started = performance.now();
  await write();
  const writeSeconds = (performance.now() - started) / 1000;
  await done;
  const seconds = (performance.now() - started) / 1000;
  return { seconds, writeSeconds, ids: [...committedAt.keys()].filter((id) => !before.has(id)) };
}

let results: {
  bareSeconds: number;
  commitSeconds: number;
  pipelineSeconds: number;
  writeSeconds: number;
  batchedSeconds: number;
  batchedWriteSeconds: number;
  saturated: number[];
  paced: number[];
  pacedSeconds: number;
};
try {
  // Warm up both paths (JIT, connections, the relay's LISTEN) before anything is timed.
  await run(200, async () => {
    for (let i = 0; i < 200; i++) await writeOne();
  });
  await bareConfirmLoop(Array.from({ length: 200 }, () => Buffer.from('{}')));

  const envelopes = Array.from({ length: EVENTS }, () => {
    const envelope: Envelope<EventData<typeof TYPE>> = {
      id: randomUUID(),
      type: TYPE,
      version: 1,
      occurredAt: new Date().toISOString(),
      source: 'bench',
      correlationId: randomUUID(),
      data: payment(),
    };
    return Buffer.from(JSON.stringify(envelope));
  });
  say(`bare amqplib confirm loop: ${EVENTS} events`);
  const bareSeconds = await bareConfirmLoop(envelopes);
  say(`  ${bareSeconds.toFixed(2)} s (${Math.round(EVENTS / bareSeconds)}/s)`);

  say(`bare INSERT + COMMIT: ${EVENTS} rows, ${WRITERS} writers`);
  const commitSeconds = await bareCommitLoop(EVENTS);
  say(`  ${commitSeconds.toFixed(2)} s (${Math.round(EVENTS / commitSeconds)}/s)`);

  say(`pipeline: ${EVENTS} events, ${WRITERS} writers, one transaction each`);
  const saturatedRun = await run(EVENTS, async () => {
    let next = 0;
    await Promise.all(
      Array.from({ length: WRITERS }, async () => {
        while (next < EVENTS) {
          next++;
          await writeOne();
        }
      }),
    );
  });
  say(`  ${saturatedRun.seconds.toFixed(2)} s (${Math.round(EVENTS / saturatedRun.seconds)}/s; the writes alone ${saturatedRun.writeSeconds.toFixed(2)} s)`);

  say(`pipeline, batched: ${EVENTS} events, ${BATCH} per transaction`);
  const batchedRun = await run(EVENTS, async () => {
    for (let i = 0; i < EVENTS; i += BATCH) await writeBatch(Math.min(BATCH, EVENTS - i));
  });
  say(`  ${batchedRun.seconds.toFixed(2)} s (${Math.round(EVENTS / batchedRun.seconds)}/s; the writes alone ${batchedRun.writeSeconds.toFixed(2)} s)`);

  say(`paced: ${PACED_EVENTS} events at ${PACED_RATE}/s`);
  const pacedRun = await run(PACED_EVENTS, async () => {
    const gapMs = 1000 / PACED_RATE;
    const t0 = performance.now();
    const writes: Promise<void>[] = [];
    for (let i = 0; i < PACED_EVENTS; i++) {
      const due = t0 + i * gapMs;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      writes.push(writeOne());
    }
    await Promise.all(writes);
  });
  results = {
    bareSeconds,
    commitSeconds,
    pipelineSeconds: saturatedRun.seconds,
    writeSeconds: saturatedRun.writeSeconds,
    batchedSeconds: batchedRun.seconds,
    batchedWriteSeconds: batchedRun.writeSeconds,
    saturated: latencies(saturatedRun.ids),
    paced: latencies(pacedRun.ids),
    pacedSeconds: pacedRun.seconds,
  };
} finally {
  await relay.stop();
  await consumer.stop();
  await bus.close();
  pool.on('error', () => undefined);
  await pool.end();
  await consumerPool.end();
  await db.drop();
  await rm(emptyDir, { recursive: true, force: true });
  await deleteBusNames(namespace, [QUEUE], AMQP_URL).catch(() => undefined);
}

/* ------------------------------------------------------------------ the report ---------- */

const { bareSeconds, commitSeconds, pipelineSeconds, writeSeconds, batchedSeconds, batchedWriteSeconds, saturated, paced, pacedSeconds } = results;
const bareRate = EVENTS / bareSeconds;
const pipelineRate = EVENTS / pipelineSeconds;
const ratio = (pipelineRate / bareRate) * 100;
const ms = (v: number) => `${v.toFixed(1)} ms`;
const pacedP95 = percentile(paced, 95);
const lines = [
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB (load ${os.loadavg()[0]!.toFixed(1)}); \`npx tsx infra/bench/event-pipeline.ts\` (${EVENTS.toLocaleString('en-US')} \`${TYPE}\` events, ${JSON.stringify(eventExamples[TYPE]).length + 200} bytes each with the envelope).`,
  '',
  '| path | time | events/s | vs bare loop (target ≥ 50 %) |',
  '|---|---:|---:|---:|',
  `| bare amqplib confirm-channel publish loop | ${bareSeconds.toFixed(2)} s | ${Math.round(bareRate).toLocaleString('en-US')} | 100 % |`,
  `| outbox (${WRITERS} writers, 1 event per transaction) → relay → consumer handler | ${pipelineSeconds.toFixed(2)} s (writes ${writeSeconds.toFixed(2)} s) | ${Math.round(pipelineRate).toLocaleString('en-US')} | ${ratio.toFixed(0)} % ${ratio >= 50 ? '(met)' : '(**not met**)'} |`,
  `| the same, ${BATCH} events per transaction in one \`enqueueAll\` (diagnostic: commits not the limit) | ${batchedSeconds.toFixed(2)} s (writes ${batchedWriteSeconds.toFixed(2)} s) | ${Math.round(EVENTS / batchedSeconds).toLocaleString('en-US')} | ${((EVENTS / batchedSeconds / bareRate) * 100).toFixed(0)} % |`,
  `| bare \`INSERT\` + \`COMMIT\` of the same payloads, ${WRITERS} writers, no bus (diagnostic: the database's ceiling for one commit per event) | ${commitSeconds.toFixed(2)} s | ${Math.round(EVENTS / commitSeconds).toLocaleString('en-US')} | ${((EVENTS / commitSeconds / bareRate) * 100).toFixed(0)} % |`,
  '',
  '| commit → handler | p50 | p95 | max |',
  '|---|---:|---:|---:|',
  `| steady ${PACED_RATE}/s, ${PACED_EVENTS.toLocaleString('en-US')} events (target p95 ≤ 50 ms) | ${ms(percentile(paced, 50))} | ${ms(pacedP95)} ${pacedP95 <= 50 ? '(met)' : '(**not met**)'} | ${ms(paced.at(-1)!)} |`,
  `| saturated (the run above) | ${ms(percentile(saturated, 50))} | ${ms(percentile(saturated, 95))} | ${ms(saturated.at(-1)!)} |`,
  '',
  `The paced run took ${pacedSeconds.toFixed(1)} s for ${PACED_EVENTS.toLocaleString('en-US')} events.`,
];
say('\n' + lines.join('\n'));
const targets = new Targets('event-pipeline');
const ceilingRate = EVENTS / commitSeconds;
targets.check(
  `event pipeline (${WRITERS} writers, 1 event per transaction): ≥ 70 % of the bare INSERT + COMMIT ceiling`,
  pipelineRate >= 0.7 * ceilingRate,
  `${Math.round(pipelineRate)}/s, ${((pipelineRate / ceilingRate) * 100).toFixed(0)} % of ${Math.round(ceilingRate)}/s`,
);
targets.check(`commit → handler p95 ≤ 20 ms at ${PACED_RATE}/s`, pacedP95 <= 20, `p95 ${ms(pacedP95)}`);
targets.check('commit → handler p95 ≤ 50 ms saturated', percentile(saturated, 95) <= 50, `p95 ${ms(percentile(saturated, 95))}`);
writeSection('event-pipeline', lines);
targets.finish();
process.exit();
