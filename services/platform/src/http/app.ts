import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import client, { type Histogram, type Registry } from 'prom-client';
import { isShuttingDown, type ShutdownStack } from '../lifecycle';
import type { Logger } from '../log';
import { AppError } from '../errors';
import { asUnavailable } from '../faults';
import { BODY_TOO_LARGE_MESSAGE, bodyLimitFor } from './body-limits';
import { requireForwardedIdentity, type IdentityCheck } from './identity';
import { recordServedApp } from './served-routes';
import { requestLog } from './request-log';
import { unstorableText } from '../validation';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    log: Logger;
  }
}

/**
 * A named readiness check: resolves when the dependency answers, throws when it does not.
 * A 'required' dependency down makes /readyz answer 503 (take the service out of rotation);
 * a 'degrades' one down only lists it under `degraded` (e.g. the broker: the outbox keeps
 * writes safe until it is back, so the service keeps serving).
 */
export type ReadinessCheck = [name: string, check: () => Promise<unknown>, effect?: ReadinessEffect];
type ReadinessEffect = 'required' | 'degrades';

/** The body of /readyz. */
interface Readiness {
  status: 'ready' | 'not ready';
  /** Checks marked 'degrades' that are down; the service still serves. */
  degraded: string[];
  checks: Record<string, string>;
}

export interface HttpAppOptions {
  service: string;
  log: Logger;
  /** The checks behind /readyz (apps with `ops: 'all'`). */
  readiness?: ReadinessCheck[];
  /**
   * The operational routes this app serves. 'all' (default): /healthz, /readyz with its checks
   * and /metrics, for an app on an internal address. 'liveness': only a bare /healthz, for a
   * public port (ARCHITECTURE §5: no readiness details or metrics there).
   */
  ops?: 'all' | 'liveness';
  /** Where request durations are recorded; a service with a public and an internal app shares one. */
  httpMetrics?: HttpMetrics;
  /** Internal services: /api/* requires the gateway's signed identity for this service, or a named service's call. */
  identity?: IdentityCheck;
  /** Routes and middleware of the service, mounted after the kit's own. */
  mount: (app: Express) => void;
  /** Middleware that runs before every route, the kit's own included (e.g. the gateway's security headers). */
  mountFirst?: (app: Express) => void;
  /** Raw-body routes (webhooks) must be mounted before the JSON parser. */
  mountBeforeBodyParsing?: (app: Express) => void;
  /**
   * The largest JSON body in bytes for routes the route manifest gives no limit of their own;
   * 100 KB by default (issue 11). A manifest route's bodyLimit (bulk routes: 2 MB) wins.
   */
  jsonLimit?: number;
  /** More metrics (e.g. the bus's) that /metrics serves beside the HTTP ones. */
  metrics?: Registry;
  /**
   * Whose X-Forwarded-For/-Proto are believed: a number of hops in front of the service, or a
   * list of addresses, CIDRs and Express's names ('loopback', 'uniquelocal'). Default
   * 'loopback': an internal service trusts only a gateway on its own machine.
   */
  trustProxy?: TrustProxy;
}

/** Express's 'trust proxy' as configuration may give it; never `true` (anyone could spoof). */
type TrustProxy = number | string[];

/** A service's process and HTTP metrics: one registry, whichever of its apps answered. */
export interface HttpMetrics {
  registry: Registry;
  duration: Histogram<'method' | 'route' | 'status'>;
}

export function createHttpMetrics(service: string): HttpMetrics {
  const registry = new client.Registry();
  registry.setDefaultLabels({ service });
  client.collectDefaultMetrics({ register: registry });
  const duration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return { registry, duration };
}

