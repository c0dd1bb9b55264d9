import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicRoutes, routePattern, type PublicRoute } from '@warmline/contracts';
import { ANONYMOUS, IDENTITY_HEADER } from '@warmline/platform';
import { servedRoutes, type ServedRoute } from '@warmline/platform/http/served-routes';
import { signTestIdentity } from '@warmline/platform/testing/index';
import { ApiClient, errorOf } from './api-client';
import { startApiSystem, type ApiSystem } from './api-system';

/**
 * The route manifest (services/contracts/src/routes.ts) held against the running system
 * (issue 11): what the services serve is what the manifest lists, and every protected route
 * refuses whoever may not call it — the gateway's own routes and the forwarded ones alike.
 */

let system: ApiSystem;
let customer: ApiClient;
let admin: ApiClient;

beforeAll(async () => {
  system = await startApiSystem();
  customer = new ApiClient(system.url);
  await customer.login(system.customer.username, system.customer.password);
  admin = new ApiClient(system.url);
  await admin.login(system.admin.username, system.admin.password);
});

afterAll(async () => {
  await system?.stop();
});

/** A path of the route with its parameters filled: a made-up id, or the demo salesperson. */
function samplePath(route: Pick<PublicRoute, 'path'>, slug: string): string {
  return route.path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => (/id$/i.test(name) ? randomUUID() : slug));
}

const label = (route: PublicRoute) => `${route.method} ${route.path}`;
const hasBody = (route: PublicRoute) => route.method !== 'GET' && route.method !== 'DELETE';

describe('the role matrix, from the route manifest', () => {
  const protectedRoutes = publicRoutes.filter((route) => route.access === 'customer' || route.access === 'admin');

  it('when the manifest is read, then it has customer and admin routes, forwarded and the gateway’s own', () => {
    expect(protectedRoutes.filter((r) => r.access === 'admin').map((r) => r.owner)).toEqual(expect.arrayContaining(['gateway', 'orders']));
    expect(protectedRoutes.filter((r) => r.access === 'customer').map((r) => r.owner)).toEqual(
      expect.arrayContaining(['gateway', 'catalog', 'orders']),
    );
  });

  for (const route of protectedRoutes) {
    const who = route.access === 'admin' ? 'an admin' : 'a logged-in user';
    it(`when ${label(route)} (${route.owner}, for ${who}) is called anonymously, then it answers 401 Not authenticated`, async () => {
      const answer = await new ApiClient(system.url).call(route.method, samplePath(route, system.salespersonSlug), hasBody(route) ? {} : undefined);
      expect(answer.status, answer.text).toBe(401);
      expect(errorOf(answer)).toBe('Not authenticated');
    });

    if (route.access === 'admin') {
      it(`when ${label(route)} (${route.owner}) is called by a customer, then it answers 403 Admin access required`, async () => {
        const answer = await customer.call(route.method, samplePath(route, system.salespersonSlug), hasBody(route) ? {} : undefined);
        expect(answer.status, answer.text).toBe(403);
        expect(errorOf(answer)).toBe('Admin access required');
      });
    }

    // The same call by someone allowed is not refused for who they are (a bad body or unknown id may still be).
    it(`when ${label(route)} is called by ${who}, then it is not refused as unauthenticated or forbidden`, async () => {
      const caller = route.access === 'admin' ? admin : customer;
      const answer = await caller.call(route.method, samplePath(route, system.salespersonSlug), hasBody(route) ? {} : undefined);
      expect([401, 403], `${answer.status} ${answer.text}`).not.toContain(answer.status);
      expect(answer.status, answer.text).toBeLessThan(500);
    });
  }

  // Defence in depth: an internal service checks the signed identity itself, whatever the gateway did.
  for (const route of protectedRoutes.filter((r) => r.owner !== 'gateway')) {
    it(`when ${label(route)} reaches ${route.owner} directly with an anonymous${route.access === 'admin' ? ' or a customer’s' : ''} signed identity, then ${route.owner} refuses it`, async () => {
      const base = { catalog: system.catalogUrl, orders: system.ordersUrl, partners: system.partnersUrl, ingestion: system.ingestionUrl, transfers: system.transfersUrl }[
        route.owner as 'catalog' | 'orders' | 'partners' | 'ingestion' | 'transfers'
      ];
      const direct = new ApiClient(base);
      const path = samplePath(route, system.salespersonSlug);
      const asAnonymous = await direct.call(route.method, path, hasBody(route) ? {} : undefined, {
        [IDENTITY_HEADER]: signTestIdentity(route.owner, ANONYMOUS),
      });
      expect(asAnonymous.status, asAnonymous.text).toBe(401);
      if (route.access === 'admin') {
        const asCustomer = await direct.call(route.method, path, hasBody(route) ? {} : undefined, {
          [IDENTITY_HEADER]: signTestIdentity(route.owner, { userId: randomUUID(), username: 'someone', isAdmin: false }),
        });
        expect(asCustomer.status, asCustomer.text).toBe(403);
      }
    });
  }
});

