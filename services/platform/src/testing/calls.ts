import { randomUUID } from 'node:crypto';
import { ANONYMOUS, IDENTITY_HEADER, signIdentity, type Identity } from '../http/identity';
import { TEST_IDENTITY_SECRET } from './index';

/** Calls straight to an internal service, with the identity the gateway would sign. */

export interface CallOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** A raw body sent as is (webhooks). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Who the gateway says is asking; an anonymous visitor by default, null for no identity at all. */
  identity?: Identity | null;
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
  if (identity) headers[IDENTITY_HEADER] = signIdentity(TEST_IDENTITY_SECRET, identity);
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

/** A logged-in agent as the gateway signs them (unique names every call). */
export function agentIdentity(name = 'agent'): Identity {
  return { userId: randomUUID(), username: `${name}_${randomUUID().slice(0, 6)}`, isAdmin: false };
}
