import type { Logger } from './log';

/**
 * Graceful shutdown on SIGTERM/SIGINT: runs the closers in order (HTTP first so no new work
 * arrives, then consumers, then connections) and exits. A second signal exits at once.
 */
export function onShutdown(log: Logger, closers: Array<[name: string, close: () => Promise<unknown>]>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info({ signal }, 'shutting down');
    for (const [name, close] of closers) {
      try {
        await close();
      } catch (err) {
        log.warn({ err, name }, 'error while closing');
      }
    }
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
