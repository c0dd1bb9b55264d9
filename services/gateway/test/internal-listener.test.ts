import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_CALL_HEADER } from '@warmline/platform';
import { freePort, signTestServiceCall } from '@warmline/platform/testing/index';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/**
 * Issue 11, Medium 10: the public port serves the site, the API and a bare liveness answer; the
 * readiness details, the metrics and the routes for internal services (/internal/...) are on
 * the internal listener (GATEWAY_INTERNAL_PORT on INTERNAL_HOST) only.
 */

const INTERNAL_HOST = '127.0.0.2';
let gw: GatewayFixture;
let internalPort: number;

beforeAll(async () => {
  internalPort = await freePort();
  gw = await startGatewayFixture({ env: { GATEWAY_INTERNAL_PORT: String(internalPort), INTERNAL_HOST } });
});

afterAll(async () => {
  await gw?.cleanup();
});

const internalUrl = () => `http://${INTERNAL_HOST}:${internalPort}`;

describe('the public port', () => {
  it.each(['/readyz', '/metrics'])('when %s is asked for, then it is not there', async (path) => {
    const answer = await gw.browser().get(path);

    expect(answer.status).toBe(404);
    expect(answer.text).not.toMatch(/postgres|redis|rabbitmq|process_cpu|http_request_duration/);
  });

  it('when /healthz is asked for, then it answers a bare liveness with no details', async () => {
    const answer = await gw.browser().get('/healthz');

    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ status: 'ok' });
  });

  it("when a service's /internal route is asked for there, even with a valid service credential, then it is not there", async () => {
    const { user } = await gw.createAgent();
    const identity = signTestServiceCall('orders', 'gateway');

    const answer = await gw.browser().get(`/internal/users/${user.id}`, { headers: { [SERVICE_CALL_HEADER]: identity } });

    expect(answer.status).not.toBe(200);
    expect(answer.text).not.toContain(user.email);
  });
});

describe('the internal listener', () => {
  it('when started, then it listens on GATEWAY_INTERNAL_PORT at INTERNAL_HOST, not on every interface', async () => {
    expect(gw.internalUrl).toBe(internalUrl());
    await expect(fetch(`http://127.0.0.1:${internalPort}/healthz`)).rejects.toThrow();
  });

  it('when /readyz and /metrics are asked for, then they answer with their details', async () => {
    const ready = await fetch(`${internalUrl()}/readyz`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { status: string; checks: Record<string, string> };
    // The broker may still be connecting: it degrades, it does not stop readiness.
    expect(body.status).toBe('ready');
    expect(Object.keys(body.checks).sort()).toEqual(['postgres', 'rabbitmq', 'redis']);

    // A public request first: the metrics cover both listeners.
    await gw.browser().get('/api/site-config');
    const metrics = await (await fetch(`${internalUrl()}/metrics`)).text();
    expect(metrics).toContain('http_request_duration_seconds');
    expect(metrics).toMatch(/http_request_duration_seconds_count\{[^}]*route="[^"]*site-config/);
    expect(metrics).toContain('process_cpu');
  });

  it('when an internal service asks for a user with its own credential, then it gets the user', async () => {
    const { user } = await gw.createAgent();
    const identity = signTestServiceCall('orders', 'gateway');

    const answer = await fetch(`${internalUrl()}/internal/users/${user.id}`, { headers: { [SERVICE_CALL_HEADER]: identity } });

    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ id: user.id, email: user.email });
  });

  it('when the public site or API is asked for there, then it is not served', async () => {
    expect((await fetch(`${internalUrl()}/api/site-config`)).status).toBe(404);
    expect((await fetch(`${internalUrl()}/internal/users/${randomUUID()}`)).status).toBe(401);
  });
});
