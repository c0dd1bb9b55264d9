import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import amqp from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_EXCHANGE, type MessageData, type MessageType } from '@warmline/contracts';
import { createBus, enqueue, startOutboxRelay, type Bus } from '../src/bus/index';
import { parseTapArguments, refusedDurableQueue, topicMatches, type TapLine } from '../src/bus/tap';
import { withTransaction } from '../src/db/index';
import { TEST_AMQP_URL, waitFor } from '../src/testing/index';
import { startBusFixture, type BusFixture } from './bus-fixture';

/**
 * Issue 16: the analysts' tap (`npm run tap`), run as the real command line against the real
 * broker. Events go through the outbox and its relay, as a service sends them.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '../../..');
const TAP_CLI = path.join(here, '../src/bus/tap-cli.ts');

let f: BusFixture;
let bus: Bus;
let relay: { stop(): Promise<void> };

beforeAll(async () => {
  f = await startBusFixture();
  // The services' whole layout in the test's namespace: the exchanges, and gateway.audit bound to audit.record.
  bus = createBus({ developmentBroker: true, url: TEST_AMQP_URL, log: f.log, connectionName: 'bus-tap-test', namespace: f.namespace });
  await bus.ready();
  relay = startOutboxRelay({ pool: f.pool, databaseUrl: f.db.url, schema: f.schema, bus, log: f.log });
});

/** Taps still running when the file ends (a failed assertion skipped their stop): never left behind. */
const running = new Set<ChildProcessWithoutNullStreams>();

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await relay?.stop();
  await bus?.close();
  await f?.cleanup();
});

