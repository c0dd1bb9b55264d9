import type { Pool } from '../db/index';

/** A counting semaphore: at most `size` holders at once, the rest wait in order. */
export class Permits {
  private held = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {}

  async use<T>(work: () => Promise<T>): Promise<T> {
    if (this.held >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.held += 1;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The permit passes straight to the next waiter, so `held` stays as it is.
      if (next) next();
      else this.held -= 1;
    }
  }
}

/**
 * Connections a pool leaves to its other users (HTTP requests, the outbox relay, its
 * listener) however many consumers share it.
 */
const KEPT_FOR_OTHERS = 2;
const permitsByPool = new WeakMap<Pool, Permits>();

/**
 * The handler permits of a pool, shared by every consumer on it: their handlers together
 * never ask for more connections than the pool can give, so a busy queue waits for a permit
 * (without a deadline) instead of timing out in the pool's own queue and being retried as if
 * its handler had failed.
 */
export function poolPermits(pool: Pool): Permits {
  let permits = permitsByPool.get(pool);
  if (!permits) {
    permits = new Permits(Math.max(1, (pool.options.max ?? 10) - KEPT_FOR_OTHERS));
    permitsByPool.set(pool, permits);
  }
  return permits;
}

/**
 * Lets handlers run together, or one run alone: `alone` waits until nothing else runs and
 * holds everything that comes after it until it is done.
 */
export class HandlerGate {
  private running = 0;
  private exclusive = false;
  private readonly queue: Array<{ alone: boolean; start: () => void }> = [];

  together<T>(work: () => Promise<T>): Promise<T> {
    return this.enter(false, work);
  }

  alone<T>(work: () => Promise<T>): Promise<T> {
    return this.enter(true, work);
  }

  private async enter<T>(alone: boolean, work: () => Promise<T>): Promise<T> {
    if (!this.canStart(alone) || this.queue.length > 0) {
      await new Promise<void>((start) => this.queue.push({ alone, start }));
    } else {
      this.begin(alone);
    }
    try {
      return await work();
    } finally {
      this.running -= 1;
      if (alone) this.exclusive = false;
      this.startWaiting();
    }
  }

  private canStart(alone: boolean): boolean {
    return alone ? this.running === 0 : !this.exclusive;
  }

  private begin(alone: boolean): void {
    this.running += 1;
    if (alone) this.exclusive = true;
  }

  /** Starts waiters in arrival order while they can start; an `alone` at the head blocks the rest. */
  private startWaiting(): void {
    while (this.queue.length > 0 && this.canStart(this.queue[0]!.alone)) {
      const next = this.queue.shift()!;
      this.begin(next.alone);
      next.start();
    }
  }
}
