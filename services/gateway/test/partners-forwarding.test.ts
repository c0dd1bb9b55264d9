import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express from 'express';
import { DEFAULT_BODY_LIMIT_BYTES, PARTNER_APPLICATION_MAX_BYTES, PARTNER_RATE_LIMIT_MESSAGE } from '@warmline/contracts';
import { closeServer, IDENTITY_HEADER, identityCheck, listen, verifyIdentity } from '@warmline/platform';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/**
 * The partner network through the gateway (issue 14): the manifest's five partners routes go to
 * PARTNERS_URL, an application's multipart body streamed untouched (its limit is the manifest's
 * ~50 MB, not the default 100 KB), and one address may apply at most 5 times an hour, counted in
 * the gateway's Redis before anything is forwarded. A stand-in partners service records what
 * reaches it and answers 201, or the status a test asks for in `x-stand-in-status`.
 */

interface Reached {
  method: string;
  path: string;
  contentType: string | undefined;
  sha256: string;
  size: number;
  identity: string | undefined;
  forwardedFor: string | undefined;
}

let partners: Server;
const reached: Reached[] = [];
let gw: GatewayFixture;

beforeAll(async () => {
  const app = express();
  app.all('/api/{*rest}', async (req, res) => {
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of req) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    reached.push({
      method: req.method,
      path: req.originalUrl,
      contentType: req.headers['content-type'],
      sha256: hash.digest('hex'),
      size,
      identity: req.headers[IDENTITY_HEADER] as string | undefined,
      forwardedFor: req.headers['x-forwarded-for'] as string | undefined,
    });
    const status = Number(req.headers['x-stand-in-status'] ?? (req.method === 'POST' ? 201 : 200));
    res.status(status).json(status === 201 ? { message: 'Application submitted!', id: randomUUID() } : { error: `stand-in ${status}` });
  });
  partners = await listen(app, 0, '127.0.0.1');
  gw = await startGatewayFixture({ env: { PARTNERS_URL: `http://127.0.0.1:${(partners.address() as AddressInfo).port}` } });
});

afterAll(async () => {
  await gw?.cleanup();
  if (partners) await closeServer(partners);
});

/** A documentation address no other test uses (TEST-NET-2/3), so each test has its own count. */
let nextHost = 1;
const freshIp = () => `198.51.100.${nextHost++}`;

/** A multipart application: the form's text fields and one document of `documentBytes` random bytes. */
function multipart(documentBytes = 2048): { body: Buffer; contentType: string } {
  const boundary = `----warmline${randomBytes(8).toString('hex')}`;
  const part = (headers: string, content: Buffer | string) =>
    Buffer.concat([Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`), Buffer.from(content), Buffer.from('\r\n')]);
  const body = Buffer.concat([
    part('Content-Disposition: form-data; name="businessName"', 'Lane Lead Co — «Ünïcode»'),
    part('Content-Disposition: form-data; name="servicesInterested"', JSON.stringify(['Aged Leads', 'Call Transfers'])),
    part('Content-Disposition: form-data; name="agreeToTerms"', 'true'),
    // Every byte value, CRLFs and NULs included: a body re-encoded on the way would not hash the same.
    part('Content-Disposition: form-data; name="file_0"; filename="licence.pdf"\r\nContent-Type: application/pdf', randomBytes(documentBytes)),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function apply(ip: string, options: { status?: number; documentBytes?: number } = {}) {
  const { body, contentType } = multipart(options.documentBytes);
  const headers: Record<string, string> = { 'content-type': contentType, 'x-requested-with': 'XMLHttpRequest', 'x-forwarded-for': ip };
  if (options.status) headers['x-stand-in-status'] = String(options.status);
  const res = await fetch(`${gw.url}/api/affnetwork-signup`, { method: 'POST', headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined, sent: body, contentType };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('forwarding the partners routes', () => {
  it('when a visitor applies with a multipart body bigger than the default limit, then it reaches the partners service byte for byte, anonymously', async () => {
    const before = reached.length;
    const answer = await apply(freshIp(), { documentBytes: 3 * 1024 * 1024 });

    expect(answer.status).toBe(201);
    expect(answer.sent.length).toBeGreaterThan(DEFAULT_BODY_LIMIT_BYTES);
    expect(reached.slice(before)).toHaveLength(1);
    const arrived = reached.at(-1)!;
    expect(arrived).toMatchObject({ method: 'POST', path: '/api/affnetwork-signup', contentType: answer.contentType, size: answer.sent.length });
    expect(arrived.sha256).toBe(sha256(answer.sent));
    expect(verifyIdentity(identityCheck(gw.config, 'partners'), arrived.identity!)).toMatchObject({ userId: null });
  });

  it('when a body says it is larger than the manifest allows, then it is refused with 413 and never forwarded', async () => {
    const before = reached.length;
    // Declares one byte over the limit and sends only the start: the gateway answers on the header.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${gw.url}/api/affnetwork-signup`, {
        method: 'POST',
        headers: {
          'content-type': 'multipart/form-data; boundary=x',
          'x-requested-with': 'XMLHttpRequest',
          'x-forwarded-for': freshIp(),
          'content-length': String(PARTNER_APPLICATION_MAX_BYTES + 1),
        },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', reject);
      req.write(Buffer.alloc(64 * 1024));
    });

    expect(status).toBe(413);
    expect(reached.length).toBe(before);
  });

  it("when an admin lists, moves, deletes or downloads applications, then each reaches the partners service with the admin's identity; nobody else gets through", async () => {
    const admin = gw.browser();
    await admin.login(gw.admin.username, gw.admin.password);
    const id = randomUUID();
    const before = reached.length;

    expect((await admin.get('/api/affnetwork-signups?status=pending&page=2')).status).toBe(200);
    expect((await admin.patch(`/api/affnetwork-signups/${id}/status`, { status: 'approved' })).status).toBe(200);
    expect((await admin.delete(`/api/affnetwork-signups/${id}`)).status).toBe(200);
    expect((await admin.get(`/api/affnetwork-signups/${id}/documents/doc-1.pdf`)).status).toBe(200);

    expect(reached.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/affnetwork-signups?status=pending&page=2',
      `PATCH /api/affnetwork-signups/${id}/status`,
      `DELETE /api/affnetwork-signups/${id}`,
      `GET /api/affnetwork-signups/${id}/documents/doc-1.pdf`,
    ]);
    for (const r of reached.slice(before)) expect(verifyIdentity(identityCheck(gw.config, 'partners'), r.identity!)).toMatchObject({ isAdmin: true });

    const { user, password } = await gw.createAgent();
    const agent = gw.browser();
    await agent.login(user.username, password);
    expect((await agent.get('/api/affnetwork-signups')).status).toBe(403);
    expect((await gw.browser().get('/api/affnetwork-signups')).status).toBe(401);
    expect(reached.length).toBe(before + 4);
  });
});

