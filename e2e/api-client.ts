/** What the system answered, with the JSON body when there is one. */
export interface ApiAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

export interface ApiRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** Sent as is (already encoded). */
  body?: string | Uint8Array<ArrayBuffer>;
}

/** The `error` string of a JSON answer, if it has one. */
export function errorOf(answer: ApiAnswer): string | undefined {
  const json = answer.json;
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const { error, success, message } = json as Record<string, unknown>;
  if (typeof error === 'string') return error;
  // The vendor webhook's own shape (spec §8): { success: false, message }.
  return success === false && typeof message === 'string' ? message : undefined;
}

/**
 * A cookie-keeping HTTP client of the gateway, as a browser with one tab would be. Writes
 * are sent as JSON (the gateway's CSRF check: JSON or X-Requested-With, and no foreign Origin).
 */
export class ApiClient {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    /** Sent with every request (a request's own headers win), e.g. X-Forwarded-For. */
    readonly defaultHeaders: Record<string, string> = {},
  ) {}

  get(path: string, headers: Record<string, string> = {}): Promise<ApiAnswer> {
    return this.send({ method: 'GET', path, headers });
  }

  /** A JSON request with `json` as its body (none when undefined). */
  call(method: string, path: string, json?: unknown, headers: Record<string, string> = {}): Promise<ApiAnswer> {
    return this.send({
      method,
      path,
      headers: { 'content-type': 'application/json', ...headers },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
  }

  async login(username: string, password: string): Promise<void> {
    const answer = await this.call('POST', '/api/login', { username, password });
    if (answer.status !== 200) throw new Error(`login of ${username} failed: ${answer.status} ${answer.text}`);
  }

  /** The Cookie header this client sends. */
  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async send(request: ApiRequest, options: { keepCookies?: boolean } = {}): Promise<ApiAnswer> {
    const headers: Record<string, string> = { ...this.defaultHeaders };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader;
    Object.assign(headers, request.headers);
    const res = await fetch(new URL(request.path, this.baseUrl), {
      method: request.method,
      headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      redirect: 'manual',
    });
    if (options.keepCookies !== false) {
      for (const line of res.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const eq = pair.indexOf('=');
        const name = pair.slice(0, eq).trim();
        const value = pair.slice(eq + 1).trim();
        const expired = /;\s*expires=([^;]+)/i.exec(line);
        if (!value || (expired && Date.parse(expired[1] ?? '') < Date.now())) this.cookies.delete(name);
        else this.cookies.set(name, value);
      }
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }
}
