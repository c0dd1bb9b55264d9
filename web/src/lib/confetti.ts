import type confetti from 'canvas-confetti';
import type { Options } from 'canvas-confetti';

/**
 * The one way screens start confetti (spec §9: bursts of 100 particles, spread 70, origin
 * y 0.6; delays of 200/400/600 ms are the callers'). The library is loaded on first use so
 * it never weighs on a page that shows none, and people who ask for reduced motion get none.
 */
export type ConfettiOptions = Pick<Options, 'particleCount' | 'spread' | 'origin' | 'startVelocity' | 'angle' | 'ticks'>;

const DEFAULT_BURST: ConfettiOptions = { particleCount: 100, spread: 70, origin: { y: 0.6 } };

let shared: Promise<confetti.CreateTypes> | undefined;

/**
 * One full-page cannon without a Web Worker: the library's default draws in a worker made from a
 * blob: URL, which the CSP's script-src (worker-src) refuses.
 */
function cannon(): Promise<confetti.CreateTypes> {
  shared ??= import('canvas-confetti').then(({ default: lib }) => lib.create(undefined, { resize: true, useWorker: false }));
  return shared;
}

export async function burstConfetti(options: ConfettiOptions = DEFAULT_BURST): Promise<void> {
  if (typeof window === 'undefined') return;
  const confetti = await cannon();
  await confetti({ ...DEFAULT_BURST, ...options, disableForReducedMotion: true });
}

/** Bursts after `delayMs`; the returned function cancels a burst that has not started. */
export function burstConfettiAfter(delayMs: number, options?: ConfettiOptions): () => void {
  const timer = setTimeout(() => void burstConfetti(options), delayMs);
  return () => clearTimeout(timer);
}

/** Keeps bursting from both sides for `durationMs` (the 3-second celebrations). */
export function confettiFor(durationMs: number): () => void {
  const end = Date.now() + durationMs;
  let stopped = false;
  const frame = () => {
    if (stopped || Date.now() > end) return;
    void burstConfetti({ particleCount: 4, angle: 60, spread: 55, origin: { x: 0, y: 0.6 } });
    void burstConfetti({ particleCount: 4, angle: 120, spread: 55, origin: { x: 1, y: 0.6 } });
    setTimeout(frame, 150);
  };
  frame();
  return () => {
    stopped = true;
  };
}
