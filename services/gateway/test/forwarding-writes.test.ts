import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLBACK_WEBHOOK_PATH, DEFAULT_BODY_LIMIT_BYTES } from '@warmline/contracts';
import { createTestDatabase, type TestDatabase } from '@warmline/platform/testing/index';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/**
 * How a vendor's call crosses the gateway (issue 27: every socket write of a call is dear, and so
 * is every new connection): a call reaches the service with its headers and body in one write, on
 * a connection kept from the calls before; the service's answer reaches the vendor in one write;
 * a body is streamed as it comes, never held, and a body over the route's limit is still refused
 * with 413 before anything is forwarded. The stand-in ingestion service is a bare TCP server, so
 * it sees each read as the gateway wrote it.
 */

interface Arrival {
  /** The socket reads that carried the request, headers and body. */
  reads: string[];
  head: string;
  body: string;
}

/** Every request that reached the stand-in, complete. */
const arrivals: Arrival[] = [];
/** Called as soon as a request's headers have arrived, before its body is complete. */
let onHeaders: ((head: string) => void) | undefined;
/** What the stand-in answers: a Content-Length body, or these chunks with chunked encoding. */
let answerChunks: string[] | undefined;
const ANSWER = JSON.stringify({ success: true, message: 'Callback received', callback_id: randomUUID() });

let standIn: net.Server;
/** Connections the stand-in has accepted. */
let accepted = 0;
let db: TestDatabase;
let gw: GatewayFixture;

/** A Content-Length body once all of it is there. */
function fixedLength(head: string, rest: string): { body: string; used: number } | undefined {
  const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
  return rest.length < length ? undefined : { body: rest.slice(0, length), used: length };
}

/** A chunked body once its last chunk is there. */
function dechunk(rest: string): { body: string; used: number } | undefined {
  let body = '';
  let at = 0;
  for (;;) {
    const line = rest.indexOf('\r\n', at);
    if (line < 0) return undefined;
    const size = parseInt(rest.slice(at, line), 16);
    if (size === 0) return rest.length < line + 4 ? undefined : { body, used: line + 4 };
    if (rest.length < line + 2 + size + 2) return undefined;
    body += rest.slice(line + 2, line + 2 + size);
    at = line + 2 + size + 2;
  }
}

