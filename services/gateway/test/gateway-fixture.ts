import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { UserRole } from '@warmline/contracts';
import { createLogger, createPool, parseConfig, type Pool } from '@warmline/platform';
import type { TestDatabase } from '@warmline/platform/testing/index';
import { deleteBusNames, startTestSystem } from '@warmline/platform/testing/system';
import { notificationsEnv } from '@warmline/notifications/config';
import { NOTIFICATIONS_QUEUES } from '@warmline/notifications/events/consumers';
import { startNotifications } from '@warmline/notifications/service';
import { gatewayEnv, type GatewayConfig } from '../src/config';
import type { UserRecord } from '../src/db/users';
import { createAccount } from '../src/domain/users';
import type { ForwardRoute } from '../src/edge/forwarding';
import { GATEWAY_SCHEMA, startGateway } from '../src/service';

/**
 * A gateway started in-process on a free port for one test file, against the real
 * PostgreSQL (its own database), Redis (its own key prefix) and RabbitMQ (its own namespace).
 */
export interface GatewayFixture {
  url: string;
  /** The internal listener: /readyz, /metrics and the /internal routes for services. */
  internalUrl: string;
  config: GatewayConfig;
  db: TestDatabase;
  /** A pool on the gateway schema, to arrange and inspect data. */
  pool: Pool;
  admin: { username: string; password: string };
  /** A customer account with a known password (data factory: unique names every call). */
  createAgent(overrides?: Partial<AgentSpec>): Promise<{ user: UserRecord; password: string }>;
  /** A browser; with `ip`, every request says it came from that address (through the trusted proxy). */
  browser(options?: { ip?: string }): Browser;
  /**
   * Starts the notifications worker beside the gateway, on its database and broker namespace
   * as in production, writing .eml files into `mailDir` (no SMTP); cleanup stops it.
   */
  startMailWorker(): Promise<{ mailDir: string }>;
  /** Stops this gateway (the database, Redis keys and broker names stay until cleanup). */
  stopGateway(): Promise<void>;
  cleanup(): Promise<void>;
}

interface AgentSpec {
  username: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  role: UserRole;
}

export const SESSION_SECRET = 'test-session-secret-0123456789abcdef';

export async function startGatewayFixture(
  options: { env?: Record<string, string>; forwardRoutes?: ForwardRoute[]; db?: TestDatabase } = {},
): Promise<GatewayFixture> {
  const system = await startTestSystem({ databasePrefix: 'wl_gateway', redis: true, ...(options.db ? { db: options.db } : {}) });
  const { db, stops } = system;
  try {
    const admin = { username: `admin_${randomBytes(3).toString('hex')}`, password: 'admin-password-1' };
    const webDist = await mkdtemp(path.join(os.tmpdir(), 'wl-web-'));
    stops.push('web dist', () => rm(webDist, { recursive: true, force: true }));
    await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>WarmLine</title><div id="root"></div>');

    const config = parseConfig(gatewayEnv, {
      ...system.env,
      SESSION_SECRET,
      GATEWAY_PORT: '0',
      GATEWAY_INTERNAL_PORT: '0',
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
      WEB_DIST_DIR: webDist,
      ...options.env,
    });
    const gateway = await startGateway(config, {
      log: createLogger('gateway', 'silent'),
      ...(options.forwardRoutes ? { forwardRoutes: options.forwardRoutes } : {}),
    });
    stops.push('gateway', gateway.stop);
    const pool = createPool(db.url, GATEWAY_SCHEMA);
    stops.push('gateway pool', () => {
      pool.on('error', () => undefined);
      return pool.end();
    });

    return {
      url: gateway.url,
      internalUrl: gateway.internalUrl,
      config,
      db,
      pool,
      admin,
      async createAgent(overrides = {}) {
        const tag = randomBytes(4).toString('hex');
        const spec: AgentSpec = {
          username: `agent_${tag}`,
          email: `agent_${tag}@example.com`,
          password: `agent-password-${tag}`,
          firstName: 'Avery',
          lastName: 'Agent',
          role: 'Insurance Agent',
          ...overrides,
        };
        const user = await createAccount(pool, spec);
        return { user, password: spec.password };
      },
      browser: (browserOptions = {}) =>
        new Browser(gateway.url, browserOptions.ip ? { 'x-forwarded-for': browserOptions.ip } : {}),
      async startMailWorker() {
        const mailDir = await mkdtemp(path.join(os.tmpdir(), 'wl-gateway-mail-'));
        stops.push('mail dir', () => rm(mailDir, { recursive: true, force: true }));
        stops.push('mail queues', () => deleteBusNames(system.namespace, NOTIFICATIONS_QUEUES));
        const worker = await startNotifications(
          parseConfig(notificationsEnv, { ...system.env, NOTIFICATIONS_PORT: '0', MAIL_DIR: mailDir }),
          createLogger('notifications', 'silent'),
        );
        stops.push('notifications', worker.stop);
        return { mailDir };
      },
      stopGateway: gateway.stop,
      cleanup: system.cleanup,
    };
  } catch (err) {
    await system.cleanup();
    throw err;
  }
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any;
}

export interface RequestOptions {
  json?: unknown;
  body?: string;
  headers?: Record<string, string>;
}

/** A minimal browser: keeps the cookies the gateway sets and sends them back. */
export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    /** Sent with every request (a request's own headers win). */
    readonly defaultHeaders: Record<string, string> = {},
  ) {}

  get(path: string, options?: RequestOptions) {
    return this.request('GET', path, options);
  }
  post(path: string, json?: unknown, options: RequestOptions = {}) {
    return this.request('POST', path, { ...options, json });
  }
  patch(path: string, json?: unknown, options: RequestOptions = {}) {
    return this.request('PATCH', path, { ...options, json });
  }
  delete(path: string, options: RequestOptions = {}) {
    return this.request('DELETE', path, { headers: { 'x-requested-with': 'XMLHttpRequest', ...options.headers } });
  }

  async login(username: string, password: string): Promise<Answer> {
    const answer = await this.post('/api/login', { username, password });
    if (answer.status !== 200) throw new Error(`login of ${username} failed: ${answer.status} ${answer.text}`);
    return answer;
  }

  /** The session cookie's raw value (signed session id), if any. */
  get sessionCookie(): string | undefined {
    return this.cookies.get('warmline.sid');
  }

  /** The session id inside the signed cookie (`s:<id>.<signature>`). */
  get sessionId(): string | undefined {
    const raw = this.sessionCookie;
    if (!raw) return undefined;
    return /^s:([^.]+)\./.exec(decodeURIComponent(raw))?.[1];
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...this.defaultHeaders };
    let body: string | undefined = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (cookie) headers.cookie = cookie;
    Object.assign(headers, options.headers);
    const res = await fetch(new URL(path, this.baseUrl), { method, headers, body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]!) < Date.now());
      if (!value || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
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
