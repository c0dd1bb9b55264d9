import type { KeyObject } from 'node:crypto';
import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { NextFunction, Request, Response } from 'express';
import { ANONYMOUS, BODY_TOO_LARGE_MESSAGE, IDENTITY_HEADER, SERVICE_CALL_HEADER, signIdentity, type Identity, type Logger } from '@warmline/platform';
import { RETRY_AFTER_SECONDS } from '@warmline/platform/faults';
import { DEFAULT_BODY_LIMIT_BYTES, findPublicRoute, type PublicRoute, type RouteOwner } from '@warmline/contracts';
import type { GatewayConfig } from '../config';
import { sendWebhookAnswer, sendWebhookUnavailable } from './vendor-webhook';

/**
 * A path prefix forwarded besides the route manifest's routes: tests put stand-in services
 * behind the gateway this way. A prefix matches itself and anything below it. The manifest
 * (services/contracts/src/routes.ts) says which internal service answers every public route;
 * the gateway forwards with the signed identity of the visitor (docs/adr/0001).
 */
export interface ForwardRoute {
  prefix: string;
  /** Base URL of the internal service, e.g. config.CATALOG_URL. */
  target: string;
  /** The service's name, which the forwarded identity is signed for (docs/adr/0042). */
  audience: string;
}

/** The internal service that answers each owner of the route manifest. */
export function ownerTargets(config: GatewayConfig): Record<Exclude<RouteOwner, 'gateway'>, string> {
  return { catalog: config.CATALOG_URL, orders: config.ORDERS_URL, partners: config.PARTNERS_URL, ingestion: config.INGESTION_URL, transfers: config.TRANSFERS_URL };
}

