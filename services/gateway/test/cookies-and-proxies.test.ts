import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express from 'express';
import { closeServer, listen } from '@warmline/platform';
import { TEST_KEYS } from '@warmline/platform/testing/index';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/**
 * Issue 11, Medium 3: in production the session cookie is Secure always and `__Host-` prefixed;
 * how many proxy hops are believed is TRUST_PROXY, so the gateway sees (and forwards, and
 * throttles by) the client's own address behind a TLS proxy.
 */

let echo: Server;
let production: GatewayFixture;

beforeAll(async () => {
  // A stand-in internal service that says which client address the gateway forwarded.
  const app = express();
  app.get('/api/who-am-i', (req, res) => {
    res.json({ forwardedFor: req.headers['x-forwarded-for'] ?? null });
  });
  echo = await listen(app, 0, '127.0.0.1');
  production = await startGatewayFixture({
    // Two hops: the TLS terminator and a load balancer in front of it.
    env: { NODE_ENV: 'production', TRUST_PROXY: '2' },
    forwardRoutes: [{ prefix: '/api/who-am-i', audience: 'who-am-i', target: `http://127.0.0.1:${(echo.address() as AddressInfo).port}` }],
  });
});

afterAll(async () => {
  await production?.cleanup();
  if (echo) await closeServer(echo);
});

describe('the session cookie in production', () => {
  it('when a user logs in over https behind the proxies, then the cookie is __Host- prefixed, Secure, host-only on / and works', async () => {
    const { user, password } = await production.createAgent();
    const browser = production.browser();
    const https = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.1, 10.0.0.2' };

    const answer = await browser.post('/api/login', { username: user.username, password }, { headers: https });

    expect(answer.status).toBe(200);
    const cookies = answer.headers.getSetCookie();
    const session = cookies.find((c) => c.startsWith('__Host-warmline.sid='));
    expect(session, cookies.join('\n')).toBeDefined();
    expect(session).toMatch(/; Secure/i);
    expect(session).toMatch(/; Path=\/(;|$)/i);
    expect(session).toMatch(/; HttpOnly/i);
    expect(session).not.toMatch(/; Domain=/i);
    expect(cookies.some((c) => c.startsWith('warmline.sid='))).toBe(false);
    const me = await browser.get('/api/current-user', { headers: https });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ username: user.username });
  });

  it('when a request reaches it over plain http, then no session cookie is ever sent without Secure', async () => {
    const { user, password } = await production.createAgent();

    const answer = await production.browser().post('/api/login', { username: user.username, password });

    for (const cookie of answer.headers.getSetCookie()) expect(cookie).toMatch(/; Secure/i);
  });
});

describe('trusted proxy hops (TRUST_PROXY)', () => {
  it('when two hops are trusted, then the client address is the one the outer proxy saw, and that is what is forwarded', async () => {
    const answer = await production.browser().get('/api/who-am-i', {
      headers: { 'x-forwarded-for': '203.0.113.9, 198.51.100.1, 10.0.0.2' },
    });

    expect(answer.status).toBe(200);
    // 10.0.0.2 (the load balancer, hop 2) added the address it saw: 198.51.100.1 is the client;
    // what the client itself wrote in front of it (203.0.113.9) is not believed.
    expect(answer.json).toEqual({ forwardedFor: '198.51.100.1' });
  });

  it('when TRUST_PROXY is not a hop count or address list, then the configuration is refused', async () => {
    const { gatewayEnv } = await import('../src/config');
    const { parseConfig } = await import('@warmline/platform');
    expect(() => parseConfig(gatewayEnv, { ...process.env, ...TEST_KEYS, SESSION_SECRET: 'y'.repeat(32), TRUST_PROXY: 'everyone!' })).toThrow(
      /TRUST_PROXY/,
    );
  });
});
