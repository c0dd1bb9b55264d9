import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageData, MessageType } from '@warmline/contracts';
import { eventExamples } from '@warmline/contracts/bus/message-examples';
import { createBus, enqueue, startOutboxRelay, type Bus } from '../src/bus/index';
import { withTransaction } from '../src/db/index';
import { TEST_AMQP_URL, waitFor } from '../src/testing/index';
import { startBusFixture, type BusFixture } from './bus-fixture';

/**
 * Issue 22 item 18: the README's tap recipes, run exactly as written (through npm and into jq,
 * in bash) against the real broker. npm's own '> warmline@ tap' banner on stdout broke the first
 * of them (jq: 'parse error: Invalid numeric literal'); a recipe that works only in a test's
 * rewording is no recipe.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '../../..');

/** The shell lines of the README's "Watching events" block. */
function readmeTapRecipes(): string[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Watching events'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block.split('\n').filter((line) => line.includes(' tap '));
}

let f: BusFixture;
let bus: Bus;
let relay: { stop(): Promise<void> };
/** Where the recipes run: a folder of the repository, so npm finds its package.json and `>> payments.csv` lands here. */
const workDir = path.join(ROOT, 'test-results', `tap-recipes-${randomUUID().slice(0, 8)}`);
const running = new Set<ChildProcess>();

beforeAll(async () => {
  f = await startBusFixture();
  bus = createBus({ developmentBroker: true, url: TEST_AMQP_URL, log: f.log, connectionName: 'tap-readme-test', namespace: f.namespace });
  await bus.ready();
  relay = startOutboxRelay({ pool: f.pool, databaseUrl: f.db.url, schema: f.schema, bus, log: f.log });
  mkdirSync(workDir, { recursive: true });
});

afterAll(async () => {
  for (const child of running) if (child.pid) process.kill(-child.pid, 'SIGKILL');
  await relay?.stop();
  await bus?.close();
  await f?.cleanup();
  rmSync(workDir, { recursive: true, force: true });
});

/** Runs one README line in bash (its own process group: npm, tsx and jq end together). */
async function runRecipe(line: string): Promise<{ stdout: () => string; stderr: () => string; stop(): Promise<void> }> {
  const child = spawn('bash', ['-c', line], {
    cwd: workDir,
    detached: true,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', AMQP_URL: TEST_AMQP_URL, BUS_NAMESPACE: f.namespace, LOG_LEVEL: 'info' },
  });
  running.add(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await Promise.race([
    waitFor('the tap to listen', () => err.includes('tap listening'), { timeoutMs: 30_000 }),
    exited.then(() => {
      throw new Error(`the recipe ended before the tap listened:\n${out}\n${err}`);
    }),
  ]);
  return {
    stdout: () => out,
    stderr: () => err,
    async stop() {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
      running.delete(child);
    },
  };
}

async function send<T extends MessageType>(type: T, data: MessageData<T>): Promise<void> {
  await withTransaction(f.pool, (tx) => enqueue(tx, { type, data, correlationId: randomUUID(), source: 'tap-readme-test' }));
}

describe("the README's tap recipes", () => {
  it('when the README is read, then its recipes are there (this test runs the lines it finds)', () => {
    expect(readmeTapRecipes().length).toBeGreaterThanOrEqual(2);
  });

  it("when the first recipe runs as written and a payment succeeds, then jq prints the event's type, order and cents — no npm banner in its way", async () => {
    const [line] = readmeTapRecipes();
    expect(line).toContain("'payment.*' 'leads.#' | jq");
    const recipe = await runRecipe(line!);
    try {
      const payment = { ...eventExamples['payment.succeeded'], orderId: randomUUID() };
      await send('payment.succeeded', payment);
      const printed = await waitFor('jq to print the payment', () => recipe.stdout().split('\n').find((l) => l.includes(payment.orderId)), { timeoutMs: 20_000 });
      expect(JSON.parse(printed)).toEqual({ type: 'payment.succeeded', orderId: payment.orderId, cents: payment.amountCents });
      // Every line jq printed is its output: nothing of npm's, no parse error.
      for (const l of recipe.stdout().split('\n').filter(Boolean)) expect(() => JSON.parse(l), l).not.toThrow();
      expect(recipe.stderr()).not.toContain('parse error');
    } finally {
      await recipe.stop();
    }
  }, 60_000);

  it('when the second recipe runs as written, then payments.csv gets one CSV row per payment', async () => {
    const line = readmeTapRecipes()[1]!;
    expect(line).toContain('>> payments.csv');
    const recipe = await runRecipe(line);
    try {
      const payment = { ...eventExamples['payment.succeeded'], orderId: randomUUID() };
      await send('payment.succeeded', payment);
      const csv = await waitFor('the row in payments.csv', () => {
        try {
          const text = readFileSync(path.join(workDir, 'payments.csv'), 'utf8');
          return text.trim() ? text : undefined;
        } catch {
          return undefined;
        }
      }, { timeoutMs: 20_000 });
      // When the event occurred, the tier, the cents.
      expect(csv).toMatch(new RegExp(`^"\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z","${payment.tier}",${payment.amountCents}\\n$`));
    } finally {
      await recipe.stop();
    }
  }, 60_000);
});