/** Headers that concern one hop only, or that must never reach an internal service. */
const DROPPED_REQUEST_HEADERS = new Set([
  IDENTITY_HEADER, // only the gateway vouches for who is asking
  SERVICE_CALL_HEADER, // services call each other directly, never through the public site
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
  'x-view-as', // the grant stays in the gateway; services see the identity
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
/**
 * The connections to the internal services stay open between calls. Node's global agent closes a
 * connection idle for 5 s, so a vendor calling every few seconds, and every rise in traffic after
 * a lull, paid a new connection (connect, accept, the handshake and a close in both processes);
 * these stay 60 s, just under the services' keep-alive (65 s, services/platform/src/http/app.ts),
 * so a service never closes a connection the gateway is about to reuse. A call and its answer are
 * one socket write each way already (Node sends the headers with the first chunk of the body).
 */
const UPSTREAM_IDLE_MS = 60_000;
const upstreamAgents = {
  http: new http.Agent({ keepAlive: true, timeout: UPSTREAM_IDLE_MS }),
  https: new https.Agent({ keepAlive: true, timeout: UPSTREAM_IDLE_MS }),
};
/** How much of a refused body is still read (and dropped) so the client sees its 413. */
const DRAIN_LIMIT_BYTES = 8 * 1024 * 1024;

export interface ForwardingOptions {
  /** Where each internal owner of the route manifest listens. */
  targets: Record<string, string>;
  /** Prefixes forwarded besides the manifest's routes (tests add stand-in services). */
  routes?: ForwardRoute[];
  /** The gateway's private identity key (IDENTITY_PRIVATE_KEY). */
  identityKey: KeyObject;
  log: Logger;
}

/**
 * Streams matching requests to their service untouched (the raw body is piped, so webhook
 * signatures still verify). Mount before the JSON parser and after the session and CSRF
 * middleware.
 */
export function forwarding(options: ForwardingOptions) {
  const targets = Object.fromEntries(Object.entries(options.targets).map(([owner, url]) => [owner, new URL(url)]));
  // Extra prefixes (tests' stand-in services), longest first.
  const extra = [...(options.routes ?? [])]
    .map((r) => ({ prefix: r.prefix.replace(/\/+$/, ''), target: new URL(r.target), audience: r.audience }))
    .sort((a, b) => b.prefix.length - a.prefix.length);
  const forward = forwarder(options);

  return (req: Request, res: Response, next: NextFunction): void => {
    const path = req.originalUrl.split('?')[0] ?? '';
    const { route } = findPublicRoute(req.method, path);
    const stand = route ? undefined : extra.find((r) => path === r.prefix || path.startsWith(`${r.prefix}/`));
    const target = route && route.owner !== 'gateway' ? targets[route.owner] : stand?.target;
    const audience = route ? route.owner : stand?.audience;
    if (!target || !audience) return next();
    forward(req, res, { target, audience, route, path });
  };
}

/** Where one request goes: its service, the audience its identity is signed for, its manifest route. */
export interface ForwardingTarget {
  target: URL;
  audience: string;
  route: PublicRoute | undefined;
  /** The request's path, without its query. */
  path: string;
}

/**
 * The forwarding of one request, body streamed: the middleware above and the vendor calls' edge
 * path (edge/vendor-calls.ts) share it.
 */
export function forwarder(options: Pick<ForwardingOptions, 'identityKey'>) {
  return (req: Request, res: Response, { target, audience, route, path }: ForwardingTarget): void => {
    // The route manifest's body limit, checked before anything is forwarded when declared
    // and counted as the body streams when not (chunked).
    const limit = route?.bodyLimit ?? DEFAULT_BODY_LIMIT_BYTES;
    const declared = Number(req.headers['content-length'] ?? 0);
    // A vendor's webhook hears every refusal of the gateway in the webhook's own shape (spec §8).
    const vendor = route?.access === 'vendor-key';
    if (declared > limit) {
      refuseTooLarge(req, res, vendor);
      return;
    }

    // In a view-as tab req.user is the viewed agent (edge/view-as.ts), marked read only for the service too.
    // A vendor-key or Stripe route is always anonymous: the key or the webhook signature, not a
    // session, says who calls (the service checks it), so a browser's session never rides along.
    const machine = vendor || route?.access === 'stripe-signature';
    const identity: Identity =
      req.user && !machine
        ? { userId: req.user.id, username: req.user.username, isAdmin: req.user.isAdmin, ...(req.viewAs ? { readOnly: true as const } : {}) }
        : ANONYMOUS;
    const headers = forwardedHeaders(req.headers);
    // The client's address travels signed: a service believes no X-Forwarded-For (docs/adr/0042).
    headers[IDENTITY_HEADER] = signIdentity(options.identityKey, audience, { ...identity, ...(req.ip ? { clientIp: req.ip } : {}) });
    headers['x-request-id'] = req.id;
    headers['x-forwarded-for'] = req.ip ?? '';
    headers['x-forwarded-proto'] = req.protocol;
    if (req.headers.host) headers['x-forwarded-host'] = req.headers.host;

    const secure = target.protocol === 'https:';
    const basePath = target.pathname.replace(/\/+$/, '');
    const upstream = (secure ? https : http).request({
      agent: secure ? upstreamAgents.https : upstreamAgents.http,
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
    let tooLarge = false;
    upstream.on('error', (err) => {
      if (tooLarge) return;
      req.log.warn({ err, target: target.origin, path }, 'forwarding failed');
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (vendor) {
        // Nothing stored for certain, or stored and unanswered: either way the vendor retries, and the
        // service answers a repeat with the callback_id it already gave (its idempotency rules).
        sendWebhookUnavailable(res, err.message === 'upstream timed out' ? 504 : 503, RETRY_AFTER_SECONDS);
        return;
      }
      if (err.message === 'upstream timed out') {
        res.status(504).json({ error: 'The service took too long to answer', requestId: req.id });
        return;
      }
      // Not reachable (refused, reset, restarting): a passing outage, so 503 and when to retry.
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
      res.status(503).json({ error: 'The service is unavailable, please try again shortly', requestId: req.id });
    });
    // A visitor who goes away stops the forwarded request too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    let received = 0;
    const meter = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limit) return;
      tooLarge = true;
      req.off('data', meter);
      req.unpipe(upstream);
      upstream.destroy();
      refuseTooLarge(req, res, vendor);
    };
    req.on('data', meter);
    req.pipe(upstream);
  };
}

/**
 * 413 for a body over its limit. What the client still sends is read and dropped, up to a
 * bound, so it can read the answer; a sender that goes on past that is cut off.
 */
function refuseTooLarge(req: Request, res: Response, webhookShape = false): void {
  if (!res.headersSent) {
    res.setHeader('Connection', 'close');
    if (webhookShape) sendWebhookAnswer(res, 413, BODY_TOO_LARGE_MESSAGE);
    else res.status(413).json({ error: BODY_TOO_LARGE_MESSAGE });
  }
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) req.socket.destroy();
  });
  req.resume();
}

function forwardedHeaders(incoming: IncomingHttpHeaders): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value !== undefined && !DROPPED_REQUEST_HEADERS.has(name.toLowerCase())) headers[name] = value;
  }
  return headers;
}
