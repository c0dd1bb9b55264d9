import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp, serve } from '../src/http/app';
import { forwardedAsker, IDENTITY_HEADER, identityCheck } from '../src/http/identity';
import { notFound } from '../src/errors';
import { manifestRoutes } from '../src/http/manifest-routes';
import { servedRoutes } from '../src/http/served-routes';
import { ShutdownStack } from '../src/lifecycle';
import { createLogger } from '../src/log';
import { signTestIdentity, TEST_KEYS } from '../src/testing/index';
import type { Identity } from '../src/identity';

/**
 * The route kit (issue 26 item 1): a manifest entry mounted with its handler is checked as the
 * manifest says before the handler runs. Real manifest entries (the partners' and the catalog's)
 * with handlers that echo what they were given.
 */

const log = createLogger('manifest-routes-test', 'silent');
const stops = new ShutdownStack(log, 'the test server');
const AUDIENCE = 'manifest-kit-test';
const APPLICATION = '3F0C1B9E-7A59-4C4F-9A6C-2B1D5E8F0A11';
let base: string;
/** What each handler was given. */
const seen: Array<{ caller: unknown; params: unknown; body: unknown; query: unknown }> = [];

beforeAll(async () => {
  const partners = manifestRoutes('partners', forwardedAsker)
    .on('GET /api/affnetwork-signups', ({ query, caller, params, body }) => {
      seen.push({ caller, params, body, query });
      return { page: query.page };
    })
    .on('PATCH /api/affnetwork-signups/{id}/status', ({ caller, params, body, query }) => {
      seen.push({ caller, params, body, query });
      return { id: params.id, status: body.status, by: caller.username };
    })
    .on('POST /api/affnetwork-signup', ({ caller, res }) => {
      res.status(201);
      return { anonymous: caller.userId === null };
    });
  // Mounted in this order on purpose: the template first, the literal path after it.
  const imports = manifestRoutes('catalog', forwardedAsker)
    .on('GET /api/admin/lead-imports/{id}', ({ params }) => ({ import: params.id }))
    .on('GET /api/admin/lead-imports/template.csv', ({ res }) => {
      res.type('text/csv').send('phone\n');
    })
    // What the path names is looked up before the body is read: an unknown one is 404 whatever the body.
    .onFound(
      'POST /api/admin/lead-returns/{id}',
      async ({ params }) => {
        if (params.id !== APPLICATION.toLowerCase()) throw notFound('Return not found');
        return { lead: 'Jane Smith' };
      },
      ({ found, body }) => ({ lead: found.lead, decision: body.decision }),
    );
  const app = createHttpApp({
    service: 'manifest-kit-test',
    log,
    identity: identityCheck(TEST_KEYS, AUDIENCE),
    mount: (a) => {
      a.use(partners.router);
      a.use(imports.router);
    },
  });
  base = await serve(app, 0, stops, '127.0.0.1');
});

afterAll(() => stops.stop());

const ADMIN: Identity = { userId: '9d3c1b9e-7a59-4c4f-9a6c-2b1d5e8f0a11', username: 'ada', isAdmin: true };
const AGENT: Identity = { userId: '5e0c1b9e-7a59-4c4f-9a6c-2b1d5e8f0a11', username: 'ann', isAdmin: false };
const ANONYMOUS: Identity = { userId: null, username: null, isAdmin: false };

async function call(method: string, path: string, who: Identity, body?: unknown) {
  const answer = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', [IDENTITY_HEADER]: signTestIdentity(AUDIENCE, who) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  return { status: answer.status, body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : text };
}

