import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import { publicRoutes, type ManifestRoute, type PublicRoute, type RouteAccess, type RouteOwner } from '@warmline/contracts';
import { forbidden, notFound, unauthorized } from '../errors';
import type { ActingAdmin, Identity } from '../identity';
import { parseInput } from '../validation';

/**
 * The route manifest made executable (issue 26): a service mounts each of its manifest entries
 * with a handler, and this kit does what the entry says before the handler runs — who may call
 * (401 'Not authenticated', 403 'Admin access required'), the path's ids (one that is not of its
 * shape names nothing: 404 with the entry's `notFound`), the body and the query parsed with the
 * entry's schemas (400 with the schema's message). The handler gets them typed from the entry
 * and cannot declare them again.
 */

/** `'GET /api/users'`: a manifest route's method and path. */
type KeyOf<R> = R extends { method: infer M extends string; path: infer P extends string } ? `${M} ${P}` : never;
/** Every route key a service owns. */
type RouteKey<O extends RouteOwner> = KeyOf<Extract<ManifestRoute, { owner: O }>>;
type EntryOf<K extends string> = K extends `${infer M} ${infer P}` ? Extract<ManifestRoute, { method: M; path: P }> : never;
type ParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}` ? N | ParamNames<Rest> : never;
type Parsed<E, F extends 'body' | 'query'> = E extends { readonly [k in F]: infer S extends z.ZodType } ? z.infer<S> : undefined;

/** Whoever the service's edge says is asking: the gateway's session, or its signed identity. */
export type Asker = Identity;

/** A logged-in user, agent or admin ('customer' routes). */
interface SignedInCaller {
  userId: string;
  username: string;
  isAdmin: boolean;
}

/** The admin acting ('admin' routes); the audit log names them by both. */
type AdminCaller = ActingAdmin;

/** A voice-AI vendor: the key it presented (X-API-Key or Authorization: Bearer), checked by the owning service. */
export interface VendorCaller {
  presentedKey: string | undefined;
}

/** Stripe: the signature header, checked over the raw body by the owning service. */
interface StripeCaller {
  signature: string | undefined;
}

type CallerOf<A extends RouteAccess> = A extends 'customer'
  ? SignedInCaller
  : A extends 'admin'
    ? AdminCaller
    : A extends 'vendor-key'
      ? VendorCaller
      : A extends 'stripe-signature'
        ? StripeCaller
        : Asker;

/** What a handler gets: the caller, path ids, body and query as the manifest entry declares them. */
interface RouteCall<K extends string> {
  caller: CallerOf<EntryOf<K>['access']>;
  params: Record<ParamNames<EntryOf<K>['path']>, string>;
  /** Parsed with the entry's body schema; vendor and Stripe routes read their raw body themselves. */
  body: EntryOf<K>['access'] extends 'vendor-key' | 'stripe-signature' ? undefined : Parsed<EntryOf<K>, 'body'>;
  query: Parsed<EntryOf<K>, 'query'>;
  /** The manifest entry itself (its schemas, for routes that answer in their own shape). */
  route: EntryOf<K>;
  /** The request's id: events and audit records carry it as their correlation id. */
  correlationId: string;
  req: Request;
  res: Response;
}

/** A handler's answer: a value is sent as JSON (status 200 unless the handler set one); undefined when it answered itself. */
export type RouteHandler<K extends string, F = undefined> = (call: RouteCall<K> & { found: F }) => unknown;

/**
 * What the path names, looked up after who may call and the ids are checked and before the body
 * is read: a resource that does not exist is 404 whatever the body says (a referral survey of an
 * unknown salesperson). The handler gets it as `found`.
 */
type RouteLookup<K extends string, F> = (call: Pick<RouteCall<K>, 'caller' | 'params' | 'req'>) => Promise<F>;

export interface ManifestRouter<O extends RouteOwner> {
  /** Mounts the manifest entry `key` with its handler. */
  on<K extends RouteKey<O>>(key: K, handler: RouteHandler<K>): ManifestRouter<O>;
  /** Mounts the manifest entry `key`, looking up what its path names (`find`) before the body is read. */
  onFound<K extends RouteKey<O>, F>(key: K, find: RouteLookup<K, F>, handler: RouteHandler<K, F>): ManifestRouter<O>;
  /** The Express router of every entry mounted (literal paths first); built when first read, after which nothing more mounts. */
  readonly router: Router;
}

const UUID = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/;
const SEGMENT = /[A-Za-z0-9_.-]+/;

/** What a path parameter may be: the entry's own pattern, a UUID for `id` and `…Id`, else one plain segment. */
function paramPattern(route: PublicRoute, name: string): RegExp {
  const own = route.params?.[name];
  const source = (own ?? (name === 'id' || name.endsWith('Id') ? UUID : SEGMENT)).source;
  return new RegExp(`^(?:${source})$`);
}

function isIdParam(route: PublicRoute, name: string): boolean {
  return route.params?.[name] === undefined && (name === 'id' || name.endsWith('Id'));
}

/** Handlers this kit mounted: served-routes tells them from routes mounted by hand. */
const kitHandlers = new WeakSet<RequestHandler>();

export function isMountedByManifestKit(handler: unknown): boolean {
  return typeof handler === 'function' && kitHandlers.has(handler as RequestHandler);
}

function presentedKey(req: Request): string | undefined {
  const apiKey = req.header('x-api-key')?.trim();
  if (apiKey) return apiKey;
  return /^Bearer\s+(\S+)\s*$/i.exec(req.header('authorization') ?? '')?.[1] || undefined;
}

function callerFor(route: PublicRoute, req: Request, asker: Asker): unknown {
  switch (route.access) {
    case 'customer':
      if (!asker.userId) throw unauthorized('Not authenticated');
      return { userId: asker.userId, username: asker.username ?? asker.userId, isAdmin: asker.isAdmin } satisfies SignedInCaller;
    case 'admin':
      if (!asker.userId) throw unauthorized('Not authenticated');
      if (!asker.isAdmin) throw forbidden('Admin access required');
      return { userId: asker.userId, username: asker.username ?? asker.userId } satisfies AdminCaller;
    case 'vendor-key':
      return { presentedKey: presentedKey(req) } satisfies VendorCaller;
    case 'stripe-signature':
      return { signature: req.header('stripe-signature') } satisfies StripeCaller;
    case 'anonymous':
      return asker;
  }
}

function paramsFor(route: PublicRoute, req: Request): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [, name] of route.path.matchAll(/\{([A-Za-z]+)\}/g)) {
    const value = String(req.params[name!] ?? '');
    if (!paramPattern(route, name!).test(value)) throw notFound(route.notFound ?? 'Not found');
    params[name!] = isIdParam(route, name!) ? value.toLowerCase() : value;
  }
  return params;
}

/**
 * The router of one service's manifest routes. `askerOf` says who is asking (internal services:
 * the gateway's signed identity; the gateway: its session).
 */
export function manifestRoutes<O extends RouteOwner>(owner: O, askerOf: (req: Request) => Asker): ManifestRouter<O> {
  const entries: Array<{ route: PublicRoute; handle: RequestHandler }> = [];
  let built: Router | undefined;

  function mount(key: string, find: RouteLookup<string, unknown> | undefined, handler: RouteHandler<string, unknown>): ManifestRouter<O> {
    if (built) throw new Error(`${key} mounted after its router was built`);
    const route = publicRoutes.find((r) => `${r.method} ${r.path}` === key);
    if (!route || route.owner !== owner) throw new Error(`${key} is not a route of ${owner} in the route manifest`);
    const rawBody = route.access === 'vendor-key' || route.access === 'stripe-signature';
    const handle: RequestHandler = async (req, res) => {
      const caller = callerFor(route, req, askerOf(req));
      const params = paramsFor(route, req);
      const found: unknown = find ? await find({ caller, params, req } as Parameters<typeof find>[0]) : undefined;
      const body = !rawBody && route.body ? parseInput(route.body, req.body) : undefined;
      const query = route.query ? parseInput(route.query, req.query) : undefined;
      const call = { caller, params, body, query, found, route, correlationId: req.id, req, res } as unknown as Parameters<typeof handler>[0];
      const answer = await handler(call);
      if (answer !== undefined && !res.headersSent) res.json(answer);
    };
    kitHandlers.add(handle);
    entries.push({ route, handle });
    return mounted;
  }

  const mounted: ManifestRouter<O> = {
    on(key, handler) {
      return mount(key, undefined, handler as RouteHandler<string, unknown>);
    },
    onFound(key, find, handler) {
      return mount(key, find as RouteLookup<string, unknown>, handler as RouteHandler<string, unknown>);
    },
    get router() {
      if (!built) {
        built = Router();
        // Literal paths before templates, as the gateway's gate matches them: '/api/admin/lead-imports/template.csv' is no import id.
        const ordered = [...entries].sort((a, b) => templates(a.route) - templates(b.route));
        for (const { route, handle } of ordered) {
          const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
          built[method](route.path.replace(/\{([A-Za-z]+)\}/g, ':$1'), handle);
        }
      }
      return built;
    },
  };
  return mounted;
}

function templates(route: PublicRoute): number {
  return (route.path.match(/\{/g) ?? []).length;
}
