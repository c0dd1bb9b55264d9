/**
 * A process for lifecycle-signals.test.ts: runService with a start that waits for ever
 * (`MODE=starting`, like a service waiting for its database) or that starts at once and
 * prints 'drained' when its stop runs (`MODE=running`).
 */
import { z } from 'zod';
import { runService } from '../../src/lifecycle';

const mode = process.env.MODE;
await runService('signal-test', { LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('silent') }, async () => {
  if (mode === 'starting') {
    process.stdout.write('starting\n');
    // A wait with a timer pending, as a retry loop has (a bare pending promise would let Node exit).
    await new Promise(() => setInterval(() => undefined, 1000));
  }
  const keepAlive = setInterval(() => undefined, 1000);
  process.stdout.write('running\n');
  return {
    async stop() {
      await new Promise((r) => setTimeout(r, 300));
      clearInterval(keepAlive);
      process.stdout.write('drained\n');
    },
  };
});
