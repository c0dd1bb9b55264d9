import type { z } from 'zod';
import { baseEnv, ConfigError, loadConfig } from './config';
import { createLogger, type Logger } from './log';

type Closer = () => Promise<unknown>;

/**
 * What a running service has opened, closed in reverse order of opening: HTTP first so no
 * new work arrives, then consumers and relays, connections last. A closer that fails is
 * logged and the rest still run; each runs once, so `stop` may be called again (it then does
 * nothing). `stop` is a bound function: hand it out as a service's own `stop`.
 */
export class ShutdownStack {
  private readonly closers: Array<[name: string, close: Closer]> = [];

  constructor(
    private readonly log: Logger,
    /** Named in the log line of a closer that fails, e.g. 'orders'. */
    private readonly what: string,
  ) {}

  push(name: string, close: Closer): void {
    this.closers.push([name, close]);
  }

  readonly stop = async (): Promise<void> => {
    for (const [name, close] of this.closers.splice(0).reverse()) {
      try {
        await close();
      } catch (err) {
        this.log.warn({ err, name }, `error while stopping ${this.what}`);
      }
    }
  };
}

/** Signals closer together than this are one request delivered twice, not an impatient operator. */
const REPEATED_SIGNAL_MS = 1000;

/**
 * Graceful shutdown on SIGTERM/SIGINT: runs the closers in order (HTTP first so no new work
 * arrives, then consumers, then connections) and exits. A second signal exits at once, unless
 * it comes within a second of the first: Ctrl-C under `make start` reaches a service both from
 * the terminal and relayed by tsx and the supervisor, and that must still drain gracefully.
 */
function onShutdown(log: Logger, closers: Array<[name: string, close: Closer]>): void {
  const stack = new ShutdownStack(log, 'the process');
  for (const [name, close] of [...closers].reverse()) stack.push(name, close);
  let stoppingSince: number | undefined;
  const stop = async (signal: string) => {
    if (stoppingSince !== undefined) {
      if (Date.now() - stoppingSince < REPEATED_SIGNAL_MS) return;
      process.exit(1);
    }
    stoppingSince = Date.now();
    log.info({ signal }, 'shutting down');
    await stack.stop();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/**
 * A service's entry point (main.ts): reads its environment (a bad one: one stderr line, exit
 * 78), starts it with its logger, and stops it on SIGTERM/SIGINT. A ConfigError while starting
 * (settings that cannot work together, e.g. orders' payment provider) is told the same way as
 * a bad variable; any other failure is logged and exits 1.
 */
export async function runService<S extends z.ZodRawShape & { LOG_LEVEL: typeof baseEnv.LOG_LEVEL }>(
  service: string,
  env: S,
  start: (config: z.infer<z.ZodObject<S>>, log: Logger) => Promise<{ stop(): Promise<void> }>,
): Promise<void> {
  const config = loadConfig(service, env);
  // S has baseEnv's LOG_LEVEL (the type parameter says so); zod's mapped type does not show it.
  const log = createLogger(service, (config as { LOG_LEVEL: z.infer<typeof baseEnv.LOG_LEVEL> }).LOG_LEVEL);
  // While starting (e.g. waiting for PostgreSQL or Redis), a stop request ends the process at
  // once with success: nothing is serving yet, and a supervisor must not take the death by
  // signal for a crash to restart.
  const stopWhileStarting = (signal: NodeJS.Signals) => {
    log.info({ signal }, 'stopped while starting');
    process.exit(0);
  };
  process.on('SIGTERM', stopWhileStarting);
  process.on('SIGINT', stopWhileStarting);
  try {
    const running = await start(config, log);
    process.off('SIGTERM', stopWhileStarting);
    process.off('SIGINT', stopWhileStarting);
    onShutdown(log, [[service, running.stop]]);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${service}: ${err.message}\n`);
      process.exit(78);
    }
    log.fatal({ err }, `${service} failed to start`);
    process.exit(1);
  }
}
