import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBus, type Bus } from '../src/bus/index';
import { assertConsumerQueue } from '../src/bus/topology';
import { TEST_AMQP_URL, waitFor } from '../src/testing/index';
import { publishRaw, startBusFixture, userDeletedEnvelope, type BusFixture } from './bus-fixture';

/**
 * SIGTERM during load, on a real process with PostgreSQL and RabbitMQ (docs/adr/0040):
 * /readyz answers 503 while the listener still serves, requests and handlers in flight
 * finish, and nothing is lost: what was not handled is still on its queue.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const QUEUE = 'drain-on-sigterm';
let f: BusFixture;
let bus: Bus;
const children: ChildProcess[] = [];

beforeAll(async () => {
  f = await startBusFixture();
  // Declares the namespace's exchanges, as the migration step does for a real deployment.
  bus = createBus({ url: TEST_AMQP_URL, log: f.log, connectionName: 'lifecycle-drain-test', namespace: f.namespace, allowQueuesOutsideTopology: true });
  await bus.ready();
  await f.pool.query('CREATE TABLE effects (event_id uuid NOT NULL)');
  await f.pool.query('CREATE TABLE requests (id text NOT NULL)');
  f.consumerQueues.add(QUEUE);
  await assertConsumerQueue(f.amqp, f.name, { queue: QUEUE, messages: ['user.deleted'] });
}, 60_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await bus?.close();
  await f?.cleanup();
});

function startService(extra: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'fixtures/draining-service.ts')], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      DATABASE_URL: f.db.url,
      SCHEMA: f.schema,
      AMQP_URL: TEST_AMQP_URL,
      BUS_NAMESPACE: f.namespace,
      CONSUMER_QUEUE: QUEUE,
      HANDLER_MS: '250',
      REQUEST_MS: '1500',
      LOG_LEVEL: 'info',
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += String(d)));
  child.stderr.on('data', (d: Buffer) => (output += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = waitFor('the service to listen', () => /listening (\S+)/.exec(output)?.[1], { timeoutMs: 30_000 });
  return { child, url, exited, output: () => output };
}

async function effects(): Promise<Map<string, number>> {
  const { rows } = await f.pool.query<{ event_id: string; n: number }>('SELECT event_id, count(*) AS n FROM effects GROUP BY event_id');
  return new Map(rows.map((r) => [r.event_id, r.n]));
}

/** /readyz's status, or 'refused' once nothing listens. */
async function readiness(url: string): Promise<number | 'refused'> {
  try {
    const res = await fetch(`${url}/readyz`, { headers: { connection: 'close' } });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 'refused';
  }
}

describe('a service process stopped with SIGTERM under load', () => {
  it('when SIGTERM arrives with requests and handlers in flight, then /readyz is 503 before the listener closes, they all finish, and no message is lost', async () => {
    const service = startService({ SHUTDOWN_DELAY_MS: '700', SHUTDOWN_DRAIN_MS: '15000' });
    const url = await service.url;
    expect(await readiness(url)).toBe(200);

    const envelopes = Array.from({ length: 200 }, () => userDeletedEnvelope());
    for (const e of envelopes) publishRaw(f, 'user.deleted', e, e.id);
    await waitFor('handlers to be under way', async () => (await effects()).size >= 8, { timeoutMs: 30_000 });

    const requests = Array.from({ length: 10 }, (_, i) =>
      fetch(`${url}/work/r${i}`, { method: 'POST' }).then(async (res) => ({ status: res.status, body: (await res.json()) as unknown })),
    );
    let answered = 0;
    for (const r of requests) void r.then(() => (answered += 1), () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the requests reach the handler

    const handledAtSigterm = (await effects()).size;
    service.child.kill('SIGTERM');
    const seen: Array<number | 'refused'> = [];
    let answeredWhenNotReady = -1;
    for (;;) {
      const state = await readiness(url);
      if (seen.at(-1) !== state) seen.push(state);
      if (state === 503 && answeredWhenNotReady < 0) answeredWhenNotReady = answered;
      if (state === 'refused') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    // Not ready first, while the listener still answered, then closed; the requests in flight then finished.
    expect(seen.filter((s) => s !== 200)).toEqual([503, 'refused']);
    expect(answeredWhenNotReady).toBe(0);
    const results = await Promise.all(requests);
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const { rows } = await f.pool.query<{ n: number }>('SELECT count(*) AS n FROM requests');
    expect(rows[0]!.n).toBe(10);

    expect(await service.exited).toBe(0);
    expect(service.output()).toContain('stopped consuming');
    // Handlers ran on through the delay and the drain, each once.
    const afterStop = await effects();
    expect(afterStop.size).toBeGreaterThan(handledAtSigterm);
    expect([...afterStop.values()].every((n) => n === 1)).toBe(true);
    // Nothing lost: what was not handled is still on the queue, unacknowledged messages included.
    const { messageCount } = await f.channel.checkQueue(f.name(QUEUE));
    expect(afterStop.size + messageCount).toBe(200);
    // Only the handlers running were waited for, not every prefetched message.
    expect(messageCount).toBeGreaterThan(0);

    // A second start handles the rest, and still nothing twice.
    const next = startService({ HANDLER_MS: '5' });
    await next.url;
    await waitFor('the rest to be handled', async () => (await effects()).size === 200, { timeoutMs: 30_000 });
    expect([...(await effects()).values()].every((n) => n === 1)).toBe(true);
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  }, 120_000);
});
