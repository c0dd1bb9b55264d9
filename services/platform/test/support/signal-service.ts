/**
 * A process for lifecycle-signals.test.ts: runService with a start that waits for ever
 * (`MODE=starting`, like a service waiting for its database) or that starts at once and
 * prints 'drained' when its stop runs (`MODE=running`). `MODE=refused-once`: the first start
 * fails as PostgreSQL does when it has no connection slot left (53300), the next one runs;
 * `MODE=broken`: every start fails with a plain error.
 */
import { z } from 'zod';
import { runService } from '../../src/lifecycle';

const mode = process.env.MODE;
let starts = 0;
await runService('signal-test', { LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('silent') }, async () => {
  starts += 1;
  process.stdout.write(`start ${starts}\n`);
  if (mode === 'broken') throw new Error('a bug in the start');
  if (mode === 'refused-once' && starts === 1) {
    throw Object.assign(new Error('remaining connection slots are reserved for non-replication superuser connections'), { code: '53300' });
  }
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
