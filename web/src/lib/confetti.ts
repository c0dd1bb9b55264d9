import type { Options } from 'canvas-confetti';

/**
 * The one way screens start confetti (spec §9: bursts of 100 particles, spread 70, origin
 * y 0.6; delays of 200/400/600 ms are the callers'). The library is loaded on first use so
 * it never weighs on a page that shows none, and people who ask for reduced motion get none.
 */
export type ConfettiOptions = Pick<Options, 'particleCount' | 'spread' | 'origin' | 'startVelocity' | 'angle' | 'ticks'>;

const DEFAULT_BURST: ConfettiOptions = { particleCount: 100, spread: 70, origin: { y: 0.6 } };

/** What the page posts to the confetti worker (src/lib/confetti-worker.ts). */
export type ConfettiMessage =
  | { kind: 'canvas'; canvas: OffscreenCanvas }
  | { kind: 'size'; width: number; height: number }
  | { kind: 'burst'; options: ConfettiOptions };

type Cannon = (options: ConfettiOptions) => void;
let shared: Promise<Cannon> | undefined;

/**
 * A full-page canvas drawn in a worker of our own: the bursts run while the page is still
 * loading, and drawn on the main thread they block it for seconds on a slow phone (Lighthouse's
 * Total Blocking Time on the pricing pages). The library's own worker is made from a blob: URL,
 * which the CSP's script-src (worker-src) refuses; ours is a file of the build.
 */
function workerCannon(): Cannon {
  const canvas = document.createElement('canvas');
  // Set through the CSSOM, which the CSP allows (a style attribute it would refuse).
  Object.assign(canvas.style, { position: 'fixed', inset: '0', width: '100%', height: '100%', pointerEvents: 'none', zIndex: '100' });
  canvas.setAttribute('aria-hidden', 'true');
  canvas.width = document.documentElement.clientWidth;
  canvas.height = document.documentElement.clientHeight;
  document.body.appendChild(canvas);
  const worker = new Worker(new URL('./confetti-worker.ts', import.meta.url), { type: 'module' });
  const post = (message: ConfettiMessage, transfer: Transferable[] = []) => worker.postMessage(message, transfer);
  const offscreen = canvas.transferControlToOffscreen();
  post({ kind: 'canvas', canvas: offscreen }, [offscreen]);
  window.addEventListener('resize', () =>
    post({ kind: 'size', width: document.documentElement.clientWidth, height: document.documentElement.clientHeight }),
  );
  return (options) => post({ kind: 'burst', options });
}

/** Where a browser cannot hand a canvas to a worker: the library on the main thread. */
async function mainThreadCannon(): Promise<Cannon> {
  const { default: lib } = await import('canvas-confetti');
  const cannon = lib.create(undefined, { resize: true, useWorker: false });
  return (options) => void cannon(options);
}

function cannon(): Promise<Cannon> {
  shared ??=
    typeof OffscreenCanvas === 'function' && 'transferControlToOffscreen' in HTMLCanvasElement.prototype
      ? Promise.resolve(workerCannon())
      : mainThreadCannon();
  return shared;
}

const prefersLessMotion = () => typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion)').matches;

export async function burstConfetti(options: ConfettiOptions = DEFAULT_BURST): Promise<void> {
  if (typeof window === 'undefined' || prefersLessMotion()) return;
  const fire = await cannon();
  fire({ ...DEFAULT_BURST, ...options });
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
