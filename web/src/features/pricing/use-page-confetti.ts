import { useEffect } from 'react';
import { burstConfettiAfter, type ConfettiOptions } from '../../lib/confetti';

/**
 * The confetti the pricing pages and checkouts start on load (spec §9): bursts 200 ms and
 * 400 ms after the page opens; the ultimate page adds a third at 600 ms and fires more and
 * wider particles.
 */
const BURSTS: Record<'standard' | 'strong', Array<[delayMs: number, options: ConfettiOptions]>> = {
  standard: [
    [200, { particleCount: 100, spread: 70, origin: { y: 0.6 } }],
    [400, { particleCount: 60, spread: 100, origin: { y: 0.6 } }],
  ],
  strong: [
    [200, { particleCount: 150, spread: 90, origin: { y: 0.6 } }],
    [400, { particleCount: 120, spread: 120, startVelocity: 45, origin: { y: 0.6 } }],
    [600, { particleCount: 200, spread: 160, startVelocity: 55, origin: { y: 0.6 } }],
  ],
};

export function usePageConfetti(strength: 'standard' | 'strong' = 'standard'): void {
  useEffect(() => {
    const cancels = BURSTS[strength].map(([delay, options]) => burstConfettiAfter(delay, options));
    return () => cancels.forEach((cancel) => cancel());
  }, [strength]);
}
