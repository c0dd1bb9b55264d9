import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBus,
  listDeadLetters,
  replayDeadLetters,
  startConsumer,
  subscribe,
  UnknownQueueError,
  type Bus,
} from '../src/bus/index';
import { TEST_AMQP_URL, waitFor } from '../src/testing/index';
import { publishRaw, startBusFixture, userDeletedEnvelope, type BusFixture } from './bus-fixture';

const run = promisify(execFile);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let f: BusFixture;
let bus: Bus;
const stops: Array<() => Promise<void>> = [];

beforeAll(async () => {
  f = await startBusFixture();
  bus = createBus({ developmentBroker: true, url: TEST_AMQP_URL, log: f.log, connectionName: 'bus-dlq-test', namespace: f.namespace, allowQueuesOutsideTopology: true });
  await bus.ready();
});

afterAll(async () => {
  for (const stop of stops) await stop();
  await bus?.close();
  await f?.cleanup();
});

/**
 * A consumer of user.deleted whose handler fails while `broken` says so, counting its calls
 * per event id. Every test's queue is bound to user.deleted, so each test filters by its ids.
 */
async function flakyConsumer(queue: string) {
  const state = { broken: true, calls: new Map<string, number>(), handled: new Set<string>() };
  f.consumerQueues.add(queue);
  const consumer = await startConsumer({
    bus,
    pool: f.pool,
    queue,
    subscriptions: [
      subscribe('user.deleted', async (_data, ctx) => {
        const id = ctx.envelope.id;
        state.calls.set(id, (state.calls.get(id) ?? 0) + 1);
        if (state.broken) throw new Error('user directory is down');
        state.handled.add(id);
      }),
    ],
    log: f.log,
    maxAttempts: 3,
    retryDelaysMs: [20, 50],
  });
  stops.push(() => consumer.stop());
  return state;
}

async function deadLetterFor(queue: string, id: string) {
  return waitFor(`${id} to reach ${queue}.dlq`, async () =>
    (await listDeadLetters(bus, queue, 100)).find((l) => l.id === id),
  );
}

function dlqCli(...args: string[]) {
  // node --import tsx, as start.sh runs services: npx resolving tsx first costs seconds a run on a busy machine.
  return run(process.execPath, ['--import', 'tsx', 'services/platform/src/bus/dlq-cli.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, AMQP_URL: TEST_AMQP_URL, BUS_NAMESPACE: f.namespace, LOG_LEVEL: 'warn' },
  });
}

describe('dead-letter queue', () => {
  it('when a handler always throws, then after the bounded retries the message is in the DLQ, and replay brings it back', async () => {
    const flaky = await flakyConsumer('dlq-always-throws');
    const envelope = userDeletedEnvelope();

    publishRaw(f, 'user.deleted', envelope, envelope.id);

    const letter = await deadLetterFor('dlq-always-throws', envelope.id);
    expect(letter).toEqual({
      id: envelope.id,
      type: 'user.deleted',
      attempts: 3,
      lastError: 'user directory is down',
      data: JSON.stringify(envelope.data),
    });
    expect(flaky.calls.get(envelope.id)).toBe(3);
    // Listing only peeks: the message is still there.
    expect((await listDeadLetters(bus, 'dlq-always-throws')).map((l) => l.id)).toEqual([envelope.id]);

    flaky.broken = false;
    expect(await replayDeadLetters(bus, 'dlq-always-throws')).toBe(1);

    await waitFor('the fixed handler to process the replayed message', () => flaky.handled.has(envelope.id));
    expect(flaky.calls.get(envelope.id)).toBe(4);
    expect(await listDeadLetters(bus, 'dlq-always-throws')).toEqual([]);
  });

  it('when an operator runs `dlq list` and `dlq replay`, then they show and move the dead letters', async () => {
    const flaky = await flakyConsumer('dlq-cli');
    const envelope = userDeletedEnvelope();
    publishRaw(f, 'user.deleted', envelope, envelope.id);
    await deadLetterFor('dlq-cli', envelope.id);

    const listed = await dlqCli('list', 'dlq-cli');
    expect(listed.stdout).toContain(`1 dead letter(s) in ${f.name('dlq-cli.dlq')}`);
    expect(listed.stdout).toMatch(new RegExp(`${envelope.id}\\s+user\\.deleted\\s+3\\s+user directory is down`));

    flaky.broken = false;
    const replayed = await dlqCli('replay', 'dlq-cli');
    expect(replayed.stdout).toContain(`Replayed 1 message(s) from ${f.name('dlq-cli.dlq')} to ${f.name('dlq-cli')}`);
    await waitFor('the fixed handler to process the replayed message', () => flaky.handled.has(envelope.id));

    const empty = await dlqCli('list', 'dlq-cli');
    expect(empty.stdout).toContain(`${f.name('dlq-cli.dlq')} is empty`);
    // Three CLI processes, each starting TypeScript: more than the default 30 s on a loaded 2-core machine.
  }, 120_000);

  it('when `dlq` gets a bad command or an unknown queue, then it exits non-zero and says why', async () => {
    await expect(dlqCli('purge', 'dlq-cli')).rejects.toMatchObject({
      code: 64,
      stderr: expect.stringContaining('usage: npm run dlq -- list <queue> | replay <queue>'),
    });
    await expect(dlqCli('list', 'no-such-queue')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining(`Unknown queue 'no-such-queue'`),
    });
  });

  it('when the DLQ functions are asked about an unknown queue, then they refuse and the bus stays connected', async () => {
    await expect(listDeadLetters(bus, 'no-such-queue')).rejects.toThrow(UnknownQueueError);
    await expect(replayDeadLetters(bus, 'no-such-queue')).rejects.toThrow(UnknownQueueError);
    await bus.ping();
    expect(f.logLines.filter((l) => l.msg === 'lost connection to RabbitMQ; reconnecting')).toEqual([]);
  });

  it('when a message cannot be parsed, then it lands in the DLQ at once, without retries', async () => {
    const flaky = await flakyConsumer('dlq-malformed');
    const bad = userDeletedEnvelope();
    const notAnEnvelope = { ...userDeletedEnvelope(), occurredAt: 'yesterday' };
    const badData = { ...userDeletedEnvelope(), data: { userId: 'not-a-uuid' } };

    publishRaw(f, 'user.deleted', Buffer.from('this is not json'), bad.id);
    publishRaw(f, 'user.deleted', notAnEnvelope, notAnEnvelope.id);
    publishRaw(f, 'user.deleted', badData, badData.id);

    const letters = await waitFor('the three messages to reach the DLQ', async () => {
      const all = await listDeadLetters(bus, 'dlq-malformed');
      return all.length === 3 ? all : undefined;
    });
    const byId = new Map(letters.map((l) => [l.id, l]));
    expect(byId.get(bad.id)).toMatchObject({ attempts: 1, lastError: 'body is not JSON' });
    expect(byId.get(notAnEnvelope.id)).toMatchObject({ attempts: 1, lastError: expect.stringMatching(/^bad envelope: occurredAt/) });
    expect(byId.get(badData.id)).toMatchObject({ attempts: 1, lastError: expect.stringMatching(/^bad user.deleted v1 data/) });
    expect(flaky.calls.size).toBe(0);
    expect(flaky.handled.size).toBe(0);
  });
});
