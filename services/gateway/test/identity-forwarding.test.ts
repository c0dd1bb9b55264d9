import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeServer,
  createHttpApp,
  createLogger,
  IDENTITY_HEADER,
  listen,
  identityCheck,
  privateKeyOf,
  signIdentity,
  type Identity,
} from '@warmline/platform';
import { freePort, signTestIdentity, TEST_KEYS } from '@warmline/platform/testing/index';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/**
 * Identity forwarding (docs/adr/0001-identity-forwarding.md): a stand-in internal service built
 * with the platform's HTTP kit, reached through the gateway and straight.
 */

interface Echo {
  identity: Identity;
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let internal: Server;
let internalUrl: string;
let gw: GatewayFixture;

beforeAll(async () => {
  const app = createHttpApp({
    service: 'echo',
    log: createLogger('echo', 'silent'),
    readiness: [],
    identity: identityCheck(TEST_KEYS, 'echo'),
    mount: (app) => {
      // Answers with what it was sent; the raw body is read here (text/plain is not parsed).
      app.all('/api/echo{/*rest}', async (req, res) => {
        let body = '';
        if (req.body === undefined) for await (const chunk of req) body += String(chunk);
        else body = JSON.stringify(req.body);
        const echo: Echo = { identity: req.identity!, method: req.method, url: req.originalUrl, headers: req.headers, body };
        res.json(echo);
      });
    },
  });
  internal = await listen(app, 0, '127.0.0.1');
  internalUrl = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;
  gw = await startGatewayFixture({
    forwardRoutes: [
      { prefix: '/api/echo', target: internalUrl, audience: 'echo' },
      { prefix: '/api/gone', target: `http://127.0.0.1:${await freePort()}`, audience: 'gone' },
    ],
  });
});

afterAll(async () => {
  await gw?.cleanup();
  if (internal) await closeServer(internal);
});

async function agentBrowser() {
  const { user, password } = await gw.createAgent();
  const browser = gw.browser();
  await browser.login(user.username, password);
  return { browser, user };
}

describe('through the gateway', () => {
  it("when a logged-in agent calls a forwarded route, then the service sees that agent's identity and no cookie", async () => {
    const { browser, user } = await agentBrowser();
    const answer = await browser.get('/api/echo/leads?page=2', { headers: { 'x-request-id': 'trace-me-123' } });
    expect(answer.status).toBe(200);
    const echo = answer.json as Echo;
    expect(echo.identity).toMatchObject({ userId: user.id, username: user.username, isAdmin: false });
    // The client's address travels signed, so the service need not believe X-Forwarded-For.
    expect(echo.identity.clientIp).toMatch(/127\.0\.0\.1$/);
    expect(echo.url).toBe('/api/echo/leads?page=2');
    expect(echo.headers.cookie).toBeUndefined();
    expect(echo.headers['x-request-id']).toBe('trace-me-123');
    expect(answer.headers.get('x-request-id')).toBe('trace-me-123');
  });

  it('when a logged-in agent sends their own (even validly signed) admin identity header, then it is replaced by theirs', async () => {
    const { browser, user } = await agentBrowser();
    const forged = signTestIdentity('echo', { userId: user.id, username: user.username, isAdmin: true });
    const answer = await browser.get('/api/echo', { headers: { [IDENTITY_HEADER]: forged } });
    expect((answer.json as Echo).identity).toMatchObject({ userId: user.id, username: user.username, isAdmin: false });
  });

  it('when an anonymous visitor sends a forged identity header, then it is dropped and the service sees an anonymous visitor', async () => {
    const forged = signTestIdentity('echo', { userId: '00000000-0000-4000-8000-000000000001', username: 'boss', isAdmin: true });
    const answer = await gw.browser().get('/api/echo', { headers: { [IDENTITY_HEADER]: forged } });
    expect(answer.status).toBe(200);
    expect((answer.json as Echo).identity).toMatchObject({ userId: null, username: null, isAdmin: false });
  });

  it('when a body is forwarded, then it reaches the service byte for byte', async () => {
    const { browser } = await agentBrowser();
    const raw = 'signed=payload&exact=bytes \u00e9';
    const answer = await browser.request('POST', '/api/echo/raw', {
      body: raw,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(answer.status).toBe(200);
    expect((answer.json as Echo).body).toBe(raw);

    const json = await browser.post('/api/echo/order', { count: 3 });
    expect((json.json as Echo).method).toBe('POST');
    expect((json.json as Echo).body).toBe('{"count":3}');
  });

  it('when the internal service is down, then the gateway answers 503 with a clear message and Retry-After', async () => {
    const answer = await gw.browser().get('/api/gone/anything');
    expect(answer.status).toBe(503);
    expect(answer.json.error).toMatch(/unavailable/);
    expect(answer.headers.get('retry-after')).toBe('5');
  });
});

describe('straight to the internal service', () => {
  const call = (headers: Record<string, string> = {}) => fetch(`${internalUrl}/api/echo`, { headers });

  it('when no identity header is sent, then it answers 401', async () => {
    expect((await call()).status).toBe(401);
  });

  it("when the identity is signed with a service's key or tampered with, then it answers 401", async () => {
    const identity = { userId: '00000000-0000-4000-8000-000000000001', username: 'boss', isAdmin: true };
    const byCatalog = signIdentity(privateKeyOf(TEST_KEYS.CATALOG_SERVICE_KEY), 'echo', identity);
    expect((await call({ [IDENTITY_HEADER]: byCatalog })).status).toBe(401);

    const genuine = signTestIdentity('echo', { ...identity, isAdmin: false });
    const [, signature] = genuine.split('.');
    const tamperedPayload = Buffer.from(JSON.stringify({ ...identity, exp: Math.floor(Date.now() / 1000) + 30 })).toString('base64url');
    expect((await call({ [IDENTITY_HEADER]: `${tamperedPayload}.${signature}` })).status).toBe(401);
    expect((await call({ [IDENTITY_HEADER]: 'garbage' })).status).toBe(401);
  });

  it('when the identity is for another service, then it answers 401', async () => {
    const forCatalog = signTestIdentity('catalog', { userId: '00000000-0000-4000-8000-000000000001', username: 'agent', isAdmin: false });
    expect((await call({ [IDENTITY_HEADER]: forCatalog })).status).toBe(401);
  });

  it('when the identity has expired, then it answers 401', async () => {
    const expired = signIdentity(
      privateKeyOf(TEST_KEYS.IDENTITY_PRIVATE_KEY),
      'echo',
      { userId: '00000000-0000-4000-8000-000000000001', username: 'agent', isAdmin: false },
      Date.now() - 10 * 60_000,
    );
    expect((await call({ [IDENTITY_HEADER]: expired })).status).toBe(401);
  });

  it('when the identity is genuine and fresh, then it is accepted', async () => {
    const genuine = signTestIdentity('echo', { userId: '00000000-0000-4000-8000-000000000001', username: 'agent', isAdmin: false });
    expect((await call({ [IDENTITY_HEADER]: genuine })).status).toBe(200);
  });
});