describe('at most 5 partner applications an hour per address', () => {
  it('when one address applies a 6th time within the hour, then it is refused with 429, the message and Retry-After, and never forwarded; another address still applies', async () => {
    const ip = freshIp();
    const before = reached.length;

    const answers = [];
    for (let i = 0; i < 6; i += 1) answers.push(await apply(ip));

    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201, 429]);
    const refused = answers[5]!;
    expect(refused.json).toEqual({ error: PARTNER_RATE_LIMIT_MESSAGE });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(reached.length - before).toBe(5);
    // The service saw the client's address as the gateway counted it.
    expect(reached.at(-1)!.forwardedFor).toBe(ip);

    expect((await apply(freshIp())).status).toBe(201);
    // Still refused: a refusal does not free a place.
    expect((await apply(ip)).status).toBe(429);
  });

  it('when 15 applications of one address arrive at once, then exactly 5 are forwarded', async () => {
    const ip = freshIp();
    const before = reached.length;

    const answers = await Promise.all(Array.from({ length: 15 }, () => apply(ip)));

    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(10);
    expect(reached.length - before).toBe(5);
  });

  it('when the partners service refuses an application (400) or is unavailable (503), then it does not count, so the applicant can fix it and send again', async () => {
    const ip = freshIp();
    expect((await apply(ip, { status: 400 })).status).toBe(400);
    expect((await apply(ip, { status: 400 })).status).toBe(400);
    expect((await apply(ip, { status: 503 })).status).toBe(503);

    const answers = [];
    for (let i = 0; i < 6; i += 1) answers.push((await apply(ip)).status);
    expect(answers).toEqual([201, 201, 201, 201, 201, 429]);
  });

  it('when one address keeps sending refused applications, then after 20 attempts in the hour it is refused with 429 too', async () => {
    const ip = freshIp();
    const before = reached.length;
    const answers = [];
    for (let i = 0; i < 21; i += 1) answers.push(await apply(ip, { status: 400 }));

    expect(answers.slice(0, 20).every((a) => a.status === 400)).toBe(true);
    expect(answers[20]!.status).toBe(429);
    expect(answers[20]!.json).toEqual({ error: PARTNER_RATE_LIMIT_MESSAGE });
    expect(reached.length - before).toBe(20);
  });

  it('when an admin lists applications many times, then only applications are counted', async () => {
    const admin = gw.browser({ ip: '203.0.113.77' });
    await admin.login(gw.admin.username, gw.admin.password);
    for (let i = 0; i < 8; i += 1) expect((await admin.get('/api/affnetwork-signups')).status).toBe(200);
    expect((await apply('203.0.113.77')).status).toBe(201);
  });
});
