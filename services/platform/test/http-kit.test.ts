import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHttpApp, closeServer, listen } from '../src/http/app';
import { parseInput } from '../src/validation';
import { IDENTITY_HEADER, identityCheck } from '../src/http/identity';
import { badRequest } from '../src/errors';
import { createLogger } from '../src/log';
import { signTestIdentity, TEST_KEYS } from '../src/testing/index';

const logLines: string[] = [];
const log = createLogger('kit-test', 'info', new Writable({
  write(chunk, _enc, done) {
    logLines.push(String(chunk));
    done();
  },
}));

const widgetBody = z.object({ name: z.string().min(1, 'Name is required'), size: z.number({ error: 'Size must be a number' }) });

let server: Server;
let base: string;
let dependencyUp = true;

beforeAll(async () => {
  const app = createHttpApp({
    service: 'kit-test',
    log,
    identity: identityCheck(TEST_KEYS, 'kit-test'),
    readiness: [['postgres', async () => { if (!dependencyUp) throw new Error('connection refused'); }]],
    mount: (a) => {
      a.post('/api/widgets', (req, res) => {
        const body = parseInput(widgetBody, req.body);
        res.status(201).json({ created: body.name, by: req.identity?.username });
      });
      a.get('/api/explode', () => {
        throw new Error('secret internals at /srv/app.ts:42');
      });
      a.get('/api/refuse', () => {
        throw badRequest('That will not do');
      });
      a.post('/api/login-echo', (req, res) => {
        req.log.info({ password: req.body.password, token: 'abc' }, 'body seen');
        res.json({ ok: true });
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

const identity = () => ({ [IDENTITY_HEADER]: signTestIdentity('kit-test', { userId: '3f0c1b9e-7a59-4c4f-9a6c-2b1d5e8f0a11', username: 'ann', isAdmin: false }) });
const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(base + path, { method: 'POST', body, headers: { 'content-type': 'application/json', ...identity(), ...headers } });

describe('the HTTP kit', () => {
  it('when a body breaks its schema, then the answer is 400 with the first message and every issue', async () => {
    const res = await post('/api/widgets', JSON.stringify({ name: '', size: 'big' }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'Name is required',
      issues: [
        { path: 'name', message: 'Name is required' },
        { path: 'size', message: 'Size must be a number' },
      ],
    });
  });

  it('when the body is not JSON, then the answer is 400, not 500', async () => {
    const res = await post('/api/widgets', '{"name":');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('Request body is not valid JSON');
  });

  it('when a body is valid, then the route sees it and the forwarded identity', async () => {
    const res = await post('/api/widgets', JSON.stringify({ name: 'w', size: 2 }));
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ created: 'w', by: 'ann' });
  });

  it('when no identity is forwarded, then an internal /api route refuses with 401', async () => {
    const res = await fetch(`${base}/api/widgets`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(401);
  });

  it('when a route is unknown, then the answer is 404 JSON', async () => {
    const res = await fetch(`${base}/nowhere`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Not found: GET /nowhere' });
  });

  it('when a route fails unexpectedly, then the answer is 500 with the request id and no internals', async () => {
    const res = await fetch(`${base}/api/explode`, { headers: { ...identity(), 'x-request-id': 'req-abc-123' } });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: 'Internal server error', requestId: 'req-abc-123' });
    expect(text).not.toContain('/srv/app.ts');
    expect(res.headers.get('x-request-id')).toBe('req-abc-123');
  });

  it('when domain code refuses, then its message and status reach the user', async () => {
    const res = await fetch(`${base}/api/refuse`, { headers: identity() });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'That will not do' });
  });

  it('when no request id is given, then one is created and returned', async () => {
    const res = await fetch(`${base}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('when a dependency is down, then /readyz answers 503 naming it, and 200 once it is back', async () => {
    dependencyUp = false;
    const down = await fetch(`${base}/readyz`);
    expect(down.status).toBe(503);
    expect(((await down.json()) as { checks: Record<string, string> }).checks.postgres).toBe('down: connection refused');
    dependencyUp = true;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });

  it('when /metrics is scraped, then request durations are exported', async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toContain('http_request_duration_seconds_bucket');
    expect(text).toContain('service="kit-test"');
  });

  it('when a password or token is logged, then the log line carries neither', async () => {
    await post('/api/login-echo', JSON.stringify({ password: 'hunter2-secret' }), { cookie: 'warmline.sid=s%3Asecretcookie' });
    const all = logLines.join('');
    expect(all).toContain('body seen');
    expect(all).not.toContain('hunter2-secret');
    expect(all).not.toContain('secretcookie');
  });
});
