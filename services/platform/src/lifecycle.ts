import { z } from 'zod';
import { baseEnv, ConfigError, loadConfig } from './config';
import { unavailableDependency } from './faults';
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
 * How a process stops (docs/adr/0040): `/readyz` answers 503 at once, the process keeps
 * serving for SHUTDOWN_DELAY_MS (a load balancer or Kubernetes' endpoints take it out of
 * rotation meanwhile), then drains HTTP and consumers, and exits after at most
 * SHUTDOWN_DRAIN_MS more. A supervisor's grace period (compose's stop_grace_period,
 * terminationGracePeriodSeconds) must exceed their sum.
 */
const shutdownEnv = {
  NODE_ENV: baseEnv.NODE_ENV,
  /** Default: 5 s in production, none elsewhere (tests and `make start` stop at once). */
  SHUTDOWN_DELAY_MS: z.coerce.number().int('must be a whole number of milliseconds').min(0).max(120_000).optional(),
  SHUTDOWN_DRAIN_MS: z.coerce.number().int('must be a whole number of milliseconds').min(100).max(600_000).default(20_000),
};

let shuttingDown = false;

/** True from the stop request on: /readyz answers 503 while the process still serves. */
export function isShuttingDown(): boolean {
  return shuttingDown;
}

/**
 * Graceful shutdown on SIGTERM/SIGINT: not ready at once, the delay, then the closers in
 * order (HTTP first so no new work arrives, then consumers, then connections) within the
 * drain bound, and exit. A second signal exits at once, unless it comes within a second of
 * the first: Ctrl-C under `make start` reaches a service both from the terminal and relayed by
 * tsx and the supervisor, and that must still drain gracefully.
 */
function onShutdown(log: Logger, closers: Array<[name: string, close: Closer]>, timing: { delayMs: number; drainMs: number }): void {
  const stack = new ShutdownStack(log, 'the process');
  for (const [name, close] of [...closers].reverse()) stack.push(name, close);
  let stoppingSince: number | undefined;
  const stop = async (signal: string) => {
    if (stoppingSince !== undefined) {
      if (Date.now() - stoppingSince < REPEATED_SIGNAL_MS) return;
      process.exit(1);
    }
    stoppingSince = Date.now();
    shuttingDown = true;
    log.info({ signal, ...timing }, 'shutting down: not ready, then draining');
    if (timing.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, timing.delayMs));
    // What is still running past the bound is cut: unacknowledged messages go back to their
    // queue and requests in flight fail, where a supervisor would SIGKILL us anyway.
    const bound = new Promise<'cut'>((resolve) => setTimeout(() => resolve('cut'), timing.drainMs));
    const outcome = await Promise.race([stack.stop().then(() => 'drained' as const), bound]);
    if (outcome === 'cut') log.error({ drainMs: timing.drainMs }, 'drain took longer than SHUTDOWN_DRAIN_MS; exiting anyway');
    else log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/**
 * A service's entry point (main.ts): reads its environment (a bad one: one stderr line, exit
 * 78), starts it with its logger, and stops it on SIGTERM/SIGINT. A ConfigError while starting
 * (settings that cannot work together, e.g. orders' payment provider) is told the same way as
 * a bad variable; a dependency away (PostgreSQL refusing a connection) starts it again after a
 * backoff; any other failure is logged and exits 1.
 */
export async function runService<S extends z.ZodRawShape & { LOG_LEVEL: typeof baseEnv.LOG_LEVEL }>(
  service: string,
  env: S,
  start: (config: z.infer<z.ZodObject<S>>, log: Logger) => Promise<{ stop(): Promise<void> }>,
): Promise<void> {
  const config = loadConfig(service, env);
  const shutdown = loadConfig(service, shutdownEnv);
  const timing = {
    delayMs: shutdown.SHUTDOWN_DELAY_MS ?? (shutdown.NODE_ENV === 'production' ? 5_000 : 0),
    drainMs: shutdown.SHUTDOWN_DRAIN_MS,
  };
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
  for (let attempt = 1; ; attempt += 1) {
    try {
      const running = await start(config, log);
      process.off('SIGTERM', stopWhileStarting);
      process.off('SIGINT', stopWhileStarting);
      onShutdown(log, [[service, running.stop]], timing);
      return;
    } catch (err) {
      if (err instanceof ConfigError) {
        process.stderr.write(`${service}: ${err.message}\n`);
        process.exit(78);
      }
      // A dependency that went away (or refused one more connection) during a start step after
      // its first connection: start again once it may be back, never exit for it. Each start
      // closes what it opened before it throws.
      const dependency = unavailableDependency(err);
      if (dependency === undefined) {
        log.fatal({ err }, `${service} failed to start`);
        process.exit(1);
      }
      const retryInMs = Math.min(STARTUP_RETRY_MS.first * 2 ** (attempt - 1), STARTUP_RETRY_MS.max);
      log.warn({ err, dependency, attempt, retryInMs }, `${service} could not start while ${dependency} is away; starting again`);
      await new Promise((resolve) => setTimeout(resolve, retryInMs));
    }
  }
}

/** Waits between starts that failed because a dependency was away. */
const STARTUP_RETRY_MS = { first: 500, max: 10_000 };
