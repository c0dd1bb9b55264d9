/**
 * Operator tool for dead letters:
 *   npm run dlq -- list <queue>     show what is in <queue>.dlq (nothing is removed)
 *   npm run dlq -- replay <queue>   move everything in <queue>.dlq back to <queue>
 * <queue> is the consumer queue name without namespace, e.g. notifications.email.
 * Reads AMQP_URL and BUS_NAMESPACE from the environment.
 */
import { baseEnv, parseConfig } from '../config';
import { createLogger } from '../log';
import type { Bus } from './connection';
import { createServiceBus } from './service-bus';
import { listDeadLetters, replayDeadLetters, UnknownQueueError, type DeadLetter } from './dlq';

const USAGE = 'usage: npm run dlq -- list <queue> | replay <queue>';
const CONNECT_TIMEOUT_MS = 10_000;
const LIST_LIMIT = 100;

async function main(argv: string[]): Promise<number> {
  const [command, queue, ...rest] = argv;
  if ((command !== 'list' && command !== 'replay') || !queue || rest.length > 0) {
    process.stderr.write(`${USAGE}\n`);
    return 64;
  }
  const config = parseConfig({
    AMQP_URL: baseEnv.AMQP_URL,
    BUS_NAMESPACE: baseEnv.BUS_NAMESPACE,
    LOG_LEVEL: baseEnv.LOG_LEVEL.default('warn'),
  });
  // Logs go to stderr so stdout holds only the answer.
  const log = createLogger('dlq-cli', config.LOG_LEVEL, process.stderr);
  const bus = createServiceBus(config, log, 'warmline dlq-cli');
  try {
    await connected(bus);
    if (command === 'list') {
      const letters = await listDeadLetters(bus, queue, LIST_LIMIT);
      process.stdout.write(formatList(bus.name(`${queue}.dlq`), letters));
    } else {
      const count = await replayDeadLetters(bus, queue);
      process.stdout.write(`Replayed ${count} message(s) from ${bus.name(`${queue}.dlq`)} to ${bus.name(queue)}\n`);
    }
    return 0;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`dlq: ${message}\n`);
    return err instanceof UnknownQueueError ? 2 : 1;
  } finally {
    await bus.close();
  }
}

/** The bus retries forever, which suits a service; a command line tool should give up and say so. */
async function connected(bus: Bus): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`RabbitMQ did not answer within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
  });
  try {
    await Promise.race([bus.ready(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function formatList(dlq: string, letters: DeadLetter[]): string {
  if (letters.length === 0) return `${dlq} is empty\n`;
  const rows = [['ID', 'TYPE', 'ATTEMPTS', 'LAST ERROR'], ...letters.map((l) => [l.id, l.type, String(l.attempts), l.lastError])];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r, n) => {
    const line = r.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : cell)).join('  ').trimEnd();
    const data = n === 0 ? '' : letters[n - 1]!.data;
    // The data on its own indented line, cut short: enough to decide on a replay.
    return data ? `${line}\n    data: ${data.length > 300 ? `${data.slice(0, 300)}…` : data}` : line;
  });
  const more = letters.length === LIST_LIMIT ? ` (showing the first ${LIST_LIMIT})` : '';
  return `${letters.length} dead letter(s) in ${dlq}${more}\n${lines.join('\n')}\n`;
}

process.exitCode = await main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`dlq: ${err instanceof Error ? err.message : String(err)}\n`);
  return 1;
});
