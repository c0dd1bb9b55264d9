/**
 * `make bench` (part 4): the event pipeline (issues 16 and 27). Not a test: it measures, prints,
 * writes its section of docs/benchmarks.md (between the bench:event-pipeline markers), and exits
 * 1 naming each target it missed.
 *
 * - Baseline, in the same run: the commit ceiling, a bare INSERT + COMMIT of the same payloads by
 *   the same WRITERS (the database's own ceiling for one commit per event on this machine),
 *   measured before and after the pipeline run; its mean is the baseline.
 * - The pipeline: each event written with the platform's `enqueue` in a transaction of its own
 *   (as a service writes it with its state change; WRITERS at a time), published by the platform's
 *   outbox relay (pipelined, confirms), delivered to the platform's batched consumer (one
 *   transaction per batch, a savepoint per handler; docs/adr/0050). Its rate is events ÷ (first
 *   commit → last handler run), as a ratio of the commit ceiling's. Target ≥ 70 %.
 * - Commit-to-handler latency (commit resolved → handler called, one process, one clock), p50 and
 *   p95: at a steady PACED_RATE (target p95 ≤ 20 ms), and during the saturated run (≤ 50 ms).
 * - CPU per event (from /proc: this process, and the PostgreSQL backends of the bench database).
 * - Diagnostics: the same pipeline with the consumer unbatched (one transaction per message, as
 *   before ADR 0050); the events written BATCH to a transaction (commits not the limit); a bare
 *   amqplib confirm-channel publish loop (what RabbitMQ alone takes).
 * Its own database (dropped after) and broker namespace (deleted after).
 *
 *   BENCH_EVENTS=10000 BENCH_WRITERS=8 BENCH_BATCH=50 BENCH_PACED_RATE=200 BENCH_PACED_EVENTS=2000 BENCH_CONSUMER_BATCH=50
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import amqp from 'amqplib';
import { type Envelope, type EventData } from '@warmline/contracts';
import { eventExamples } from '@warmline/contracts/bus/message-examples';
import { createBus, enqueue, enqueueAll, startConsumer, startOutboxRelay, subscribe, type BatchOptions } from '@warmline/platform/bus/index';
import { onOutboxWrite } from '@warmline/platform/bus/outbox';
import { createPool, runMigrations, withTransaction } from '@warmline/platform/db/index';
import { createLogger } from '@warmline/platform/log';
import { createTestDatabase, uniqueName } from '@warmline/platform/testing/index';
import { deleteBusNames } from '@warmline/platform/testing/system';
import { backendSeconds, countRoundTrips, cpuSeconds, ms as oneDecimal, percentileOfSorted, say, Targets, writeSection } from './kit/index.js';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 8);
const PACED_RATE = Number(process.env.BENCH_PACED_RATE ?? 200);
const PACED_EVENTS = Number(process.env.BENCH_PACED_EVENTS ?? 2_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 50);
const CONSUMER_BATCH = Number(process.env.BENCH_CONSUMER_BATCH ?? 50);
const TYPE = 'payment.succeeded';
const QUEUE = 'bench.event-pipeline';

const percentile = (sorted: number[], p: number) => percentileOfSorted(sorted, p / 100);

/** Event i: the example payment with its own order id (every event a distinct fact). */
function payment(): EventData<typeof TYPE> {
  return { ...eventExamples[TYPE], orderId: randomUUID() };
}

// Before any pool connects: every query of this process (writers, relay, consumer) is counted.
const roundTrips = countRoundTrips();
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

/* ------------------------------------------------------------------ CPU from /proc ---------- */

/**
 * CPU spent during `work` by this process and by the PostgreSQL backends of the bench database
 * (the kit's /proc readings; a backend that ends meanwhile is not counted, and the pools keep
 * theirs for the whole run).
 */
async function withCpu<T>(work: () => Promise<T>): Promise<{ result: T; benchMs: number; postgresMs: number }> {
  const backendsBefore = backendSeconds(db.name);
  const selfBefore = cpuSeconds(process.pid);
  const result = await work();
  const benchMs = (cpuSeconds(process.pid) - selfBefore) * 1000;
  let postgresSeconds = 0;
  for (const [pid, now] of backendSeconds(db.name)) postgresSeconds += now - (backendsBefore.get(pid) ?? 0);
  return { result, benchMs, postgresMs: postgresSeconds * 1000 };
}

/* ------------------------------------------------------------ the platform's pipeline ---------- */

const committedAt = new Map<string, number>();
const handledAt = new Map<string, number>();
let expecting = 0;
let allHandled: () => void = () => undefined;