interface RunningTap {
  child: ChildProcessWithoutNullStreams;
  lines: TapLine[];
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts `npm run tap -- ...args` (node with tsx, as npm runs it) and waits until it listens. */
async function runTap(args: string[], env: Record<string, string> = {}): Promise<RunningTap> {
  const child = spawn(process.execPath, ['--import', 'tsx', TAP_CLI, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', AMQP_URL: TEST_AMQP_URL, BUS_NAMESPACE: f.namespace, LOG_LEVEL: 'info', ...env },
  });
  const lines: TapLine[] = [];
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    const complete = out.split('\n');
    out = complete.pop()!;
    for (const line of complete) lines.push(JSON.parse(line) as TapLine);
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  running.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const tap = { child, lines, stderr: () => err, exited };
  await Promise.race([
    waitFor('the tap to listen', () => err.includes('tap listening'), { timeoutMs: 20_000 }),
    exited.then((code) => {
      throw new Error(`the tap exited (${code}) before listening: ${err}`);
    }),
  ]);
  return tap;
}

async function stopTap(tap: RunningTap): Promise<number | null> {
  tap.child.kill('SIGTERM');
  return tap.exited;
}

/** Writes a message to the outbox in a transaction, as a service does; the relay publishes it. */
async function send<T extends MessageType>(type: T, data: MessageData<T>): Promise<string> {
  const envelope = await withTransaction(f.pool, (tx) => enqueue(tx, { type, data, correlationId: randomUUID(), source: 'tap-test' }));
  return envelope.id;
}

async function published(id: string): Promise<void> {
  await waitFor(`outbox row ${id} to be confirmed by the broker`, async () => {
    const { rows } = await f.pool.query<{ published_at: Date | null }>('SELECT published_at FROM outbox WHERE id = $1', [id]);
    return rows[0]?.published_at;
  });
}

const userDeleted = () => ({ userId: randomUUID(), deletedBy: randomUUID() });

describe('the analysts\' tap (npm run tap)', () => {
  it('when an event matching a pattern is published, then it prints it as one JSON line; other events are not printed', async () => {
    const tap = await runTap(['user.*', 'payment.*']);
    try {
      const skipped = await send('account.registered', { userId: randomUUID(), role: 'Insurance Agent' });
      await published(skipped);
      const data = userDeleted();
      const id = await send('user.deleted', data);

      const line = await waitFor('the event to be printed', () => tap.lines.find((l) => l.id === id));
      expect(line).toEqual({
        type: 'user.deleted',
        version: 1,
        routingKey: 'user.deleted',
        id,
        occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        source: 'tap-test',
        correlationId: expect.any(String),
        payload: data,
      });
      expect(tap.lines.map((l) => l.type)).toEqual(['user.deleted']);
      // Logs went to stderr, never into the JSON lines.
      expect(tap.stderr()).toContain('tap listening');
    } finally {
      expect(await stopTap(tap)).toBe(0);
    }
  });

  it('when a command is sent, then the tap sees nothing of it, even bound to every routing key', async () => {
    const tap = await runTap([]); // no pattern: '#'
    try {
      const command = await send('audit.record', {
        actorId: randomUUID(),
        actorUsername: 'admin',
        action: 'user.price_changed',
        subjectType: 'user',
        subjectId: randomUUID(),
        before: null,
        after: { liveTransferPrice: '37.00' },
        at: new Date().toISOString(),
      });
      // Confirmed and routed (commands are mandatory: it reached gateway.audit) before the event is sent after it.
      await published(command);
      const event = await send('user.deleted', userDeleted());

      await waitFor('the later event to be printed', () => tap.lines.some((l) => l.id === event));
      expect(tap.lines.map((l) => l.type)).toEqual(['user.deleted']);
      expect(tap.lines.some((l) => l.id === command)).toBe(false);
      const ch = await f.amqp.createChannel();
      expect((await ch.checkQueue(f.name('gateway.audit'))).messageCount).toBe(1);
      await ch.close();
    } finally {
      await stopTap(tap);
    }
  });

  it('when the tap is stopped (SIGTERM), then it exits 0 and its throwaway queue, exclusive while it ran, is gone', async () => {
    const tap = await runTap(['leads.#']);
    const queue = /"queue":"(analyst\.tap\.[0-9a-f]+)"/.exec(tap.stderr())?.[1];
    expect(queue).toBeDefined();
    const check = async () => {
      const ch = await f.amqp.createChannel();
      ch.on('error', () => undefined);
      return ch.checkQueue(queue!);
    };
    // Another connection may not even look at it: it exists, and is the tap's alone.
    await expect(check()).rejects.toThrow(/RESOURCE_LOCKED/);
    expect(await stopTap(tap)).toBe(0);
    await expect(check()).rejects.toThrow(/NOT_FOUND/);
  });

  it('when --durable names an analyst queue, then it stays between runs and the next run prints what arrived meanwhile', async () => {
    const queue = `analyst.tap-test-${randomBytes(4).toString('hex')}`;
    try {
      const first = await runTap(['--durable', queue, 'user.deleted']);
      expect(await stopTap(first)).toBe(0);
      const meanwhile = await send('user.deleted', userDeleted());
      await published(meanwhile);

      const second = await runTap([`--durable=${queue}`, 'user.deleted']);
      try {
        await waitFor('the event sent while no tap ran', () => second.lines.some((l) => l.id === meanwhile));
      } finally {
        await stopTap(second);
      }
    } finally {
      const ch = await f.amqp.createChannel();
      await ch.deleteQueue(queue);
      await ch.close();
    }
  });

  it("when --durable names a service's queue, its retries or dead letters, the unrouted queue or a name outside analyst., then it refuses with the usage and exit 2", async () => {
    for (const name of ['catalog.lead-payments', 'notifications.email.dlq']) {
      const run = spawnSync(process.execPath, ['--import', 'tsx', TAP_CLI, '--durable', name, 'payment.*'], {
        cwd: ROOT,
        encoding: 'utf8',
        // No broker at that address: refused before connecting, so nothing is declared or read.
        env: { PATH: process.env.PATH ?? '', AMQP_URL: 'amqp://nobody:wrong@127.0.0.1:1' },
      });
      expect(run.status, name).toBe(2);
      expect(run.stderr, name).toContain(`--durable ${name} is refused`);
      expect(run.stderr, name).toContain('usage: npm run tap');
      expect(run.stdout, name).toBe('');
    }
    for (const name of ['orders.lead-sales.retry', 'gateway.audit.migrating', 'notifications.payment-emails', 'warmline.unrouted', 'tap', 'analyst.', 'Analyst.X', 'amq.gen-x']) {
      expect(refusedDurableQueue(name), name).toMatch(new RegExp(`^--durable ${name.replaceAll('.', '\\.')} is refused`));
    }
    expect(refusedDurableQueue('analyst.revenue')).toBeUndefined();
  });

  it('when the arguments are wrong, then it names the problem, prints the usage and exits 2', () => {
    for (const args of [['--durable'], ['payment succeeded']]) {
      const run = spawnSync(process.execPath, ['--import', 'tsx', TAP_CLI, ...args], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(/^tap: .+\nusage: npm run tap/);
    }
    expect(parseTapArguments(['payment.*', 'payment.*', 'leads.#'])).toEqual({ patterns: ['payment.*', 'leads.#'], durableQueue: undefined });
    expect(parseTapArguments([])).toEqual({ patterns: ['#'], durableQueue: undefined });
    for (const args of [['--publish'], ['payment..*'], ['--durable', 'analyst.a', '--durable', 'analyst.b']]) {
      expect(parseTapArguments(args), args.join(' ')).toEqual({ error: expect.any(String) });
    }
    expect(topicMatches('leads.#', 'leads.purchased')).toBe(true);
    expect(topicMatches('payment.*', 'payment.succeeded')).toBe(true);
    expect(topicMatches('payment.*', 'order.created')).toBe(false);
    expect(topicMatches('#', 'email.send')).toBe(true);
  });
});

/**
 * The same tap as the broker's read-only `analyst` user, with the permissions of
 * infra/rabbitmq/definitions.json (their exchange name given this test's namespace). Needs
 * rabbitmqctl on the broker's machine to create that user for the test.
 */
const rabbitmqctl = (...args: string[]) => spawnSync('rabbitmqctl', ['-q', ...args], { encoding: 'utf8', timeout: 60_000 });
const canManageUsers = rabbitmqctl('list_users').status === 0;

describe.skipIf(!canManageUsers)('the tap as the read-only analyst user', () => {
  const user = `analyst-test-${randomBytes(4).toString('hex')}`;
  const password = randomBytes(18).toString('hex');
  let url: string;

  beforeAll(() => {
    const definitions = JSON.parse(readFileSync(path.join(ROOT, 'infra/rabbitmq/definitions.json'), 'utf8')) as {
      permissions: Array<{ user: string; configure: string; write: string; read: string }>;
    };
    const analyst = definitions.permissions.find((p) => p.user === 'analyst')!;
    const namespaced = (regex: string) => regex.replaceAll('warmline\\.events', `${f.namespace}\\.warmline\\.events`);
    expect(rabbitmqctl('add_user', user, password).status).toBe(0);
    expect(rabbitmqctl('set_permissions', '-p', '/', user, analyst.configure, analyst.write, namespaced(analyst.read)).status).toBe(0);
    const broker = new URL(TEST_AMQP_URL);
    broker.username = user;
    broker.password = password;
    url = broker.toString();
  }, 120_000);

  afterAll(() => {
    rabbitmqctl('delete_user', user);
  }, 60_000);

  it('when the analyst taps, then events arrive; publishing or reading a service queue is refused by the broker', async () => {
    const tap = await runTap(['user.*'], { RABBITMQ_ANALYST_URL: url, AMQP_URL: 'amqp://nobody:wrong@127.0.0.1:1' });
    try {
      const id = await send('user.deleted', userDeleted());
      await waitFor('the event to be printed', () => tap.lines.some((l) => l.id === id));
    } finally {
      expect(await stopTap(tap)).toBe(0);
    }

    const connection = await amqp.connect(url);
    try {
      const publisher = await connection.createConfirmChannel();
      publisher.on('error', () => undefined);
      await expect(
        new Promise<void>((resolve, reject) =>
          publisher.publish(f.name(EVENTS_EXCHANGE), 'user.deleted', Buffer.from('{}'), {}, (err: unknown) => (err ? reject(new Error(String(err))) : resolve())),
        ),
      ).rejects.toThrow();
      const reader = await connection.createChannel();
      const refused = new Promise<Error>((resolve) => reader.on('error', resolve));
      await expect(reader.consume(f.name('catalog.lead-payments'), () => undefined)).rejects.toThrow();
      expect(String(await refused)).toMatch(/ACCESS_REFUSED/);
    } finally {
      await connection.close().catch(() => undefined);
    }
  });
});