describe('a manifest route mounted by the kit', () => {
  it('when an admin route is called anonymously or by an agent, then it answers 401 and 403 before the handler runs', async () => {
    seen.length = 0;
    expect(await call('GET', '/api/affnetwork-signups', ANONYMOUS)).toEqual({ status: 401, body: { error: 'Not authenticated' } });
    expect(await call('GET', '/api/affnetwork-signups', AGENT)).toEqual({ status: 403, body: { error: 'Admin access required' } });
    expect(seen).toEqual([]);
  });

  it("when an admin calls it, then the handler gets the admin and the query parsed with the entry's schema", async () => {
    seen.length = 0;
    expect(await call('GET', '/api/affnetwork-signups?page=2', ADMIN)).toEqual({ status: 200, body: { page: 2 } });
    expect(seen).toEqual([{ caller: { userId: ADMIN.userId, username: 'ada' }, params: {}, body: undefined, query: expect.objectContaining({ page: 2 }) }]);
  });

  it("when the path's id is not a UUID, then it answers 404 with the entry's own words, and the handler never runs", async () => {
    seen.length = 0;
    const answer = await call('PATCH', '/api/affnetwork-signups/42/status', ADMIN, { status: 'approved' });
    expect(answer).toEqual({ status: 404, body: { error: 'Application not found' } });
    expect(seen).toEqual([]);
  });

  it('when the id is a UUID in capitals, then the handler gets it in lower case with the parsed body', async () => {
    const answer = await call('PATCH', `/api/affnetwork-signups/${APPLICATION}/status`, ADMIN, { status: 'approved' });
    expect(answer).toEqual({ status: 200, body: { id: APPLICATION.toLowerCase(), status: 'approved', by: 'ada' } });
  });

  it("when the body breaks the entry's schema, then it answers 400 with the schema's message", async () => {
    const answer = await call('PATCH', `/api/affnetwork-signups/${APPLICATION}/status`, ADMIN, { status: 'maybe' });
    expect(answer.status).toBe(400);
    expect(String((answer.body as { error: string }).error)).toMatch(/status/i);
  });

  it('when an anonymous route is called without a session, then the handler gets the anonymous identity and sets its own status', async () => {
    expect(await call('POST', '/api/affnetwork-signup', ANONYMOUS, {})).toEqual({ status: 201, body: { anonymous: true } });
  });

  it('when a literal path was mounted after a template that also matches it, then the literal route answers', async () => {
    expect(await call('GET', '/api/admin/lead-imports/template.csv', ADMIN)).toEqual({ status: 200, body: 'phone\n' });
    expect(await call('GET', '/api/admin/lead-imports/not-an-id', ADMIN)).toEqual({ status: 404, body: { error: 'Import not found' } });
  });

  it('when a route looks up what its path names, then an unknown one is 404 before the body is read, and a known one reaches the handler', async () => {
    const unknown = '/api/admin/lead-returns/5e0c1b9e-7a59-4c4f-9a6c-2b1d5e8f0a11';
    expect(await call('POST', unknown, ADMIN, { decision: 'maybe' })).toEqual({ status: 404, body: { error: 'Return not found' } });
    expect((await call('POST', `/api/admin/lead-returns/${APPLICATION}`, ADMIN, { decision: 'maybe' })).status).toBe(400);
    expect(await call('POST', `/api/admin/lead-returns/${APPLICATION}`, ADMIN, { decision: 'accept' })).toEqual({ status: 200, body: { lead: 'Jane Smith', decision: 'accept' } });
  });

  it("when a service mounts a route of another service's or one the manifest does not list, then it fails at start", () => {
    const orders = manifestRoutes('orders', forwardedAsker);
    // @ts-expect-error: not a route of orders
    expect(() => orders.on('GET /api/affnetwork-signups', () => null)).toThrow('GET /api/affnetwork-signups is not a route of orders in the route manifest');
    // @ts-expect-error: not in the manifest at all
    expect(() => orders.on('GET /api/everything', () => null)).toThrow('GET /api/everything is not a route of orders in the route manifest');
  });

  it('when the served routes are listed, then the routes the kit mounted say so', () => {
    const mine = servedRoutes().filter((r) => r.service === 'manifest-kit-test' && r.path.startsWith('/api/'));
    expect(mine).toContainEqual({ service: 'manifest-kit-test', method: 'PATCH', path: '/api/affnetwork-signups/:id/status', fromManifest: true });
    expect(mine.every((r) => r.fromManifest)).toBe(true);
  });
});
