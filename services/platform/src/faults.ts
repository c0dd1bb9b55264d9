import {
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  ReconnectStrategyError,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
  TimeoutError,
} from 'redis';
import { AppError } from './errors';

/** The shared dependencies a service can lose for a moment (ARCHITECTURE §5, Faults). */
export type Dependency = 'postgres' | 'redis' | 'rabbitmq';

/** Where markUnavailable records which dependency a bare socket error came from. */
const DEPENDENCY = Symbol.for('warmline.unavailableDependency');

/**
 * Records on `err` that it means "`dependency` is away". For errors that carry no protocol of
 * their own (ECONNREFUSED, ECONNRESET…): the code that knows which client threw says so, and
 * everyone further up (the HTTP kit, a consumer) can tell. Returns `err`, for `throw mark(…)`.
 */
export function markUnavailable<E>(err: E, dependency: Dependency): E {
  if (err && typeof err === 'object') {
    Object.defineProperty(err, DEPENDENCY, { value: dependency, enumerable: false, configurable: true });
  }
  return err;
}

/**
 * Says which dependency an error comes from when it means "that dependency is away"
 * (refused, reset, terminated, timed out waiting for it), and undefined for every other error
 * (a constraint, a bad query, a handler's own failure). Callers answer the first with a 503
 * and wait it out; they never count it as a failure of the work itself.
 */
export function unavailableDependency(err: unknown): Dependency | undefined {
  if (err instanceof DependencyUnavailableError) return err.dependency;
  if (!err || typeof err !== 'object') return undefined;
  const marked = (err as { [DEPENDENCY]?: Dependency })[DEPENDENCY];
  if (marked) return marked;
  const e = err as { code?: unknown; message?: unknown; name?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : '';
  // PostgreSQL: connection exceptions (08xxx), admin shutdown / crash shutdown / cannot
  // connect now (57P01-57P03), too many connections (53300); node-postgres' own words.
  if (/^08...$/.test(code) || /^57P0[1-3]$/.test(code) || code === '53300') return 'postgres';
  if (
    /timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error|terminating connection due to administrator command|the database system is (starting up|shutting down)|Client was closed and is not queryable/i.test(
      message,
    )
  ) {
    return 'postgres';
  }
  // node-redis: the client is closed or reconnecting, or a command timed out. Its error classes
  // keep the name 'Error' and TimeoutError has no message, so only their class tells them apart.
  if (
    err instanceof ClientClosedError ||
    err instanceof ClientOfflineError ||
    err instanceof ConnectionTimeoutError ||
    err instanceof SocketClosedUnexpectedlyError ||
    err instanceof SocketTimeoutError ||
    err instanceof TimeoutError ||
    err instanceof ReconnectStrategyError
  ) {
    return 'redis';
  }
  if (/^(ClientClosedError|ClientOfflineError|ConnectionTimeoutError|SocketClosedUnexpectedlyError|CommandTimeoutError|TimeoutError)$/.test(String(e.name))) {
    return 'redis';
  }
  if (/The client is (closed|offline)|Socket closed unexpectedly|Command timed out/i.test(message)) return 'redis';
  // Socket-level errors carry no protocol; the caller that knows which client threw marks them.
  return undefined;
}

const NETWORK_CODES = ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT'];

/**
 * A socket that could not reach its peer: refused, reset, unreachable, timed out. fetch()
 * throws a TypeError('fetch failed') whose cause is the socket's error, so causes are read too.
 */
export function isNetworkError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.includes(code)) return true;
  }
  return false;
}

const WHAT: Record<Dependency, string> = {
  postgres: 'the database',
  redis: 'the session store',
  rabbitmq: 'the message broker',
};

/** Seconds a client is told to wait (Retry-After) before trying again. */
export const RETRY_AFTER_SECONDS = 5;

/** 503 with a message that says what is away and that trying again shortly will work. */
export class DependencyUnavailableError extends AppError {
  constructor(readonly dependency: Dependency) {
    super('ServiceUnavailable', `Service temporarily unavailable: ${WHAT[dependency]} is not reachable. Please try again in a few seconds.`, 503, {
      retryAfterSeconds: RETRY_AFTER_SECONDS,
    });
  }
}

/**
 * The 503 for an error that means "something this request needs is away": a dependency's
 * (see unavailableDependency), or a bare socket error from a peer nobody named (a 503 still
 * tells the truth — try again shortly — where a 500 would not). Undefined for other errors.
 */
export function asUnavailable(err: unknown): AppError | undefined {
  if (err instanceof AppError && err.status === 503) return err;
  const dependency = unavailableDependency(err);
  if (dependency) return new DependencyUnavailableError(dependency);
  if (isNetworkError(err)) {
    return new AppError('ServiceUnavailable', 'Service temporarily unavailable: a service this request needs is not reachable. Please try again in a few seconds.', 503, {
      retryAfterSeconds: RETRY_AFTER_SECONDS,
    });
  }
  return undefined;
}
