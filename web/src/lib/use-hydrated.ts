import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False in the prerender and while React takes over a prerendered page, true afterwards (and at
 * once on a page rendered in the browser). What depends on the browser (a booking frame, being
 * online) waits for it, so hydration finds exactly the prerendered markup.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
