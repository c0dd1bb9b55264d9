import type { Logger, Pool } from '@warmline/platform';
import type { Throttle } from '../edge/throttle';

/** Ends sessions of a user (kept in Redis by the HTTP layer). */
export interface SessionTerminator {
  endAllSessions(userId: string, options?: { exceptSessionId?: string }): Promise<void>;
}

/** What the account use cases need, built once at start. */
export interface AccountsContext {
  pool: Pool;
  log: Logger;
  throttle: Throttle;
  sessions: SessionTerminator;
  /** Base of links sent by e-mail, e.g. 'http://localhost:3000'. */
  publicUrl: string;
  /** Forgot-password requests are handled behind the answer; this starts a run at once. */
  resetRequests: { nudge(): void };
}

/** Where a request came from, carried into events and throttles. */
export interface RequestOrigin {
  correlationId: string;
  ip: string;
}

export const SOURCE = 'gateway';
