import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express from 'express';
import { CALLBACK_WEBHOOK_PATH, DEFAULT_BODY_LIMIT_BYTES, WEBHOOK_FAILED_MESSAGE, type CallbackWebhookInput } from '@warmline/contracts';
import { closeServer, closeRedis, createRedis, IDENTITY_HEADER, identityCheck, listen, verifyIdentity, type Redis } from '@warmline/platform';
import { createTestDatabase, TEST_REDIS_URL, type TestDatabase } from '@warmline/platform/testing/index';
import { proxyFor, type ProxiedDependency } from '@warmline/platform/testing/outage';
import { VENDOR_THROTTLED_MESSAGE } from '../src/edge/vendor-webhook';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/**
 * The vendor's webhook at the gateway (issue 15): POST /api/callbacks/brightcall (access
 * 'vendor-key') reaches the ingestion service without a session or CSRF token, with the key
 * header untouched and the anonymous identity; calls are counted per key (the limit set to 3
 * here) and key-less calls per address (60); the gateway's own refusals are in the webhook's
 * shape. A stand-in ingestion service records what reaches it; Redis is behind a proxy the last
 * tests cut, and the stand-in is closed last of all.
 */

const PER_KEY_LIMIT = 3;

interface Reached {
  method: string;
  path: string;
  apiKey: string | undefined;
  authorization: string | undefined;
  cookie: string | undefined;
  identity: string | undefined;
  body: string;
}

let ingestion: Server;
const reached: Reached[] = [];
let db: TestDatabase;
let redisProxy: ProxiedDependency;
let redis: Redis;
let gw: GatewayFixture;

beforeAll(async () => {
  const app = express();
  app.all('/api/{*rest}', async (req, res) => {
    let body = '';
    for await (const chunk of req) body += (chunk as Buffer).toString('utf8');
    reached.push({
      method: req.method,
      path: req.originalUrl,
      apiKey: req.headers['x-api-key'] as string | undefined,
      authorization: req.headers.authorization,
      cookie: req.headers.cookie,
      identity: req.headers[IDENTITY_HEADER] as string | undefined,
      body,
    });
    res.json({ success: true, message: 'Callback received', callback_id: randomUUID() });
  });
  ingestion = await listen(app, 0, '127.0.0.1');
  db = await createTestDatabase('wl_gateway_vendor');
  redisProxy = await proxyFor(TEST_REDIS_URL);
  gw = await startGatewayFixture({
    db,
    env: {
      INGESTION_URL: `http://127.0.0.1:${(ingestion.address() as AddressInfo).port}`,
      VENDOR_WEBHOOK_CALLS_PER_MINUTE: String(PER_KEY_LIMIT),
      REDIS_URL: redisProxy.url,
    },
  });
  redis = await createRedis(TEST_REDIS_URL);
}, 60_000);

afterAll(async () => {
  await redisProxy?.proxy.restore();
  if (redis) await closeRedis(redis);
  await gw?.cleanup();
  await redisProxy?.proxy.close();
  await db?.drop();
  if (ingestion?.listening) await closeServer(ingestion);
});

const newKey = () => `wlv_${randomBytes(24).toString('base64url')}`;
/** A documentation address no other test uses, so each test has its own count. */
let nextHost = 1;
const freshIp = () => `198.51.100.${nextHost++}`;

// A vendor's body as it would send it (the stand-in does not read it).
const CALL: Partial<Record<keyof CallbackWebhookInput, string>> = {
  first_name: 'Maria',
  last_name: 'Lopez',
  phone_number: '+1 (512) 555-0143',
  transcript: 'Prospect: Please call me back tomorrow after 3 pm.',
  call_outcome: 'callback_requested',
};