/** The platform's consumer on the bench queue: batched (docs/adr/0050) unless `batch` is undefined. */
function startPipelineConsumer(batch: BatchOptions | undefined) {
  return startConsumer({
    bus,
    pool: consumerPool,
    queue: QUEUE,
    log,
    ...(batch ? { batch } : {}),
    subscriptions: [
      subscribe(TYPE, async (_data, ctx) => {
        handledAt.set(ctx.envelope.id, performance.now());
        if (handledAt.size >= expecting) allHandled();
      }),
    ],
  });
}
const BATCHED: BatchOptions = { size: CONSUMER_BATCH, waitMs: Number(process.env.BENCH_CONSUMER_WAIT_MS ?? 0) };
let consumer = await startPipelineConsumer(BATCHED);
let relay = startOutboxRelay({ pool, databaseUrl: db.url, schema, bus, log });

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

/** EVENTS events, WRITERS writers, one transaction each: the saturated pipeline. */
function saturate() {
  return run(EVENTS, async () => {
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
}

interface Measured {
  seconds: number;
  benchMs: number;
  postgresMs: number;
}

let results: {
  bareSeconds: number;
  ceilings: Measured[];
  pipeline: Measured & { writeSeconds: number };
  unbatched: Measured & { writeSeconds: number };
  batchedSeconds: number;
  batchedWriteSeconds: number;
  saturated: number[];
  unbatchedSaturated: number[];
  paced: number[];
  pacedSeconds: number;
  saturatedTrips: number;
  pacedTrips: number;
  load: number[];
  stages: Array<Measured & { name: string }>;
};
try {
  // Warm up both paths (JIT, connections, the relay's LISTEN) before anything is timed.
  await run(200, async () => {
    for (let i = 0; i < 200; i++) await writeOne();
  });
  await bareConfirmLoop(Array.from({ length: 200 }, () => Buffer.from('{}')));
  const load: number[] = [os.loadavg()[0]!];

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

  const ceilings: Measured[] = [];
  const ceiling = async () => {
    say(`commit ceiling (bare INSERT + COMMIT): ${EVENTS} rows, ${WRITERS} writers`);
    const { result: seconds, benchMs, postgresMs } = await withCpu(() => bareCommitLoop(EVENTS));
    ceilings.push({ seconds, benchMs, postgresMs });
    say(`  ${seconds.toFixed(2)} s (${Math.round(EVENTS / seconds)}/s; CPU ${((benchMs + postgresMs) / EVENTS).toFixed(3)} ms per row)`);
  };
  await ceiling();

  say(`pipeline: ${EVENTS} events, ${WRITERS} writers, one transaction each, consumer batches of ≤ ${CONSUMER_BATCH}`);
  let trips = roundTrips.sofar();
  const saturatedRun = await withCpu(saturate);
  const saturatedTrips = (roundTrips.sofar() - trips) / EVENTS;
  say(`  ${saturatedRun.result.seconds.toFixed(2)} s (${Math.round(EVENTS / saturatedRun.result.seconds)}/s; the writes alone ${saturatedRun.result.writeSeconds.toFixed(2)} s)`);
  load.push(os.loadavg()[0]!);

  await ceiling();

  say(`diagnostic: the same with the consumer unbatched (one transaction per message)`);
  await consumer.stop();
  consumer = await startPipelineConsumer(undefined);
  const unbatchedRun = await withCpu(saturate);
  say(`  ${unbatchedRun.result.seconds.toFixed(2)} s (${Math.round(EVENTS / unbatchedRun.result.seconds)}/s)`);
  await consumer.stop();
  consumer = await startPipelineConsumer(BATCHED);

  say(`pipeline, batched writes: ${EVENTS} events, ${BATCH} per transaction`);
  const batchedRun = await run(EVENTS, async () => {
    for (let i = 0; i < EVENTS; i += BATCH) await writeBatch(Math.min(BATCH, EVENTS - i));
  });
  say(`  ${batchedRun.seconds.toFixed(2)} s (${Math.round(EVENTS / batchedRun.seconds)}/s; the writes alone ${batchedRun.writeSeconds.toFixed(2)} s)`);

  say(`paced: ${PACED_EVENTS} events at ${PACED_RATE}/s`);
  trips = roundTrips.sofar();
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
  const pacedTrips = (roundTrips.sofar() - trips) / PACED_EVENTS;
  load.push(os.loadavg()[0]!);

  // Where the CPU goes: each stage alone, on the same EVENTS events. The writes keep their
  // in-process wake (a listener stands in for the stopped relay), so they cost what they cost above.
  say(`stages alone: ${EVENTS} writes with no relay running, then the relay draining them into the queue, then the consumer draining the queue`);
  await relay.stop();
  await consumer.stop();
  const standIn = onOutboxWrite(() => undefined);
  const writesOnly = await withCpu(async () => {
    const started = performance.now();
    let next = 0;
    const ids: string[] = [];
    await Promise.all(
      Array.from({ length: WRITERS }, async () => {
        while (next < EVENTS) {
          next++;
          const envelope = await withTransaction(pool, (tx) => enqueue(tx, { type: TYPE, data: payment(), correlationId: randomUUID(), source: 'bench' }));
          ids.push(envelope.id);
        }
      }),
    );
    return { seconds: (performance.now() - started) / 1000, ids };
  });
  standIn();
  const relayOnly = await withCpu(async () => {
    const started = performance.now();
    relay = startOutboxRelay({ pool, databaseUrl: db.url, schema, bus, log });
    for (;;) {
      const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL');
      if (rows[0]!.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { seconds: (performance.now() - started) / 1000, ids: [] };
  });
  const consumerOnly = await withCpu(async () => {
    const started = performance.now();
    expecting = handledAt.size + EVENTS;
    const done = new Promise<void>((resolve) => (allHandled = resolve));
    consumer = await startPipelineConsumer(BATCHED);
    await done;
    return { seconds: (performance.now() - started) / 1000, ids: [] };
  });
  const stages = [
    { name: `writes: \`enqueue\` in a transaction each, ${WRITERS} writers (the relay stopped)`, ...writesOnly, seconds: writesOnly.result.seconds },
    { name: 'relay: claim, publish, confirm, stamp (the consumer stopped)', ...relayOnly, seconds: relayOnly.result.seconds },
    { name: `consumer: deliver, parse, \`processed_events\`, handler, ack (batches of ≤ ${CONSUMER_BATCH})`, ...consumerOnly, seconds: consumerOnly.result.seconds },
  ].map(({ name, seconds, benchMs, postgresMs }) => ({ name, seconds, benchMs, postgresMs }));
  for (const st of stages) say(`  ${st.name}: ${st.seconds.toFixed(2)} s, CPU ${((st.benchMs + st.postgresMs) / EVENTS).toFixed(3)} ms per event`);
  results = {
    bareSeconds,
    ceilings,
    pipeline: { seconds: saturatedRun.result.seconds, writeSeconds: saturatedRun.result.writeSeconds, benchMs: saturatedRun.benchMs, postgresMs: saturatedRun.postgresMs },
    unbatched: { seconds: unbatchedRun.result.seconds, writeSeconds: unbatchedRun.result.writeSeconds, benchMs: unbatchedRun.benchMs, postgresMs: unbatchedRun.postgresMs },
    batchedSeconds: batchedRun.seconds,
    batchedWriteSeconds: batchedRun.writeSeconds,
    saturated: latencies(saturatedRun.result.ids),
    unbatchedSaturated: latencies(unbatchedRun.result.ids),
    paced: latencies(pacedRun.ids),
    pacedSeconds: pacedRun.seconds,
    saturatedTrips,
    pacedTrips,
    load,
    stages,
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

const { bareSeconds, ceilings, pipeline, unbatched, batchedSeconds, batchedWriteSeconds, saturated, unbatchedSaturated, paced, pacedSeconds, saturatedTrips, pacedTrips, load, stages } = results;
const rate = (seconds: number) => EVENTS / seconds;
const commitRate = ceilings.reduce((sum, c) => sum + rate(c.seconds), 0) / ceilings.length;
const pct = (r: number) => `${((r / commitRate) * 100).toFixed(0)} %`;
const perSecond = (r: number) => Math.round(r).toLocaleString('en-US');
const cpu = (m: Measured) => `${((m.benchMs + m.postgresMs) / EVENTS).toFixed(3)} ms (bench ${(m.benchMs / EVENTS).toFixed(3)}, PostgreSQL ${(m.postgresMs / EVENTS).toFixed(3)})`;
const ms = (v: number) => `${v.toFixed(1)} ms`;
const ratio = (rate(pipeline.seconds) / commitRate) * 100;
const pacedP95 = percentile(paced, 95);
const saturatedP95 = percentile(saturated, 95);
const targets = new Targets('event-pipeline');
const ratioVerdict = targets.check(
  `event pipeline (${WRITERS} writers, 1 event per transaction): ≥ 70 % of the bare INSERT + COMMIT ceiling of the same run`,
  ratio >= 70,
  `${perSecond(rate(pipeline.seconds))}/s, ${ratio.toFixed(0)} % of ${perSecond(commitRate)}/s`,
);
const pacedVerdict = targets.check(`event pipeline commit → handler p95 ≤ 20 ms at ${PACED_RATE}/s`, pacedP95 <= 20, `p95 ${oneDecimal(pacedP95)} ms`);
const saturatedVerdict = targets.check('event pipeline commit → handler p95 ≤ 50 ms saturated', saturatedP95 <= 50, `p95 ${oneDecimal(saturatedP95)} ms`);
const lines = [
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB (load average ${load.map((l) => l.toFixed(1)).join(' → ')} over the run); \`npx tsx infra/bench/event-pipeline.ts\` (${EVENTS.toLocaleString('en-US')} \`${TYPE}\` events, ${JSON.stringify(eventExamples[TYPE]).length + 200} bytes each with the envelope; consumer batches of ≤ ${CONSUMER_BATCH}).`,
  '',
  '| path | time | events/s | vs commit ceiling (target ≥ 70 %) | CPU per event |',
  '|---|---:|---:|---:|---:|',
  ...ceilings.map(
    (c, i) =>
      `| commit ceiling: bare \`INSERT\` + \`COMMIT\` of the same payloads, ${WRITERS} writers, no bus (${i === 0 ? 'before' : 'after'} the pipeline) | ${c.seconds.toFixed(2)} s | ${perSecond(rate(c.seconds))} | ${pct(rate(c.seconds))} | ${cpu(c)} |`,
  ),
  `| **outbox (${WRITERS} writers, 1 event per transaction) → pipelined relay → batched consumer** | ${pipeline.seconds.toFixed(2)} s (writes ${pipeline.writeSeconds.toFixed(2)} s) | ${perSecond(rate(pipeline.seconds))} | ${ratio.toFixed(0)} % (${ratioVerdict}) | ${cpu(pipeline)} |`,
  `| the same, consumer unbatched: one transaction per message (diagnostic: before ADR 0050) | ${unbatched.seconds.toFixed(2)} s (writes ${unbatched.writeSeconds.toFixed(2)} s) | ${perSecond(rate(unbatched.seconds))} | ${pct(rate(unbatched.seconds))} | ${cpu(unbatched)} |`,
  `| the same, ${BATCH} events per transaction in one \`enqueueAll\` (diagnostic: commits not the limit) | ${batchedSeconds.toFixed(2)} s (writes ${batchedWriteSeconds.toFixed(2)} s) | ${perSecond(rate(batchedSeconds))} | ${pct(rate(batchedSeconds))} | |`,
  `| bare amqplib confirm-channel publish loop (diagnostic: RabbitMQ alone) | ${bareSeconds.toFixed(2)} s | ${perSecond(rate(bareSeconds))} | ${pct(rate(bareSeconds))} | |`,
  '',
  '| commit → handler | p50 | p95 | max | round trips to PostgreSQL per event (the writer\'s 3 included) |',
  '|---|---:|---:|---:|---:|',
  `| steady ${PACED_RATE}/s, ${PACED_EVENTS.toLocaleString('en-US')} events (target p95 ≤ 20 ms) | ${ms(percentile(paced, 50))} | ${ms(pacedP95)} (${pacedVerdict}) | ${ms(paced.at(-1)!)} | ${pacedTrips.toFixed(2)} |`,
  `| saturated, the pipeline run above (target p95 ≤ 50 ms) | ${ms(percentile(saturated, 50))} | ${ms(saturatedP95)} (${saturatedVerdict}) | ${ms(saturated.at(-1)!)} | ${saturatedTrips.toFixed(2)} |`,
  `| saturated, consumer unbatched (diagnostic) | ${ms(percentile(unbatchedSaturated, 50))} | ${ms(percentile(unbatchedSaturated, 95))} | ${ms(unbatchedSaturated.at(-1)!)} | |`,
  '',
  '| where the CPU goes: each stage alone, same events | time | events/s | CPU per event |',
  '|---|---:|---:|---:|',
  ...stages.map((st) => `| ${st.name} | ${st.seconds.toFixed(2)} s | ${perSecond(rate(st.seconds))} | ${cpu(st)} |`),
  `| sum of the stages | | | ${((stages.reduce((sum, st) => sum + st.benchMs + st.postgresMs, 0)) / EVENTS).toFixed(3)} ms |`,
  '',
  `CPU per event is this process's (writers, relay, consumer) plus the bench database's PostgreSQL backends', from /proc; RabbitMQ's is not counted. The paced run took ${pacedSeconds.toFixed(1)} s for ${PACED_EVENTS.toLocaleString('en-US')} events.`,
];
say('\n' + lines.join('\n'));
writeSection('event-pipeline', lines);
targets.finish();
process.exit();
