import { type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitFor } from '@warmline/platform/testing/index';
import { answers, startService } from './processes.js';

/**
 * The gateway as its own process in front of the services a bench measures, on `port`, and
 * answering /healthz. The vendor throttle is lifted: capacity is what benches measure, not the
 * per-key limit. `env` holds what every process of the run shares; `settings` what is the bench's
 * own (the service URLs it forwards to, WEB_DIST_DIR for the SPA…).
 */
export async function startBenchGateway(options: { env: Record<string, string>; port: number; runId: string; redisPrefix: string; settings: Record<string, string> }): Promise<ChildProcess> {
  const gateway = startService('gateway', {
    ...options.env,
    GATEWAY_PORT: String(options.port),
    GATEWAY_INTERNAL_PORT: String(await freePort()),
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: options.redisPrefix,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ADMIN_USERNAME: `bench_admin_${options.runId}`,
    ADMIN_PASSWORD: `bench-password-${options.runId}`,
    WEB_DIST_DIR: path.join(os.tmpdir(), 'no-web-dist'),
    VENDOR_WEBHOOK_CALLS_PER_MINUTE: '1000000',
    ...options.settings,
  });
  await waitFor('the gateway', answers(`http://127.0.0.1:${options.port}/healthz`), { timeoutMs: 60_000, intervalMs: 250 });
  return gateway;
}