async function post(headers: Record<string, string>, body: string = JSON.stringify(CALL)) {
  const res = await fetch(`${gw.url}${CALLBACK_WEBHOOK_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp(), ...headers },
    body,
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json };
}

describe('the webhook is forwarded to the ingestion service', () => {
  it('when a vendor posts with X-API-Key and no session or CSRF token, then the call reaches ingestion byte for byte with the key untouched and an anonymous identity', async () => {
    const key = newKey();
    const body = JSON.stringify(CALL);
    const before = reached.length;

    const answer = await post({ 'x-api-key': key }, body);

    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ success: true });
    expect(reached.slice(before)).toHaveLength(1);
    const arrived = reached.at(-1)!;
    expect(arrived).toMatchObject({ method: 'POST', path: CALLBACK_WEBHOOK_PATH, apiKey: key, body });
    expect(verifyIdentity(identityCheck(gw.config, 'ingestion'), arrived.identity!)).toMatchObject({ userId: null, username: null, isAdmin: false });
  });

  it('when a vendor authenticates with Authorization: Bearer and sends a form-encoded body, then the header reaches ingestion as sent (CSRF does not apply)', async () => {
    const key = newKey();
    const answer = await post({ authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' }, 'first_name=Maria');

    expect(answer.status).toBe(200);
    expect(reached.at(-1)).toMatchObject({ authorization: `Bearer ${key}`, apiKey: undefined, body: 'first_name=Maria' });
  });

  it("when the call carries a signed-in admin's session cookie and a forged identity, then ingestion still sees only the anonymous identity and no cookie", async () => {
    const admin = gw.browser();
    await admin.login(gw.admin.username, gw.admin.password);
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

    const answer = await post({ 'x-api-key': newKey(), cookie, [IDENTITY_HEADER]: 'forged' });

    expect(answer.status).toBe(200);
    const arrived = reached.at(-1)!;
    expect(arrived.cookie).toBeUndefined();
    expect(verifyIdentity(identityCheck(gw.config, 'ingestion'), arrived.identity!)).toMatchObject({ userId: null, username: null, isAdmin: false });
  });

  it('when the method or the path is not a route, then the gateway answers 405 or 404 as for any route, and nothing is forwarded', async () => {
    const before = reached.length;
    const get = await fetch(`${gw.url}${CALLBACK_WEBHOOK_PATH}`, { headers: { 'x-api-key': newKey() } });
    const other = await fetch(`${gw.url}/api/callbacks/other-vendor`, { method: 'POST', headers: { 'x-api-key': newKey(), 'content-type': 'application/json' }, body: '{}' });

    expect(get.status).toBe(405);
    expect(await get.json()).toMatchObject({ error: expect.stringMatching(/Method not allowed/) });
    expect(other.status).toBe(404);
    expect(reached.length).toBe(before);
  });

  it("when the body is over the route's limit, then it is refused with 413 in the webhook's shape and never forwarded", async () => {
    const before = reached.length;
    const answer = await post({ 'x-api-key': newKey() }, JSON.stringify({ ...CALL, transcript: 'x'.repeat(DEFAULT_BODY_LIMIT_BYTES) }));

    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({ success: false, message: expect.any(String) });
    expect(reached.length).toBe(before);
  });
});

describe('calls per key and key-less calls per address', () => {
  it(`when one key makes more than ${PER_KEY_LIMIT} calls in the minute, then the next is refused with 429, the webhook's message and Retry-After, and never forwarded; another key still passes`, async () => {
    const key = newKey();
    const before = reached.length;

    // From several addresses: the count is the key's, wherever it calls from.
    const answers = [];
    for (let i = 0; i < PER_KEY_LIMIT + 1; i += 1) answers.push(await post({ 'x-api-key': key }));

    expect(answers.map((a) => a.status)).toEqual([...Array<number>(PER_KEY_LIMIT).fill(200), 429]);
    const refused = answers.at(-1)!;
    expect(refused.json).toEqual({ success: false, message: VENDOR_THROTTLED_MESSAGE });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(reached.length - before).toBe(PER_KEY_LIMIT);

    // The same key as a Bearer token is the same key.
    expect((await post({ authorization: `Bearer ${key}` })).status).toBe(429);
    expect((await post({ 'x-api-key': newKey() })).status).toBe(200);
  });

  it('when a key calls, then every answer carries its RateLimit (limit, remaining, reset) and the policy, down to 0 remaining on the 429', async () => {
    const key = newKey();
    const answers = [];
    for (let i = 0; i < PER_KEY_LIMIT + 1; i += 1) answers.push(await post({ 'x-api-key': key }));

    const remaining = answers.map((a) => Number(a.headers.get('ratelimit-remaining')));
    expect(remaining).toEqual([2, 1, 0, 0]);
    for (const a of answers) {
      expect(a.headers.get('ratelimit-policy')).toBe(`${PER_KEY_LIMIT};w=60`);
      expect(a.headers.get('ratelimit-limit')).toBe(String(PER_KEY_LIMIT));
      const reset = Number(a.headers.get('ratelimit-reset'));
      expect(reset).toBeGreaterThan(0);
      expect(reset).toBeLessThanOrEqual(60);
      expect(a.headers.get('ratelimit')).toBe(`limit=${PER_KEY_LIMIT}, remaining=${a.headers.get('ratelimit-remaining')}, reset=${reset}`);
    }
    expect(answers.at(-1)!.status).toBe(429);
  });

  it('when keys are counted, then Redis holds neither a key nor its SHA-256 in clear', async () => {
    const key = newKey();
    await post({ 'x-api-key': key });

    const names = await redis.keys(`${gw.config.REDIS_PREFIX}throttle:vendor-webhook-key:*`);
    expect(names.length).toBeGreaterThan(0);
    const sha = createHash('sha256').update(key).digest('hex');
    for (const name of names) {
      expect(name).not.toContain(key);
      expect(name).not.toContain(sha.slice(0, 32));
    }
  });

  it('when one address makes more than 60 calls without any key in the minute, then the next is refused with 429; a call with a key from it and a key-less call from another address pass', async () => {
    const ip = freshIp();
    const before = reached.length;

    const statuses = [];
    for (let i = 0; i < 61; i += 1) statuses.push((await post({ 'x-forwarded-for': ip })).status);

    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
    expect(reached.length - before).toBe(60);
    // An Authorization of another scheme is no key either.
    const basic = await post({ 'x-forwarded-for': ip, authorization: 'Basic dXNlcjpwYXNz' });
    expect(basic.status).toBe(429);
    expect(basic.json).toEqual({ success: false, message: VENDOR_THROTTLED_MESSAGE });
    expect(Number(basic.headers.get('retry-after'))).toBeGreaterThan(0);

    expect((await post({ 'x-forwarded-for': ip, 'x-api-key': newKey() })).status).toBe(200);
    expect((await post({ 'x-forwarded-for': freshIp() })).status).toBe(200);
  });

  it('when Redis is cut, then vendor calls are let through uncounted (the throttle fails open) and counted again once it is back', async () => {
    const key = newKey();
    redisProxy.proxy.cut();
    try {
      const statuses = [];
      for (let i = 0; i < PER_KEY_LIMIT + 2; i += 1) statuses.push((await post({ 'x-api-key': key })).status);
      expect(statuses.every((s) => s === 200)).toBe(true);
    } finally {
      await redisProxy.proxy.restore();
    }
    const back = newKey();
    const statuses: number[] = [];
    // The client reconnects by itself; until it has, calls still pass.
    for (let i = 0; i < 50 && statuses.at(-1) !== 429; i += 1) {
      statuses.push((await post({ 'x-api-key': back })).status);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(statuses.at(-1)).toBe(429);
  }, 30_000);
});

describe('the ingestion service is away', () => {
  it("when ingestion cannot be reached, then the vendor gets 503 { success: false, message: 'Failed to process callback' } with Retry-After", async () => {
    await closeServer(ingestion);

    const answer = await post({ 'x-api-key': newKey() });

    expect(answer.status).toBe(503);
    expect(answer.json).toEqual({ success: false, message: WEBHOOK_FAILED_MESSAGE });
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
