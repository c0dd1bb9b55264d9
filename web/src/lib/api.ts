import { VIEW_AS_ENDED_HEADER, VIEW_AS_HEADER } from '@warmline/contracts/view-as-names';
import { markViewAsEnded, viewAsToken } from './view-as-token';

/**
 * The one fetch helper of the SPA (spec §7, §8). Every call sends cookies and the
 * `X-Requested-With` header the gateway's CSRF rule asks for; a body is sent as JSON.
 * A non-OK answer becomes an ApiError whose message is `${status}: ${body text}`, or
 * `${status}: ${statusText}` when the body is empty. With `on401: 'returnNull'` a 401
 * answer yields null instead (used to ask "who is logged in?").
 */

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly bodyText: string,
    statusText: string,
  ) {
    super(`${status}: ${bodyText || statusText}`);
  }

  /** The server's own words: the `error` field of a JSON body, else the body text. */
  get serverMessage(): string | undefined {
    if (!this.bodyText) return undefined;
    try {
      const parsed: unknown = JSON.parse(this.bodyText);
      if (parsed && typeof parsed === 'object' && 'error' in parsed && typeof parsed.error === 'string') {
        return parsed.error;
      }
      if (typeof parsed === 'string') return parsed;
      return undefined;
    } catch {
      return this.bodyText;
    }
  }
}

/** The server's message carried by an error, or `fallback`. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage || fallback;
  return fallback;
}

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  /** More headers, e.g. an Idempotency-Key. */
  headers?: Record<string, string>;
}

export function apiRequest<T>(url: string, options: RequestOptions & { on401: 'returnNull' }): Promise<T | null>;
export function apiRequest<T>(url: string, options?: RequestOptions & { on401?: 'throw' }): Promise<T>;
export async function apiRequest<T>(
  url: string,
  { method = 'GET', body, signal, headers: extraHeaders, on401 = 'throw' }: RequestOptions & { on401?: 'throw' | 'returnNull' } = {},
): Promise<T | null> {
  const headers: Record<string, string> = {
    ...extraHeaders,
    Accept: 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
  };
  // A view-as tab (docs/adr/0014): every request carries this tab's grant; the server decides.
  const viewing = viewAsToken();
  if (viewing) headers[VIEW_AS_HEADER] = viewing;
  const init: RequestInit = { method, headers, credentials: 'include' };
  if (signal) init.signal = signal;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }

  const response = await fetch(url, init);
  if (viewing && response.headers.get(VIEW_AS_ENDED_HEADER)) markViewAsEnded();
  if (on401 === 'returnNull' && response.status === 401) return null;
  const text = await response.text();
  if (!response.ok) throw new ApiError(response.status, text, response.statusText);
  if (!text) return undefined as T;
  const type = response.headers.get('content-type') ?? '';
  return (type.includes('json') ? JSON.parse(text) : text) as T;
}
