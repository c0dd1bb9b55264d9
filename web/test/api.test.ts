import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, apiRequest, errorMessage } from '../src/lib/api';

/**
 * The fetch helper against a real local HTTP server: what it sends, and the error messages
 * spec §8 asks for (`status: body text`, or the status text when the body is empty).
 */
interface Seen {
  method: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let base: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', headers: req.headers, body });
      const url = new URL(req.url ?? '/', 'http://x');
      switch (url.pathname) {
        case '/json':
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, echo: body }));
          return;
        case '/no-content':
          res.writeHead(204).end();
          return;
        case '/invalid-credentials':
          res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Invalid credentials' }));
          return;
        case '/plain-error':
          res.writeHead(500, 'Internal Server Error', { 'content-type': 'text/plain' }).end('database is down');
          return;
        case '/empty-error':
          res.writeHead(503, 'Service Unavailable').end();
          return;
        default:
          res.writeHead(404, 'Not Found').end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('the fetch helper', () => {
  it('when a call succeeds, then it answers the parsed JSON and sent the CSRF header', async () => {
    const answer = await apiRequest<{ ok: boolean }>(`${base}/json`);
    expect(answer).toEqual({ ok: true, echo: '' });
    const request = seen.at(-1)!;
    expect(request.method).toBe('GET');
    expect(request.headers['x-requested-with']).toBe('XMLHttpRequest');
  });

  it('when a body is given, then it is sent as JSON with a JSON content type', async () => {
    const answer = await apiRequest<{ echo: string }>(`${base}/json`, { method: 'POST', body: { username: 'amy' } });
    expect(JSON.parse(answer.echo)).toEqual({ username: 'amy' });
    const request = seen.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-requested-with']).toBe('XMLHttpRequest');
  });

  it('when the answer has no body, then it resolves without a value', async () => {
    await expect(apiRequest(`${base}/no-content`, { method: 'DELETE' })).resolves.toBeUndefined();
  });

  it('when the server answers an error with a body, then the message is "status: body text"', async () => {
    await expect(apiRequest(`${base}/plain-error`)).rejects.toThrow(/^500: database is down$/);
    const error = await apiRequest(`${base}/invalid-credentials`, { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('401: {"error":"Invalid credentials"}');
    expect((error as ApiError).status).toBe(401);
    expect(errorMessage(error, 'fallback')).toBe('Invalid credentials');
  });

  it('when the server answers an error with an empty body, then the message is "status: status text"', async () => {
    await expect(apiRequest(`${base}/empty-error`)).rejects.toThrow(/^503: Service Unavailable$/);
    const error = await apiRequest(`${base}/empty-error`).catch((e: unknown) => e);
    expect(errorMessage(error, 'Something went wrong')).toBe('Something went wrong');
  });

  it('when asked to, then a 401 answer yields null instead of an error', async () => {
    await expect(apiRequest(`${base}/invalid-credentials`, { on401: 'returnNull' })).resolves.toBeNull();
    // Other failures still throw.
    await expect(apiRequest(`${base}/missing`, { on401: 'returnNull' })).rejects.toThrow(/^404: Not Found$/);
  });
});