export function createHttpApp(options: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  // Who serves the app's routes, for servedRoutes() (the route-manifest test).
  app.locals.service = options.service;
  app.set('trust proxy', options.trustProxy ?? ['loopback']);

  const { registry, duration } = options.httpMetrics ?? createHttpMetrics(options.service);
  const logRequest = requestLog(options.log);

  app.use((req: Request, res: Response, next: NextFunction) => {
    const given = req.header('x-request-id');
    req.id = given && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
    req.log = options.log.child({ requestId: req.id });
    res.setHeader('x-request-id', req.id);
    // Stopping: the client opens its next connection elsewhere instead of reusing this one.
    if (isShuttingDown()) res.setHeader('connection', 'close');
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (req.route?.path as string | undefined) ?? (res.statusCode === 404 ? 'unmatched' : req.baseUrl || 'other');
      duration.observe({ method: req.method, route, status: String(res.statusCode) }, seconds);
      if (req.path !== '/healthz' && req.path !== '/metrics') {
        logRequest(req.log, { method: req.method, url: req.originalUrl.split('?')[0] ?? '', status: res.statusCode, ms: Math.round(seconds * 1000) });
      }
    });
    next();
  });
  options.mountFirst?.(app);

  if (options.ops === 'liveness') {
    // Alive, nothing more: which dependencies are down is not for the internet to read.
    app.get('/healthz', (_req, res) => {
      res.json({ status: 'ok' });
    });
  } else {
    app.get('/healthz', (_req, res) => {
      res.json({ status: 'ok', service: options.service });
    });
    app.get('/readyz', async (_req, res) => {
      // Stopping: out of rotation first, while this listener still answers (docs/adr/0040).
      if (isShuttingDown()) {
        res.status(503).json({ status: 'not ready', degraded: [], checks: { shutdown: 'stopping' } } satisfies Readiness);
        return;
      }
      const readiness = await checkReadiness(options.readiness ?? []);
      res.status(readiness.status === 'ready' ? 200 : 503).json(readiness);
    });
    app.get('/metrics', async (_req, res) => {
      res.setHeader('content-type', registry.contentType);
      // Concatenated at each scrape rather than merged once: metrics registered later still show,
      // and each registry keeps its own default labels.
      const parts = [await registry.metrics()];
      if (options.metrics && options.metrics !== registry) parts.push(await options.metrics.metrics());
      res.send(parts.join('\n'));
    });
  }

  options.mountBeforeBodyParsing?.(app);
  app.use(jsonBodies(options.jsonLimit));
  app.use(refuseUnstorableText);
  if (options.identity) app.use('/api', requireForwardedIdentity(options.identity));
  options.mount(app);

  app.use((req: Request, res: Response) => {
    res.status(404).json({ error: `Not found: ${req.method} ${req.path}` });
  });
  app.use(errorHandler);
  return app;
}

/** The JSON parser, with each request's limit from the route manifest (one parser per limit). */
function jsonBodies(fallback: number | undefined): RequestHandler {
  const parsers = new Map<number, RequestHandler>();
  return (req, res, next) => {
    const limit = bodyLimitFor(req.method, req.originalUrl.split('?')[0] ?? '', fallback);
    let parser = parsers.get(limit);
    if (!parser) {
      parser = express.json({ limit });
      parsers.set(limit, parser);
    }
    parser(req, res, next);
  };
}

/**
 * Text PostgreSQL cannot store (found by the route fuzzer: a survey or a login with '\u0000'
 * in a field was a 500 from the database, and one with '\ud800' a 500 from the outbox's jsonb).
 * A JSON body or query that carries either anywhere, keys included, is refused here with a
 * 400 before any route sees it.
 */
function refuseUnstorableText(req: Request, _res: Response, next: NextFunction): void {
  const problem = unstorableText(req.body) ?? unstorableText(req.query);
  if (problem) throw new AppError('ValidationFailed', problem, 400);
  next();
}

