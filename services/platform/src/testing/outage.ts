import { Writable } from 'node:stream';
import { createLogger } from '../log';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

/**
 * Helpers for outage tests: a service under test reaches PostgreSQL, Redis or RabbitMQ through
 * a TCP proxy (tcp-proxy.ts) that the test cuts and restores, while the test itself and every
 * other test keep the real server.
 */

const DEFAULT_PORTS: Record<string, number> = { 'postgres:': 5432, 'postgresql:': 5432, 'redis:': 6379, 'amqp:': 5672 };

export interface ProxiedDependency {
  proxy: TcpProxy;
  /** `url` with its host and port replaced by the proxy's: give this to the service under test. */
  url: string;
}

/** Starts a proxy in front of the server `url` names and returns the URL that goes through it. */
export async function proxyFor(url: string): Promise<ProxiedDependency> {
  const target = new URL(url);
  const port = Number(target.port) || DEFAULT_PORTS[target.protocol];
  if (!port) throw new Error(`No port in ${target.protocol} URL and no default known`);
  const proxy = await startTcpProxy(target.hostname, port);
  const through = new URL(url);
  through.hostname = '127.0.0.1';
  through.port = String(proxy.port);
  return { proxy, url: through.toString() };
}

export interface ReadyzAnswer {
  status: number;
  body: { status?: string; degraded?: string[]; checks?: Record<string, string> };
}

/** GET <baseUrl>/readyz. */
export async function readyz(baseUrl: string): Promise<ReadyzAnswer> {
  const res = await fetch(`${baseUrl}/readyz`);
  return { status: res.status, body: (await res.json()) as ReadyzAnswer['body'] };
}

/** What one request of a steady load ended with. */
export type LoadOutcome = { status: number; error?: string; at: number } | { status: 'no answer'; error: string; at: number };

/**
 * A steady stream of requests (`concurrency` loops, each sending its next request when the
 * previous one answered) until stop(). Each request gets an answer or, after `hangMs`,
 * counts as 'no answer': an outage must never make a request hang.
 */
export function steadyLoad(
  send: (signal: AbortSignal) => Promise<{ status: number; error?: string }>,
  { concurrency = 3, hangMs = 15_000, pauseMs = 20 } = {},
): { outcomes: LoadOutcome[]; since(at: number): LoadOutcome[]; stop(): Promise<void> } {
  const outcomes: LoadOutcome[] = [];
  let running = true;
  const loop = async () => {
    while (running) {
      try {
        const answer = await send(AbortSignal.timeout(hangMs));
        outcomes.push({ ...answer, at: Date.now() });
      } catch (err) {
        outcomes.push({ status: 'no answer', error: err instanceof Error ? err.message : String(err), at: Date.now() });
      }
      await new Promise((r) => setTimeout(r, pauseMs));
    }
  };
  const loops = Array.from({ length: concurrency }, loop);
  return {
    outcomes,
    since: (at) => outcomes.filter((o) => o.at >= at),
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** A logger whose JSON lines a test can read back, e.g. to see a service waiting for a dependency. */
export function capturingLogger(service = 'test', level = 'info') {
  const lines: Array<{ msg?: string; [key: string]: unknown }> = [];
  const log = createLogger(service, level, new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as { msg?: string });
      done();
    },
  }));
  return { log, lines, count: (msg: string) => lines.filter((l) => l.msg === msg).length };
}
