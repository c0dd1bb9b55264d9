import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import client from 'prom-client';
import { ClientOfflineError, TimeoutError } from 'redis';
import { closeServer, createHttpApp, listen, type ReadinessCheck } from '../src/http/app';
import { DependencyUnavailableError, markUnavailable } from '../src/faults';
import { createLogger } from '../src/log';

/** The HTTP kit while a dependency is away: 503 with Retry-After, never 500; /readyz's verdict. */

const up = { postgres: true, redis: true, rabbitmq: true };
const check = (name: keyof typeof up) => async () => {
  if (!up[name]) throw new Error('connection refused');
};

function errorWith(fields: Record<string, unknown>, message = 'boom'): Error {
  return Object.assign(new Error(message), fields);
}

/** What each route throws: the shapes pg, node-redis and sockets use when their peer is gone. */
const thrown: Record<string, () => unknown> = {
  'pg-admin-shutdown': () => errorWith({ code: '57P01' }, 'terminating connection due to administrator command'),
  'pg-terminated': () => new Error('Connection terminated unexpectedly'),
  'pg-refused-marked': () => markUnavailable(errorWith({ code: 'ECONNREFUSED' }, 'connect ECONNREFUSED 127.0.0.1:5432'), 'postgres'),
  'redis-offline': () => new ClientOfflineError(),
  'redis-timeout': () => new TimeoutError(),
  'bare-reset': () => errorWith({ code: 'ECONNRESET' }, 'read ECONNRESET'),
  // fetch() to another service that is away: the socket's error is the TypeError's cause.
  'fetch-refused': () => new TypeError('fetch failed', { cause: errorWith({ code: 'ECONNREFUSED' }, 'connect ECONNREFUSED 127.0.0.1:3100') }),
  'named': () => new DependencyUnavailableError('rabbitmq'),
  'a-bug': () => new TypeError('cannot read x of undefined'),
};

let server: Server;
let base: string;
const extra = new client.Registry();
new client.Counter({ name: 'bus_test_published_total', help: 'published in this test', registers: [extra] }).inc(3);

beforeAll(async () => {
  const readiness: ReadinessCheck[] = [
    ['postgres', check('postgres')],
    ['redis', check('redis'), 'required'],
    ['rabbitmq', check('rabbitmq'), 'degrades'],
  ];
  const app = createHttpApp({
    service: 'kit-faults',
    log: createLogger('kit-faults', 'silent'),
    readiness,
    metrics: extra,
    mount: (a) => {
      a.get('/fail/:kind', async (req) => {
        throw thrown[req.params.kind!]!();
      });
    },
  });
  server = await listen(app, 0, '127.0.0.1');
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await closeServer(server);
});

describe('the HTTP kit when a dependency is away', () => {
  it.each([
    ['pg-admin-shutdown', /the database is not reachable/],
    ['pg-terminated', /the database is not reachable/],
    ['pg-refused-marked', /the database is not reachable/],
    ['redis-offline', /the session store is not reachable/],
    ['redis-timeout', /the session store is not reachable/],
    ['bare-reset', /a service this request needs is not reachable/],
    ['fetch-refused', /a service this request needs is not reachable/],
    ['named', /the message broker is not reachable/],
  ])('when a route fails with %s, then the answer is 503 with Retry-After and a clear message', async (kind, message) => {
    const res = await fetch(`${base}/fail/${kind}`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.error).toMatch(message);
    expect(body).not.toHaveProperty('retryAfterSeconds');
  });

  it('when a route fails with a bug, then it is still a 500', async () => {
    const res = await fetch(`${base}/fail/a-bug`);
    expect(res.status).toBe(500);
  });

  it('when only the broker is down, then /readyz answers 200 and names it degraded', async () => {
    up.rabbitmq = false;
    try {
      const res = await fetch(`${base}/readyz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        status: 'ready',
        degraded: ['rabbitmq'],
        checks: { postgres: 'ok', redis: 'ok', rabbitmq: 'down: connection refused' },
      });
    } finally {
      up.rabbitmq = true;
    }
  });

  it.each(['postgres', 'redis'] as const)('when %s is down, then /readyz answers 503', async (name) => {
    up[name] = false;
    up.rabbitmq = false;
    try {
      const res = await fetch(`${base}/readyz`);
      expect(res.status).toBe(503);
      const body = (await res.json()) as { status: string; degraded: string[] };
      expect(body.status).toBe('not ready');
      expect(body.degraded).toEqual(['rabbitmq']);
    } finally {
      up[name] = true;
      up.rabbitmq = true;
    }
    const back = await fetch(`${base}/readyz`);
    expect(back.status).toBe(200);
    expect(await back.json()).toMatchObject({ status: 'ready', degraded: [] });
  });

  it('when /metrics is scraped, then the given registry is served beside the HTTP metrics', async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toContain('http_request_duration_seconds_bucket');
    expect(text).toContain('bus_test_published_total 3');
  });
});
