import { createRequire } from 'node:module';

/** The part of autocannon's API the benchmarks use (it ships no types). */
export interface CannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface CannonResult {
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
  latency: { p50: number; p90?: number; p99: number; average: number; max?: number };
  requests: { average: number; total?: number };
}

export interface CannonOptions {
  url: string;
  connections: number;
  /** Seconds; or `amount` requests in all. */
  duration?: number;
  amount?: number;
  /** A cap on requests per second over all connections; still a closed loop (each connection waits for its answer). */
  overallRate?: number;
  requests: Array<CannonRequest & { setupRequest?: (req: CannonRequest) => CannonRequest; onResponse?: (status: number, body: string) => void }>;
}

export const autocannon = createRequire(import.meta.url)('autocannon') as (options: CannonOptions) => Promise<CannonResult>;
