import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { NextFunction, Request, Response } from 'express';
import { ANONYMOUS, IDENTITY_HEADER, signIdentity, type Identity, type Logger } from '@warmline/platform';
import type { GatewayConfig } from '../config';

/**
 * Which `/api` paths belong to which internal service. The gateway forwards them with the
 * signed identity of the visitor (docs/adr/0001-identity-forwarding.md); the service decides
 * what that visitor may do. A prefix matches itself and anything below it
 * ('/api/aged-leads' matches '/api/aged-leads/12' but not '/api/aged-leads-report').
 */
export interface ForwardRoute {
  prefix: string;
  /** Base URL of the internal service, e.g. config.CATALOG_URL. */
  target: string;
}

/**
 * The table of forwarded routes: every /api path an internal service answers, in one place.
 * Each service's issue adds its prefixes here.
 */
export function forwardRoutes(config: GatewayConfig): ForwardRoute[] {
  return [
    // catalog: the aged-lead market, bulk purchases and the buyer's own leads (My Leads, CSV).
    { prefix: '/api/aged-leads', target: config.CATALOG_URL },
    { prefix: '/api/bulk-purchase-leads', target: config.CATALOG_URL },
    { prefix: '/api/my-leads', target: config.CATALOG_URL },
    // orders: package checkouts (public), payment provider config, sandbox card confirmation,
    // order status, and Stripe's webhook (raw body, no session, CSRF-exempt).
    { prefix: '/api/create-payment-intent', target: config.ORDERS_URL },
    { prefix: '/api/config', target: config.ORDERS_URL },
    { prefix: '/api/payments', target: config.ORDERS_URL },
    { prefix: '/api/orders', target: config.ORDERS_URL },
    { prefix: '/api/webhooks/stripe', target: config.ORDERS_URL },
    // orders: live transfer orders (a logged-in agent orders; admins list them).
    { prefix: '/api/call-transfer-order', target: config.ORDERS_URL },
    { prefix: '/api/transfer-orders', target: config.ORDERS_URL },
  ];
}

/** Headers that concern one hop only, or that must never reach an internal service. */
const DROPPED_REQUEST_HEADERS = new Set([
  IDENTITY_HEADER, // only the gateway vouches for who is asking
  'cookie', // the session stays in the gateway
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'x-request-id',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
]);

const DROPPED_RESPONSE_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'trailer',
  'upgrade',
  // Internal services do not set cookies on the public site.
  'set-cookie',
]);

const UPSTREAM_TIMEOUT_MS = 30_000;

export interface ForwardingOptions {
  routes: ForwardRoute[];
  identitySecret: string;
  log: Logger;
}

/**
 * Streams matching requests to their service untouched (the raw body is piped, so webhook
 * signatures still verify). Mount before the JSON parser and after the session and CSRF
 * middleware.
 */
export function forwarding(options: ForwardingOptions) {
  // Longest prefix first, so '/api/admin/aged-leads' can go elsewhere than '/api/admin'.
  const routes = [...options.routes]
    .map((r) => ({ prefix: r.prefix.replace(/\/+$/, ''), target: new URL(r.target) }))
    .sort((a, b) => b.prefix.length - a.prefix.length);

  return (req: Request, res: Response, next: NextFunction): void => {
    const path = req.originalUrl.split('?')[0] ?? '';
    const route = routes.find((r) => path === r.prefix || path.startsWith(`${r.prefix}/`));
    if (!route) return next();

    const identity: Identity = req.user
      ? { userId: req.user.id, username: req.user.username, isAdmin: req.user.isAdmin }
      : ANONYMOUS;
    const headers = forwardedHeaders(req.headers);
    headers[IDENTITY_HEADER] = signIdentity(options.identitySecret, identity);
    headers['x-request-id'] = req.id;
    headers['x-forwarded-for'] = req.ip ?? '';
    headers['x-forwarded-proto'] = req.protocol;
    if (req.headers.host) headers['x-forwarded-host'] = req.headers.host;

    const target = route.target;
    const client = target.protocol === 'https:' ? https : http;
    const basePath = target.pathname.replace(/\/+$/, '');
    const upstream = client.request({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      path: `${basePath}${req.originalUrl}`,
      headers,
      timeout: UPSTREAM_TIMEOUT_MS,
    });

    upstream.on('response', (answer) => {
      res.status(answer.statusCode ?? 502);
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined && !DROPPED_RESPONSE_HEADERS.has(name)) res.setHeader(name, value);
      }
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    upstream.on('timeout', () => {
      upstream.destroy(new Error('upstream timed out'));
    });
    upstream.on('error', (err) => {
      req.log.warn({ err, target: target.origin, path }, 'forwarding failed');
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const timedOut = err.message === 'upstream timed out';
      res.status(timedOut ? 504 : 502).json({
        error: timedOut ? 'The service took too long to answer' : 'The service is unavailable, please try again shortly',
        requestId: req.id,
      });
    });
    // A visitor who goes away stops the forwarded request too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  };
}

function forwardedHeaders(incoming: IncomingHttpHeaders): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value !== undefined && !DROPPED_REQUEST_HEADERS.has(name.toLowerCase())) headers[name] = value;
  }
  return headers;
}
