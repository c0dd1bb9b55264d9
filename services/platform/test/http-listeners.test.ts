import { afterAll, describe, expect, it } from 'vitest';
import { createHttpApp, serve } from '../src/http/app';
import { baseEnv, parseConfig } from '../src/config';
import { ShutdownStack } from '../src/lifecycle';
import { createLogger } from '../src/log';
import { TEST_KEYS } from '../src/testing/index';

/**
 * Issue 11, Medium 10, in the HTTP kit: an app for a public port serves a bare liveness answer
 * and no readiness details or metrics; a service's internal listener binds INTERNAL_HOST.
 */

const log = createLogger('listeners-test', 'silent');
const stops = new ShutdownStack(log, 'the test servers');
afterAll(() => stops.stop());

describe('the HTTP kit', () => {
  it("when an app is for a public port (ops: 'liveness'), then /healthz is bare and /readyz and /metrics are not there", async () => {
    const app = createHttpApp({ service: 'public', log, ops: 'liveness', readiness: [['postgres', async () => 'ok']], mount: () => undefined });
    const url = await serve(app, 0, stops, '127.0.0.1');

    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${url}/readyz`)).status).toBe(404);
    expect((await fetch(`${url}/metrics`)).status).toBe(404);
  });

  it('when a server is served at a host, then it listens there only and its URL names it', async () => {
    const app = createHttpApp({ service: 'internal', log, readiness: [], mount: () => undefined });
    const url = await serve(app, 0, stops, '127.0.0.2');

    expect(url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    await expect(fetch(url.replace('127.0.0.2', '127.0.0.1') + '/healthz')).rejects.toThrow();
  });

  it('when a client keeps its connection, then the server promises to keep it longer than a load balancer would (65 s)', async () => {
    const app = createHttpApp({ service: 'internal', log, readiness: [], mount: () => undefined });
    const url = await serve(app, 0, stops, '127.0.0.1');
    const { request } = await import('node:http');
    // undici's fetch hides the Keep-Alive header, so ask with node:http.
    const keepAlive = await new Promise<string | undefined>((resolve, reject) => {
      const req = request(`${url}/healthz`, { headers: { connection: 'keep-alive' } }, (res) => {
        res.resume();
        resolve(res.headers['keep-alive'] as string | undefined);
      });
      req.on('error', reject);
      req.end();
    });
    expect(keepAlive).toBe('timeout=65');
  });

  it('when INTERNAL_HOST is not set, then internal listeners bind loopback', () => {
    expect(parseConfig(baseEnv, TEST_KEYS).INTERNAL_HOST).toBe('127.0.0.1');
  });
});