/** A minimal HTTP/1.1 service: keep-alive, Content-Length or chunked bodies. */
function serveRaw(socket: net.Socket): void {
  let buffered = '';
  let reads: string[] = [];
  let headersSeen = false;
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    reads.push(chunk);
    for (;;) {
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffered.slice(0, end);
      if (!headersSeen) {
        headersSeen = true;
        onHeaders?.(head);
      }
      const body = /\r\ntransfer-encoding: *chunked/i.test(head) ? dechunk(buffered.slice(end + 4)) : fixedLength(head, buffered.slice(end + 4));
      if (!body) return;
      arrivals.push({ reads, head, body: body.body });
      buffered = buffered.slice(end + 4 + body.used);
      reads = [];
      headersSeen = false;
      if (answerChunks) {
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
        for (const part of answerChunks) socket.write(`${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n`);
        socket.write('0\r\n\r\n');
      } else {
        socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nCache-Control: no-store\r\nContent-Length: ${Buffer.byteLength(ANSWER)}\r\n\r\n${ANSWER}`);
      }
    }
  });
  socket.on('error', () => socket.destroy());
}

beforeAll(async () => {
  standIn = net.createServer((socket) => {
    accepted += 1;
    serveRaw(socket);
  });
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  db = await createTestDatabase('wl_gateway_forward_writes');
  gw = await startGatewayFixture({
    db,
    env: { INGESTION_URL: `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`, VENDOR_WEBHOOK_CALLS_PER_MINUTE: '1000000' },
  });
}, 60_000);

afterAll(async () => {
  await gw?.cleanup();
  await db?.drop();
  await new Promise<void>((resolve) => (standIn ? standIn.close(() => resolve()) : resolve()));
});

/** A vendor's raw HTTP call on its own connection; `rest` is sent only once `before()` resolves. */
async function rawCall(options: { headers: string; body: string; rest?: { before: () => Promise<unknown>; body: string } }): Promise<{ reads: string[]; text: string }> {
  const gateway = new URL(gw.url);
  const socket = net.connect(Number(gateway.port), gateway.hostname);
  socket.setEncoding('latin1');
  const reads: string[] = [];
  const done = new Promise<void>((resolve, reject) => {
    socket.on('data', (chunk: string) => {
      reads.push(chunk);
      const text = reads.join('');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1];
      const complete = length !== undefined ? text.length >= end + 4 + Number(length) : /\r\n0\r\n\r\n$/.test(text);
      if (complete) resolve();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve());
  });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(`${options.headers}\r\n\r\n${options.body}`);
  if (options.rest) {
    await options.rest.before();
    socket.write(options.rest.body);
  }
  await done;
  socket.destroy();
  return { reads, text: reads.join('') };
}

const key = () => `wlv_${randomBytes(24).toString('base64url')}`;
const headersOf = (length: number, extra = '') =>
  `POST ${CALLBACK_WEBHOOK_PATH} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nX-API-Key: ${key()}\r\nContent-Length: ${length}${extra}`;
const callOf = (bytes: number) => JSON.stringify({ first_name: 'Maria', last_name: 'Lopez', transcript: 'x'.repeat(Math.max(0, bytes - 50)) });

describe("a vendor's call", () => {
  it('when it is posted, then the service receives its headers and body in one write and the vendor receives the answer, headers and body, in one write', async () => {
    const body = callOf(800);
    arrivals.length = 0;

    const { reads, text } = await rawCall({ headers: headersOf(Buffer.byteLength(body)), body });

    expect(arrivals).toHaveLength(1);
    expect(arrivals[0]!.body).toBe(body);
    expect(arrivals[0]!.reads).toHaveLength(1);
    expect(text.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    expect(text.endsWith(`\r\n\r\n${ANSWER}`)).toBe(true);
    expect(text).toMatch(/\r\ncache-control: no-store\r\n/i);
    expect(reads).toHaveLength(1);
  });

  it('when calls follow one another, then they reuse the connection to the service: at most one is opened for five calls', async () => {
    const before = accepted;

    for (let n = 0; n < 5; n += 1) {
      const body = callOf(300);
      const { text } = await rawCall({ headers: headersOf(Buffer.byteLength(body)), body });
      expect(text.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    }

    expect(accepted - before).toBeLessThanOrEqual(1);
  });

  it("when a vendor calls again after 6 s of quiet (Node's global agent closed idle connections after 5 s), then the call reuses the connection", async () => {
    const first = callOf(300);
    await rawCall({ headers: headersOf(Buffer.byteLength(first)), body: first });
    const before = accepted;

    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const again = callOf(300);
    const { text } = await rawCall({ headers: headersOf(Buffer.byteLength(again)), body: again });

    expect(text.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    expect(accepted).toBe(before);
  }, 20_000);
});

describe('a body is streamed, and so is a chunked answer', () => {
  it("when a body of 80 KB (within the route's limit) comes in parts, then it is streamed: the service has its headers before the vendor has sent all of it", async () => {
    const body = callOf(80_000);
    expect(Buffer.byteLength(body)).toBeLessThan(DEFAULT_BODY_LIMIT_BYTES);
    arrivals.length = 0;
    const headersReached = new Promise((resolve) => (onHeaders = resolve));

    const { text } = await rawCall({ headers: headersOf(Buffer.byteLength(body)), body: body.slice(0, 1_000), rest: { before: () => headersReached, body: body.slice(1_000) } });
    onHeaders = undefined;

    expect(text.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    expect(arrivals).toHaveLength(1);
    expect(arrivals[0]!.body).toBe(body);
  });

  it('when the body is chunked, then it is streamed and reaches the service whole', async () => {
    const body = callOf(3_000);
    arrivals.length = 0;
    const headersReached = new Promise((resolve) => (onHeaders = resolve));
    const chunk = (part: string) => `${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n`;

    const { text } = await rawCall({
      headers: `POST ${CALLBACK_WEBHOOK_PATH} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nX-API-Key: ${key()}\r\nTransfer-Encoding: chunked`,
      body: chunk(body.slice(0, 1_000)),
      rest: { before: () => headersReached, body: `${chunk(body.slice(1_000))}0\r\n\r\n` },
    });
    onHeaders = undefined;

    expect(text.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    expect(arrivals).toHaveLength(1);
    expect(arrivals[0]!.head).toMatch(/\r\ntransfer-encoding: chunked/i);
    expect(arrivals[0]!.body).toBe(body);
  });

  it("when the service's answer is chunked, then the vendor receives every chunk of it", async () => {
    answerChunks = ['{"success":true,', '"message":"Callback received"}'];
    const body = callOf(500);

    const { text } = await rawCall({ headers: headersOf(Buffer.byteLength(body)), body });
    answerChunks = undefined;

    expect(text.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    expect(text).toMatch(/\r\ntransfer-encoding: chunked\r\n/i);
    expect(text).toContain('"message":"Callback received"}');
  });
});

describe('the refusals stay', () => {
  it("when the declared body is over the route's limit, then the vendor gets 413 in the webhook's shape and nothing is forwarded", async () => {
    arrivals.length = 0;

    const { text } = await rawCall({ headers: headersOf(DEFAULT_BODY_LIMIT_BYTES + 1), body: 'x'.repeat(1_000) });

    expect(text.startsWith('HTTP/1.1 413 ')).toBe(true);
    expect(text).toContain('"success":false');
    expect(arrivals).toHaveLength(0);
  });
});
