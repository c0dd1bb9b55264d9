/**
 * Paced, open-model HTTP load (issue 27): requests leave at a fixed arrival rate whatever the
 * server does, each timed from the moment it was SCHEDULED to leave, not from when a socket was
 * free — so a server that falls behind shows its queueing in the latency, which a closed-loop
 * tool (autocannon: N connections, each waiting for its answer before it sends again) hides by
 * slowing its senders down. Many keep-alive sockets; a request that finds none free waits in the
 * agent's queue, and that wait is counted too.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { percentileOfSorted } from './stats.js';

interface PacedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface PacedLoadOptions {
  /** The server, e.g. http://127.0.0.1:3000. */
  url: string;
  /** Requests a second, spread evenly. */
  rate: number;
  seconds: number;
  /** Keep-alive sockets at most (default 256). */
  sockets?: number;
  /** The next request to send (called at its scheduled time). */
  request: () => PacedRequest;
  /** A request not answered in this long counts as a timeout (default 10 s). */
  timeoutMs?: number;
  /** Each answer's status and body, as it arrives (bodies are only kept when this is given). */
  onResponse?: (status: number, body: string) => void;
}

export interface PacedLoadResult {
  rate: number;
  seconds: number;
  sent: number;
  /** Answers by HTTP status. */
  statuses: Record<number, number>;
  ok: number;
  errors: number;
  timeouts: number;
  /** From the scheduled send time to the whole answer read, in ms (answered requests). */
  latency: { p50: number; p90: number; p99: number; max: number; mean: number };
  /** How far the sender itself fell behind its schedule at worst, in ms (the generator's own limit). */
  maxSendLagMs: number;
  /** Answered requests a second over the run (first scheduled send to last answer). */
  achievedRate: number;
}

export async function pacedLoad(options: PacedLoadOptions): Promise<PacedLoadResult> {
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.sockets ?? 256 });
  const total = Math.max(1, Math.round(options.rate * options.seconds));
  const interval = 1000 / options.rate;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const latencies = new Float64Array(total);
  const statuses: Record<number, number> = {};
  let answered = 0;
  let errors = 0;
  let timeouts = 0;
  let finished = 0;
  let sent = 0;
  let maxSendLagMs = 0;
  let lastAnswerAt = 0;

  let done!: () => void;
  const allDone = new Promise<void>((resolve) => (done = resolve));
  const settle = () => {
    finished += 1;
    if (finished === total) done();
  };

  const send = (scheduledAt: number) => {
    const { method, path, headers, body } = options.request();
    const req = http.request(
      { hostname: target.hostname, port: target.port, method, path, agent, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          if (options.onResponse) chunks.push(chunk);
        });
        res.on('end', () => {
          const now = performance.now();
          options.onResponse?.(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'));
          lastAnswerAt = now;
          latencies[answered] = now - scheduledAt;
          answered += 1;
          statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
          settle();
        });
        res.on('error', () => {
          errors += 1;
          settle();
        });
      },
    );
    req.setTimeout(timeoutMs, () => {
      timeouts += 1;
      req.destroy(new Error('timed out'));
    });
    req.on('error', (err) => {
      if (err.message !== 'timed out') errors += 1;
      settle();
    });
    req.end(body);
  };

  const started = performance.now();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      // Everything due by now leaves now, timed from when it was due.
      while (sent < total && started + sent * interval <= now) {
        const scheduledAt = started + sent * interval;
        maxSendLagMs = Math.max(maxSendLagMs, now - scheduledAt);
        sent += 1;
        send(scheduledAt);
      }
      if (sent >= total) return resolve();
      setTimeout(tick, Math.max(0, started + sent * interval - performance.now()));
    };
    tick();
  });
  await allDone;
  agent.destroy();

  const answeredLatencies = Array.from(latencies.subarray(0, answered).sort());
  let sum = 0;
  for (const l of answeredLatencies) sum += l;
  const ok = Object.entries(statuses).reduce((n, [status, count]) => (Number(status) >= 200 && Number(status) < 300 ? n + count : n), 0);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    rate: options.rate,
    seconds: options.seconds,
    sent,
    statuses,
    ok,
    errors,
    timeouts,
    latency: {
      p50: round(percentileOfSorted(answeredLatencies, 0.5)),
      p90: round(percentileOfSorted(answeredLatencies, 0.9)),
      p99: round(percentileOfSorted(answeredLatencies, 0.99)),
      max: round(answeredLatencies[answeredLatencies.length - 1] ?? Number.NaN),
      mean: round(answered > 0 ? sum / answered : Number.NaN),
    },
    maxSendLagMs: round(maxSendLagMs),
    achievedRate: answered / (Math.max(1, lastAnswerAt - started) / 1000),
  };
}
