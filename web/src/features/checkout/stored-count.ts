import { useEffect } from 'react';

/**
 * The count a visitor arrives with (spec §3): `projectedTransfers` (an integer) and, for the
 * high-volume checkout, `highVolumeData` ({ volume, pricePerCall, total, tier }) in local
 * storage. Both are removed 1 second after a checkout opens, so a later visit starts fresh.
 */
const PROJECTED_TRANSFERS_KEY = 'projectedTransfers';
const HIGH_VOLUME_DATA_KEY = 'highVolumeData';
const STORED_COUNT_CLEANUP_MS = 1000;

function positiveInteger(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value.trim()) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** The stored count for this checkout, if any (the prices stored with it are ignored: the server prices). */
export function readStoredCount(highVolume: boolean): number | undefined {
  try {
    if (highVolume) {
      const raw = window.localStorage.getItem(HIGH_VOLUME_DATA_KEY);
      const volume = raw ? positiveInteger((JSON.parse(raw) as { volume?: unknown } | null)?.volume) : undefined;
      if (volume !== undefined) return volume;
    }
    return positiveInteger(window.localStorage.getItem(PROJECTED_TRANSFERS_KEY));
  } catch {
    // Storage disabled or the value is not JSON: start from the default.
    return undefined;
  }
}

/** Removes the stored counts 1 second after the checkout opens. */
export function useStoredCountCleanup(highVolume: boolean): void {
  useEffect(() => {
    const timer = setTimeout(() => {
      try {
        window.localStorage.removeItem(PROJECTED_TRANSFERS_KEY);
        if (highVolume) window.localStorage.removeItem(HIGH_VOLUME_DATA_KEY);
      } catch {
        // Storage disabled: nothing was stored either.
      }
    }, STORED_COUNT_CLEANUP_MS);
    return () => clearTimeout(timer);
  }, [highVolume]);
}
