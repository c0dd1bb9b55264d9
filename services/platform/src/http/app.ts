import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import client from 'prom-client';
import type { ShutdownStack } from '../lifecycle';
import type { Logger } from '../log';
import { AppError } from '../errors';
import { requireForwardedIdentity } from './identity';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    log: Logger;
  }
}

/** A named readiness check: resolves when the dependency answers, throws when it does not. */
export type ReadinessCheck = [name: string, check: () => Promise<unknown>];

export interface HttpAppOptions {
  service: string;
  log: Logger;
  readiness: ReadinessCheck[];
  /** Internal services: /api/* requires the gateway's signed identity. */
  identitySecret?: string;
  /** Routes and middleware of the service, mounted after the kit's own. */
  mount: (app: Express) => void;
  /** Raw-body routes (webhooks) must be mounted before the JSON parser. */
  mountBeforeBodyParsing?: (app: Express) => void;
  jsonLimit?: string;
}

export function createHttpApp(options: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');

  const registry = new client.Registry();
  registry.setDefaultLabels({ service: options.service });
  client.collectDefaultMetrics({ register: registry });
  const duration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });

  app.use((req: Request, res: Response, next: NextFunction) => {
    const given = req.header('x-request-id');
    req.id = given && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
    req.log = options.log.child({ requestId: req.id });
    res.setHeader('x-request-id', req.id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (req.route?.path as string | undefined) ?? (res.statusCode === 404 ? 'unmatched' : req.baseUrl || 'other');
      duration.observe({ method: req.method, route, status: String(res.statusCode) }, seconds);
      if (req.path !== '/healthz' && req.path !== '/metrics') {
        req.log.info(
          { method: req.method, url: req.originalUrl.split('?')[0], status: res.statusCode, ms: Math.round(seconds * 1000) },
          'request',
        );
      }
    });
    next();
  });

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', service: options.service });
  });
  app.get('/readyz', async (_req, res) => {
    const results = await Promise.all(
      options.readiness.map(async ([name, check]) => {
        try {
          await withTimeout(check(), 2000);
          return [name, 'ok'] as const;
        } catch (err) {
          return [name, `down: ${err instanceof Error ? err.message : String(err)}`] as const;
        }
      }),
    );
    const ready = results.every(([, state]) => state === 'ok');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', checks: Object.fromEntries(results) });
  });
  app.get('/metrics', async (_req, res) => {
    res.setHeader('content-type', registry.contentType);
    res.send(await registry.metrics());
  });

  options.mountBeforeBodyParsing?.(app);
  app.use(express.json({ limit: options.jsonLimit ?? '1mb' }));
  if (options.identitySecret) app.use('/api', requireForwardedIdentity(options.identitySecret));
  options.mount(app);

  app.use((req: Request, res: Response) => {
    res.status(404).json({ error: `Not found: ${req.method} ${req.path}` });
  });
  app.use(errorHandler);
  return app;
}

/** Maps errors to answers: AppError → its status and message; body problems → 400; else 500. */
export function errorHandler(err: unknown, req: Request, res: Response, _next: NextFunction): void {
  if (res.headersSent) {
    req.log.error({ err }, 'error after response started');
    res.end();
    return;
  }
  if (err instanceof AppError) {
    if (err.status === 429 && typeof err.details?.retryAfterSeconds === 'number') {
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
    res.status(413).json({ error: 'Request body is too large' });
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

/** Starts listening; resolves with the server once the port is bound (0 picks a free one). */
export function listen(app: Express, port: number, host = '0.0.0.0'): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, (err?: Error) => (err ? reject(err) : resolve(server)));
  });
}

/**
 * A service's HTTP server: listens on `port` (0 picks a free one), puts its closing on `stops`
 * and resolves with the local URL that reaches it.
 */
export async function serve(app: Express, port: number, stops: ShutdownStack): Promise<string> {
  const server = await listen(app, port);
  stops.push('http', () => closeServer(server));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    // Requests still running after 10 s are cut so shutdown never hangs.
    setTimeout(() => server.closeAllConnections(), 10_000).unref();
  });
}
