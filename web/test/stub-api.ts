import { vi } from 'vitest';

/**
 * The web tests' stand-in for the gateway: `fetch` answers from a table of routes and records what
 * the screen sent. One helper, so every test reads its network the same way.
 */

/** One answer. `total` goes in X-Total-Count (paged lists); `headers` replaces the JSON content type. */
export interface ApiAnswer {
  status: number;
  body?: unknown;
  total?: number;
  headers?: Record<string, string>;
}

/** One request as the screen sent it, its JSON body parsed (undefined when it sent none). */
export interface ApiCall {
  url: string;
  method: string;
  body: unknown;
  /** Only with `recordHeaders`: the request's headers, names in lower case. */
  headers?: Record<string, string>;
}

/**
 * What 'METHOD /path?query' answers: always the same answer; a list, one per request in turn (then
 * the fallback); or an answer worked out from the request (undefined: the fallback).
 */
export type ApiRoute = ApiAnswer | ApiAnswer[] | ((call: ApiCall) => ApiAnswer | undefined);

export interface StubApiOptions {
  /** What a request no route names gets; by default 404 `{ error: 'Not found' }`. */
  fallback?: (call: ApiCall) => ApiAnswer;
  recordHeaders?: boolean;
}

const NOT_FOUND: ApiAnswer = { status: 404, body: { error: 'Not found' } };

function parsedBody(body: RequestInit['body']): unknown {
  if (!body) return undefined;
  try {
    return JSON.parse(String(body));
  } catch {
    return body;
  }
}

function responseOf(answer: ApiAnswer): Response {
  const headers: Record<string, string> = answer.headers ?? { 'content-type': 'application/json' };
  if (answer.total !== undefined) headers['x-total-count'] = String(answer.total);
  // A 204 has no body (the Response constructor refuses one).
  return new Response(answer.status === 204 ? null : JSON.stringify(answer.body), { status: answer.status, headers });
}

/**
 * Replaces `fetch` (undone by `vi.unstubAllGlobals()`) with one that answers from `routes`, keyed
 * 'METHOD url' as the screen asks it (query included). `routes` is read at each request, so a test
 * may add or change answers after rendering. Every request is kept, in order, in `calls`.
 */
export function stubApi(routes: Record<string, ApiRoute> = {}, options: StubApiOptions = {}): { calls: ApiCall[]; routes: Record<string, ApiRoute> } {
  const calls: ApiCall[] = [];
  vi.stubGlobal('fetch', async (input: string | URL | Request, init: RequestInit = {}) => {
    const call: ApiCall = { url: String(input), method: init.method ?? 'GET', body: parsedBody(init.body) };
    if (options.recordHeaders) call.headers = Object.fromEntries(new Headers(init.headers).entries());
    calls.push(call);
    const route = routes[`${call.method} ${call.url}`];
    const answer = typeof route === 'function' ? route(call) : Array.isArray(route) ? route.shift() : route;
    return responseOf(answer ?? options.fallback?.(call) ?? NOT_FOUND);
  });
  return { calls, routes };
}
