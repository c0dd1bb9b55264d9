/**
 * The analysts' tap (issue 16): `npm run tap -- 'payment.*' 'leads.#'` prints every matching
 * event on warmline.events as one JSON line on stdout, until Ctrl-C. Logs go to stderr, so
 * stdout pipes into jq or a file. See tap.ts for what it may and may not touch.
 *
 * Connects with RABBITMQ_ANALYST_URL (the broker's read-only `analyst` user), else AMQP_URL:
 * locally the development credentials. BUS_NAMESPACE prefixes the exchange, as for services.
 */
import { z } from 'zod';
import { baseEnv, parseConfig } from '../config';
import { createLogger } from '../log';
import { eventTypesMatching, parseTapArguments, startTap, TAP_USAGE, type Tap } from './tap';

/** Bad arguments (the usage is printed). */
const EXIT_USAGE = 2;

async function main(argv: string[]): Promise<number> {
  const args = parseTapArguments(argv);
  if ('help' in args) {
    process.stdout.write(`${TAP_USAGE}\n`);
    return 0;
  }
  if ('error' in args) {
    process.stderr.write(`tap: ${args.error}\n${TAP_USAGE}\n`);
    return EXIT_USAGE;
  }
  const config = parseConfig({
    AMQP_URL: baseEnv.AMQP_URL,
    RABBITMQ_ANALYST_URL: z.url().optional(),
    BUS_NAMESPACE: baseEnv.BUS_NAMESPACE,
    LOG_LEVEL: baseEnv.LOG_LEVEL,
  });
  const log = createLogger('tap', config.LOG_LEVEL, process.stderr);
  const url = config.RABBITMQ_ANALYST_URL ?? config.AMQP_URL;
  log.info({ user: decodeURIComponent(new URL(url).username) || 'guest' }, 'tap connecting');
  for (const pattern of args.patterns) {
    if (eventTypesMatching(pattern).length === 0) {
      log.warn({ pattern }, 'this pattern matches no event type today (commands are never on the events exchange)');
    }
  }

  let tap: Tap | undefined;
  let finish!: (code: number) => void;
  const finished = new Promise<number>((resolve) => (finish = resolve));
  const stop = (code: number) => {
    void (tap?.stop() ?? Promise.resolve()).finally(() => finish(code));
  };
  process.once('SIGINT', () => stop(0));
  process.once('SIGTERM', () => stop(0));
  // The reader went away (`| head`, jq quit): nothing more to print.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => stop(err.code === 'EPIPE' ? 0 : 1));

  try {
    tap = await startTap({
      url,
      patterns: args.patterns,
      durableQueue: args.durableQueue,
      namespace: config.BUS_NAMESPACE,
      log,
      write: (line, done) => {
        process.stdout.write(line, (err) => {
          if (!err) done();
        });
      },
      onClosed: (err) => {
        log.error({ err }, 'RabbitMQ closed the connection; the tap stops');
        finish(1);
      },
    });
  } catch (err) {
    process.stderr.write(`tap: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  return finished;
}

process.exitCode = await main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`tap: ${err instanceof Error ? err.message : String(err)}\n`);
  return 1;
});
// amqplib's sockets and timers are closed by stop(); exit at once rather than wait for stragglers.
process.exit();
