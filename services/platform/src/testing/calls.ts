import { randomUUID } from 'node:crypto';
import { IDENTITY_HEADER, SERVICE_CALL_HEADER, type ServiceCaller } from '../http/identity';
import { ANONYMOUS, type Identity } from '../identity';
import { signTestIdentity, signTestServiceCall } from './index';

/** Calls straight to an internal service, with the identity the gateway would sign. */

export interface CallOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** A raw body sent as is (webhooks). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Who the gateway says is asking; an anonymous visitor by default, null for no identity at all. */
  identity?: Identity | null;
  /** Calls as this service with its own key instead, acting for `identity` when one is given (docs/adr/0042). */
  caller?: ServiceCaller;
  /** Aborts the call (e.g. AbortSignal.timeout: a test that must not wait for ever). */
  signal?: AbortSignal;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed when it is JSON, {} otherwise. */
  body: Record<string, unknown>;
}

export async function callService(baseUrl: string, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const identity = options.identity === undefined ? ANONYMOUS : options.identity;
  if (options.caller) headers[SERVICE_CALL_HEADER] = signTestServiceCall(options.caller, await audienceOf(baseUrl), options.identity ?? null);
  else if (identity) headers[IDENTITY_HEADER] = signTestIdentity(await audienceOf(baseUrl), identity);
  let body = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const text = await response.text();
  const json = text && (response.headers.get('content-type') ?? '').includes('json');
  return { status: response.status, headers: response.headers, text, body: json ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

const audiences = new Map<string, Promise<string>>();

/**
 * The service listening at `baseUrl`, as its /healthz names it: an identity is signed for one
 * service (docs/adr/0042), and a test calls the service by its address.
 */
export function audienceOf(baseUrl: string): Promise<string> {
  const origin = new URL(baseUrl).origin;
  let known = audiences.get(origin);
  if (!known) {
    known = fetch(`${origin}/healthz`)
      .then(async (r) => ((await r.json()) as { service?: string }).service ?? '')
      .then((service) => {
        if (!service) throw new Error(`${origin}/healthz does not name its service`);
        return service;
      });
    known.catch(() => audiences.delete(origin));
    audiences.set(origin, known);
  }
  return known;
}

/** A logged-in agent as the gateway signs them (unique names every call). */
export function agentIdentity(name = 'agent'): Identity {
  return { userId: randomUUID(), username: `${name}_${randomUUID().slice(0, 6)}`, isAdmin: false };
}
