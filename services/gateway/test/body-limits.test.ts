import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express from 'express';
import { BULK_BODY_LIMIT_BYTES, DEFAULT_BODY_LIMIT_BYTES } from '@warmline/contracts';
import { closeServer, listen } from '@warmline/platform';
import { startGatewayFixture, type Browser, type GatewayFixture } from './gateway-fixture';

/**
 * Issue 11, Medium 9 (body sizes): JSON bodies up to 100 KB unless the route manifest gives a
 * route its own limit (the bulk purchase: 2 MB). The gateway refuses a larger body with 413
 * 'Request body is too large' for its own routes and before forwarding — a forwarded body is
 * counted as it streams, so a body without Content-Length is stopped too.
 */

let upstream: Server;
/** Every body the stand-in internal service received, by its size in bytes. */
const received: number[] = [];
let gw: GatewayFixture;
let agent: Browser;

beforeAll(async () => {
  // Stands in for the catalog (the manifest's owner of the bulk purchase) and a test route.
  const app = express();
  app.all('/api/{*rest}', async (req, res) => {
    let size = 0;
    for await (const chunk of req) size += (chunk as Buffer).length;
    received.push(size);
    res.json({ size });
  });
  upstream = await listen(app, 0, '127.0.0.1');
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  gw = await startGatewayFixture({
    env: { CATALOG_URL: upstreamUrl },
    forwardRoutes: [{ prefix: '/api/stand-in', target: upstreamUrl, audience: 'stand-in' }],
  });
  const { user, password } = await gw.createAgent();
  agent = gw.browser();
  await agent.login(user.username, password);
});

afterAll(async () => {
  await gw?.cleanup();
  if (upstream) await closeServer(upstream);
});

/** A JSON body of about `bytes` bytes. */
function jsonOf(bytes: number): string {
  return JSON.stringify({ username: 'someone', password: 'x'.repeat(Math.max(0, bytes - 40)) });
}

/** Sends `body` in chunks without a Content-Length (chunked transfer encoding). */
async function postStreamed(path: string, body: string): Promise<{ status: number; json: unknown }> {
  const bytes = new TextEncoder().encode(body);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += 16 * 1024) controller.enqueue(bytes.slice(at, at + 16 * 1024));
      controller.close();
    },
  });
  const cookie = [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(new URL(path, gw.url), {
    method: 'POST',
    body: stream,
    headers: { 'content-type': 'application/json', cookie },
    duplex: 'half',
  } as RequestInit & { duplex: 'half' });
  return { status: res.status, json: await res.json().catch(() => undefined) };
}

describe("the gateway's own routes", () => {
  it('when a JSON body is over 100 KB, then it answers 413 Request body is too large', async () => {
    const answer = await gw.browser().post('/api/login', undefined, {
      body: jsonOf(DEFAULT_BODY_LIMIT_BYTES + 10_000),
      headers: { 'content-type': 'application/json' },
    });

    expect(answer.status).toBe(413);
    expect(answer.json).toEqual({ error: 'Request body is too large' });
  });

  it('when a JSON body is under 100 KB, then it is read and judged on its content', async () => {
    const answer = await gw.browser().post('/api/login', undefined, {
      body: jsonOf(DEFAULT_BODY_LIMIT_BYTES - 10_000),
      headers: { 'content-type': 'application/json' },
    });

    expect(answer.status).not.toBe(413);
  });
});

describe('forwarded routes', () => {
  it('when a body over the default limit is declared, then the gateway answers 413 and forwards nothing', async () => {
    const before = received.length;

    const answer = await agent.post('/api/stand-in/things', undefined, {
      body: jsonOf(DEFAULT_BODY_LIMIT_BYTES + 10_000),
      headers: { 'content-type': 'application/json' },
    });

    expect(answer.status).toBe(413);
    expect(answer.json).toEqual({ error: 'Request body is too large' });
    expect(received.length).toBe(before);
  });

  it('when a body over the limit streams in without a Content-Length, then the gateway stops it with 413', async () => {
    const answer = await postStreamed('/api/stand-in/things', jsonOf(DEFAULT_BODY_LIMIT_BYTES * 3));

    expect(answer.status).toBe(413);
    expect(answer.json).toEqual({ error: 'Request body is too large' });
    for (const size of received) expect(size).toBeLessThanOrEqual(DEFAULT_BODY_LIMIT_BYTES);
  });

  it('when a bulk purchase (its own 2 MB limit in the manifest) sends 1.5 MB, then it is forwarded whole', async () => {
    const body = jsonOf(1.5 * 1024 * 1024);

    const answer = await agent.post('/api/bulk-purchase-leads', undefined, { body, headers: { 'content-type': 'application/json' } });

    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ size: Buffer.byteLength(body) });
  });

  it('when a bulk purchase is over 2 MB, then the gateway answers 413', async () => {
    const declared = await agent.post('/api/bulk-purchase-leads', undefined, {
      body: jsonOf(BULK_BODY_LIMIT_BYTES + 50_000),
      headers: { 'content-type': 'application/json' },
    });
    const streamed = await postStreamed('/api/bulk-purchase-leads', jsonOf(BULK_BODY_LIMIT_BYTES + 50_000));

    expect(declared.status).toBe(413);
    expect(streamed.status).toBe(413);
  });
});