/** Runs every check (each bounded to 2 s) and says whether the service can serve. */
async function checkReadiness(checks: ReadinessCheck[]): Promise<Readiness> {
  const results = await Promise.all(
    checks.map(async ([name, check, effect = 'required']) => {
      try {
        await withTimeout(check(), 2000);
        return { name, effect, state: 'ok' };
      } catch (err) {
        return { name, effect, state: `down: ${err instanceof Error ? err.message || err.name : String(err)}` };
      }
    }),
  );
  const down = results.filter((r) => r.state !== 'ok');
  return {
    status: down.some((r) => r.effect === 'required') ? 'not ready' : 'ready',
    degraded: down.filter((r) => r.effect === 'degrades').map((r) => r.name),
    checks: Object.fromEntries(results.map((r) => [r.name, r.state])),
  };
}

/**
 * Maps errors to answers: AppError → its status and message; a dependency that is away → 503
 * with Retry-After (see faults.ts); body problems → 400; else 500.
 */
function errorHandler(thrown: unknown, req: Request, res: Response, _next: NextFunction): void {
  if (res.headersSent) {
    (req.log ?? console).error({ err: thrown }, 'error after response started');
    res.end();
    return;
  }
  const unavailable = asUnavailable(thrown);
  if (unavailable && !(thrown instanceof AppError)) {
    (req.log ?? console).warn({ err: thrown }, 'a dependency is unavailable; answered 503');
  }
  const err = unavailable ?? thrown;
  if (err instanceof AppError) {
    if ((err.status === 429 || err.status === 503) && typeof err.details?.retryAfterSeconds === 'number') {
      res.setHeader('Retry-After', String(err.details.retryAfterSeconds));
    }
    const { retryAfterSeconds: _omit, ...details } = err.details ?? {};
    res.status(err.status).json({ error: err.message, ...details });
    return;
  }
  const bodyError = err as { type?: string; status?: number; message?: string };
  if (bodyError.type === 'entity.parse.failed') {
    res.status(400).json({ error: 'Request body is not valid JSON' });
    return;
  }
  if (bodyError.type === 'entity.too.large') {
    res.status(413).json({ error: BODY_TOO_LARGE_MESSAGE });
    return;
  }
  if (typeof bodyError.status === 'number' && bodyError.status >= 400 && bodyError.status < 500) {
    res.status(bodyError.status).json({ error: bodyError.message ?? 'Bad request' });
    return;
  }
  (req.log ?? console).error({ err }, 'unhandled error');
  res.status(500).json({ error: 'Internal server error', requestId: req.id });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (v) => { clearTimeout(timer); resolve(v); },
      (e: unknown) => { clearTimeout(timer); reject(e instanceof Error ? e : new Error(String(e))); },
    );
  });
}

/** Longer than the idle timeout of the clients and proxies in front of a service. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Starts listening; resolves with the server once the port is bound (0 picks a free one). */
export function listen(app: Express, port: number, host = '0.0.0.0'): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, (err?: Error) => (err ? reject(err) : resolve(server)));
    // Idle keep-alive connections are closed by the client or the proxy in front (60 s at most
    // for common load balancers), never by us first: a server that closes an idle socket just
    // as a client reuses it resets that client's request (seen as ECONNRESET under load).
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  });
}

/**
 * A service's HTTP server: listens on `port` (0 picks a free one) at `host` (every interface by
 * default; an internal app gives INTERNAL_HOST), puts its closing on `stops` and resolves with
 * the local URL that reaches it.
 */
export async function serve(app: Express, port: number, stops: ShutdownStack, host = '0.0.0.0'): Promise<string> {
  const server = await listen(app, port, host);
  const forget = recordServedApp(app);
  stops.push('http', async () => {
    forget();
    await closeServer(server);
  });
  return `http://${reachableHost(host)}:${(server.address() as AddressInfo).port}`;
}

/** An address a local client can use for a server bound to `host` (every interface → loopback). */
function reachableHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Stops accepting, lets requests in flight finish, and resolves once every connection is
 * closed: a kept-alive connection is closed as soon as its request is answered.
 */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    // Requests still running after 10 s are cut so shutdown never hangs.
    const cut = setTimeout(() => server.closeAllConnections(), 10_000);
    cut.unref();
    server.close(() => {
      clearInterval(idle);
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