/** A served route as the manifest would write it: ':id' → '{}'; a pattern route stays a pattern. */
function servedMatches(served: ServedRoute, route: PublicRoute, slug: string): boolean {
  if (served.method !== route.method) return false;
  if (served.path.startsWith('^')) {
    // A pattern route (the referral survey's '/api/<slug>-survey'): the same paths match both.
    const pattern = new RegExp(served.path);
    const sample = route.path.replace(/\{([A-Za-z]+)\}/g, slug);
    return route.path.includes('{') && pattern.test(sample) && routePattern(route).test(sample);
  }
  return served.path.replace(/:[A-Za-z]+/g, '{}') === route.path.replace(/\{[A-Za-z]+\}/g, '{}');
}

describe('served routes = the route manifest', () => {
  const publicApi = (r: ServedRoute) => (r.path.startsWith('/api/') || r.path.startsWith('^\\/api\\/')) && !/^\^?\\?\/api\\?\/internal\b/.test(r.path);

  it('when the whole system runs, then every served /api route (but /api/internal/...) is in the manifest with its method and path', () => {
    const served = servedRoutes().filter(publicApi);
    expect(served.length).toBeGreaterThan(20);
    const missing = served.filter((s) => !publicRoutes.some((route) => servedMatches(s, route, 'jane-doe')));
    expect(missing.map((s) => `${s.service ?? '?'}: ${s.method} ${s.path}`)).toEqual([]);
  });

  it('when the whole system runs, then every manifest route is served by its owner', () => {
    const served = servedRoutes().filter(publicApi);
    const unserved = publicRoutes.filter((route) => !served.some((s) => s.service === route.owner && servedMatches(s, route, 'jane-doe')));
    expect(unserved.map((r) => `${r.owner}: ${label(r)}`)).toEqual([]);
  });

  it('when the whole system runs, then every served public /api route was mounted from the manifest by the route kit, none by hand', () => {
    const byHand = servedRoutes().filter(publicApi).filter((s) => !s.fromManifest);
    expect(byHand.map((s) => `${s.service ?? '?'}: ${s.method} ${s.path}`)).toEqual([]);
  });

  it('when a service serves a route the manifest does not list, then the comparison names it', () => {
    const extra: ServedRoute = { service: 'catalog', method: 'POST', path: '/api/admin/aged-lead-archive' };
    expect(publicRoutes.some((route) => servedMatches(extra, route, 'jane-doe'))).toBe(false);
    const wrongMethod: ServedRoute = { service: 'gateway', method: 'PUT', path: '/api/users/:id' };
    expect(publicRoutes.some((route) => servedMatches(wrongMethod, route, 'jane-doe'))).toBe(false);
    const same: ServedRoute = { service: 'gateway', method: 'DELETE', path: '/api/users/:userId' };
    expect(publicRoutes.some((route) => servedMatches(same, route, 'jane-doe'))).toBe(true);
  });
});
